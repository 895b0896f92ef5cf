/**
 * Allocations: GET/PUT/DELETE /allocations/{consumer}, POST /allocations and
 * GET /resource_providers/{uuid}/allocations at every window where their shape changes, with
 * validation, capacity and generation errors.
 */
import type { PairRequest, Scenario } from '../pair.ts';
import { c, inventories, LATEST, p, provider, resourceClass } from './b-support.ts';

const PROJECT = 'project-a';
const USER = 'user-a';

export const bAllocations: Scenario = {
  name: 'b-allocations',
  async run(pair) {
    const req = (title: string, request: PairRequest) => pair.req(title, request);
    await provider(pair, p(1), 'compute-1');
    await provider(pair, p(2), 'disk-2');
    await provider(pair, p(3), 'empty-3');
    await resourceClass(pair, 'CUSTOM_MAGIC');
    await inventories(pair, p(1), {
      VCPU: { total: 8, allocation_ratio: 2.0 },
      MEMORY_MB: { total: 4096, min_unit: 256, max_unit: 2048, step_size: 256 },
      DISK_GB: { total: 100, reserved: 10 },
    });
    await inventories(pair, p(2), { DISK_GB: { total: 50 }, CUSTOM_MAGIC: { total: 3 } });

    // Empty reads at each window.
    for (const version of ['1.0', '1.11', '1.12', '1.14', '1.15', '1.28', '1.38', LATEST]) {
      await req(`empty consumer @${version}`, {
        method: 'GET',
        path: `/allocations/${c(1)}`,
        version,
      });
    }
    await req('consumer not a uuid', { method: 'GET', path: '/allocations/not-a-uuid' });
    await req('GET not acceptable', {
      method: 'GET',
      path: `/allocations/${c(1)}`,
      headers: { accept: 'text/plain' },
    });

    // 1.0 list form.
    const listBody = {
      allocations: [
        { resource_provider: { uuid: p(1) }, resources: { VCPU: 2, MEMORY_MB: 512 } },
        { resource_provider: { uuid: p(2) }, resources: { DISK_GB: 10 } },
      ],
    };
    await req('PUT 1.0 list form', {
      method: 'PUT',
      path: `/allocations/${c(1)}`,
      version: '1.0',
      body: listBody,
    });
    for (const version of ['1.0', '1.11', '1.12', '1.14', '1.15', '1.27', '1.28', '1.37', '1.38']) {
      await req(`read after 1.0 PUT @${version}`, {
        method: 'GET',
        path: `/allocations/${c(1)}`,
        version,
      });
    }
    const badLegacy: [string, unknown][] = [
      ['bad json', '{"allocations": ['],
      ['not an object', '[]'],
      ['missing allocations', {}],
      ['empty list', { allocations: [] }],
      ['dict form too early', { allocations: { [p(1)]: { resources: { VCPU: 1 } } } }],
      [
        'provider uuid not a uuid',
        { allocations: [{ resource_provider: { uuid: 'nope' }, resources: { VCPU: 1 } }] },
      ],
      [
        'provider without uuid',
        { allocations: [{ resource_provider: {}, resources: { VCPU: 1 } }] },
      ],
      ['no resources', { allocations: [{ resource_provider: { uuid: p(1) } }] }],
      ['empty resources', { allocations: [{ resource_provider: { uuid: p(1) }, resources: {} }] }],
      [
        'lower-case class',
        { allocations: [{ resource_provider: { uuid: p(1) }, resources: { vcpu: 1 } }] },
      ],
      [
        'zero amount',
        { allocations: [{ resource_provider: { uuid: p(1) }, resources: { VCPU: 0 } }] },
      ],
      [
        'string amount',
        { allocations: [{ resource_provider: { uuid: p(1) }, resources: { VCPU: '1' } }] },
      ],
      [
        'float amount',
        { allocations: [{ resource_provider: { uuid: p(1) }, resources: { VCPU: 1.5 } }] },
      ],
      [
        'extra item key',
        {
          allocations: [{ resource_provider: { uuid: p(1) }, resources: { VCPU: 1 }, x: 1 }],
        },
      ],
      ['project too early', { ...listBody, project_id: PROJECT, user_id: USER }],
    ];
    for (const [title, body] of badLegacy) {
      await req(`PUT 1.7 ${title}`, {
        method: 'PUT',
        path: `/allocations/${c(2)}`,
        version: '1.7',
        body,
      });
    }
    await req('PUT without content type', {
      method: 'PUT',
      path: `/allocations/${c(2)}`,
      version: '1.7',
      body: listBody,
      headers: { 'content-type': '' },
    });
    await req('PUT text/plain', {
      method: 'PUT',
      path: `/allocations/${c(2)}`,
      version: '1.7',
      body: JSON.stringify(listBody),
      headers: { 'content-type': 'text/plain' },
    });
    await req('PUT empty body', {
      method: 'PUT',
      path: `/allocations/${c(2)}`,
      version: '1.7',
      body: '',
    });
    await req('PUT malformed consumer', {
      method: 'PUT',
      path: '/allocations/not-a-uuid',
      version: '1.7',
      body: listBody,
    });
    await req('PUT consumer without dashes', {
      method: 'PUT',
      path: `/allocations/${c(3).replaceAll('-', '').toUpperCase()}`,
      version: '1.7',
      body: listBody,
    });
    await req('read canonical form', {
      method: 'GET',
      path: `/allocations/${c(3)}`,
      version: '1.12',
    });
    await req('read undashed form', {
      method: 'GET',
      path: `/allocations/${c(3).replaceAll('-', '')}`,
      version: '1.12',
    });

    // 1.8: project and user required.
    await req('PUT 1.8 without owner', {
      method: 'PUT',
      path: `/allocations/${c(2)}`,
      version: '1.8',
      body: listBody,
    });
    await req('PUT 1.8 empty project', {
      method: 'PUT',
      path: `/allocations/${c(2)}`,
      version: '1.8',
      body: { ...listBody, project_id: '', user_id: USER },
    });
    await req('PUT 1.8 long user', {
      method: 'PUT',
      path: `/allocations/${c(2)}`,
      version: '1.8',
      body: { ...listBody, project_id: PROJECT, user_id: 'u'.repeat(256) },
    });
    await req('PUT 1.8 owner', {
      method: 'PUT',
      path: `/allocations/${c(2)}`,
      version: '1.8',
      body: { ...listBody, project_id: PROJECT, user_id: USER },
    });
    await req('read 1.8 write @1.12', {
      method: 'GET',
      path: `/allocations/${c(2)}`,
      version: '1.12',
    });

    // 1.12 dict form.
    const dict = (resources: Record<string, number>, extra: Record<string, unknown> = {}) => ({
      allocations: { [p(1)]: { resources } },
      project_id: PROJECT,
      user_id: USER,
      ...extra,
    });
    const badDict: [string, unknown][] = [
      ['list form too late', { ...listBody, project_id: PROJECT, user_id: USER }],
      ['empty allocations', { allocations: {}, project_id: PROJECT, user_id: USER }],
      ['missing user', { allocations: { [p(1)]: { resources: { VCPU: 1 } } }, project_id: 'x' }],
      [
        'bad provider key',
        { ...dict({ VCPU: 1 }), allocations: { nope: { resources: { VCPU: 1 } } } },
      ],
      [
        'generation not integer',
        { ...dict({}), allocations: { [p(1)]: { resources: { VCPU: 1 }, generation: 'x' } } },
      ],
      ['no resources', { ...dict({}), allocations: { [p(1)]: {} } }],
      ['consumer_generation too early', dict({ VCPU: 1 }, { consumer_generation: null })],
    ];
    for (const [title, body] of badDict) {
      await req(`PUT 1.27 ${title}`, {
        method: 'PUT',
        path: `/allocations/${c(4)}`,
        version: '1.27',
        body,
      });
    }
    await req('PUT 1.12 with provider generation', {
      method: 'PUT',
      path: `/allocations/${c(4)}`,
      version: '1.12',
      body: {
        ...dict({}),
        allocations: { [p(1)]: { resources: { VCPU: 1 }, generation: 99 } },
      },
    });

    // Existence, classes and capacity.
    const put = (title: string, resources: Record<string, number>, uuid = p(1), version = '1.27') =>
      req(title, {
        method: 'PUT',
        path: `/allocations/${c(5)}`,
        version,
        body: { ...dict({}), allocations: { [uuid]: { resources } } },
      });
    await put('unknown provider', { VCPU: 1 }, p(99));
    await put('unknown class', { CUSTOM_NOPE: 1 });
    await put('class without inventory', { CUSTOM_MAGIC: 1 });
    await put('provider without any inventory', { VCPU: 1 }, p(3));
    await put('over capacity', { VCPU: 17 });
    await put('exactly capacity', { VCPU: 14 });
    await put('reserved counts', { DISK_GB: 91 });
    await put('below min_unit', { MEMORY_MB: 128 });
    await put('above max_unit', { MEMORY_MB: 2304 });
    await put('off step_size', { MEMORY_MB: 300 });
    await put('unknown class @1.23 code', { CUSTOM_NOPE: 1 }, p(1), '1.23');
    await put('over capacity @1.22', { VCPU: 17 }, p(1), '1.22');
    await put('over capacity @1.23', { VCPU: 17 }, p(1), '1.23');
    await req('allocations of compute-1 @1.0', {
      method: 'GET',
      path: `/resource_providers/${p(1)}/allocations`,
      version: '1.0',
    });

    // 1.28 consumer generations on PUT.
    const gen = (value: unknown) => dict({ VCPU: 1 }, { consumer_generation: value });
    await req('1.28 no consumer_generation', {
      method: 'PUT',
      path: `/allocations/${c(6)}`,
      version: '1.28',
      body: dict({ VCPU: 1 }),
    });
    await req('1.28 string generation', {
      method: 'PUT',
      path: `/allocations/${c(6)}`,
      version: '1.28',
      body: gen('1'),
    });
    await req('1.28 new consumer with a generation', {
      method: 'PUT',
      path: `/allocations/${c(6)}`,
      version: '1.28',
      body: gen(3),
    });
    await req('1.28 new consumer', {
      method: 'PUT',
      path: `/allocations/${c(6)}`,
      version: '1.28',
      body: gen(null),
    });
    await req('1.28 existing consumer with null', {
      method: 'PUT',
      path: `/allocations/${c(6)}`,
      version: '1.28',
      body: gen(null),
    });
    await req('1.28 stale generation', {
      method: 'PUT',
      path: `/allocations/${c(6)}`,
      version: '1.28',
      body: gen(0),
    });
    await req('1.28 right generation', {
      method: 'PUT',
      path: `/allocations/${c(6)}`,
      version: '1.28',
      body: {
        ...gen(1),
        allocations: { [p(1)]: { resources: { VCPU: 2 } }, [p(2)]: { resources: { DISK_GB: 5 } } },
      },
    });
    await req('read c6 @1.28', { method: 'GET', path: `/allocations/${c(6)}`, version: '1.28' });
    await req('1.28 over capacity keeps generation', {
      method: 'PUT',
      path: `/allocations/${c(6)}`,
      version: '1.28',
      body: dict({ VCPU: 100 }, { consumer_generation: 2 }),
    });
    await req('read c6 again', { method: 'GET', path: `/allocations/${c(6)}`, version: '1.28' });
    await req('1.28 change owner', {
      method: 'PUT',
      path: `/allocations/${c(6)}`,
      version: '1.28',
      body: { ...gen(2), project_id: 'project-b', user_id: 'user-b' },
    });
    await req('read c6 owner', { method: 'GET', path: `/allocations/${c(6)}`, version: '1.28' });
    for (const version of ['1.0', '1.14', '1.15', '1.27', '1.28', LATEST]) {
      await req(`allocations of compute-1 @${version}`, {
        method: 'GET',
        path: `/resource_providers/${p(1)}/allocations`,
        version,
      });
    }
    await req('allocations of unknown provider', {
      method: 'GET',
      path: `/resource_providers/${p(99)}/allocations`,
      version: '1.28',
    });
    await req('allocations of an empty provider', {
      method: 'GET',
      path: `/resource_providers/${p(3)}/allocations`,
      version: '1.28',
    });
    await req('1.28 empty allocations, wrong generation', {
      method: 'PUT',
      path: `/allocations/${c(6)}`,
      version: '1.28',
      body: { ...dict({}, { consumer_generation: 1 }), allocations: {} },
    });
    await req('1.28 empty allocations delete', {
      method: 'PUT',
      path: `/allocations/${c(6)}`,
      version: '1.28',
      body: { allocations: {}, project_id: 'project-b', user_id: 'user-b', consumer_generation: 3 },
    });
    await req('read c6 deleted', { method: 'GET', path: `/allocations/${c(6)}`, version: '1.28' });
    await req('1.28 empty allocations for a new consumer', {
      method: 'PUT',
      path: `/allocations/${c(7)}`,
      version: '1.28',
      body: { allocations: {}, project_id: PROJECT, user_id: USER, consumer_generation: null },
    });
    await req('read c7', { method: 'GET', path: `/allocations/${c(7)}`, version: '1.28' });

    // 1.34 mappings, 1.38 consumer types.
    await req('mappings too early', {
      method: 'PUT',
      path: `/allocations/${c(8)}`,
      version: '1.33',
      body: { ...gen(null), mappings: { '': [p(1)] } },
    });
    for (const [title, mappings] of [
      ['mappings ok', { _NET: [p(1)], '': [p(1)] }],
      ['mappings not a list', { _NET: p(1) }],
      ['mappings empty list', { _NET: [] }],
      ['mappings bad uuid', { _NET: ['nope'] }],
      ['mappings empty object', {}],
      ['mappings bad suffix', { 'bad!': [p(1)] }],
    ] as const) {
      await req(`1.34 ${title}`, {
        method: 'PUT',
        path: `/allocations/${c(8)}`,
        version: '1.34',
        body: { ...gen(null), mappings },
      });
    }
    await req('1.38 without consumer_type', {
      method: 'PUT',
      path: `/allocations/${c(9)}`,
      version: '1.38',
      body: gen(null),
    });
    await req('1.38 lower-case consumer_type', {
      method: 'PUT',
      path: `/allocations/${c(9)}`,
      version: '1.38',
      body: { ...gen(null), consumer_type: 'instance' },
    });
    await req('1.38 empty consumer_type', {
      method: 'PUT',
      path: `/allocations/${c(9)}`,
      version: '1.38',
      body: { ...gen(null), consumer_type: '' },
    });
    await req('1.37 consumer_type too early', {
      method: 'PUT',
      path: `/allocations/${c(9)}`,
      version: '1.37',
      body: { ...gen(null), consumer_type: 'INSTANCE' },
    });
    await req('1.38 consumer_type', {
      method: 'PUT',
      path: `/allocations/${c(9)}`,
      version: '1.38',
      body: { ...gen(null), consumer_type: 'INSTANCE' },
    });
    await req('read typed @1.37', { method: 'GET', path: `/allocations/${c(9)}`, version: '1.37' });
    await req('read typed @1.38', { method: 'GET', path: `/allocations/${c(9)}`, version: '1.38' });
    await req('read untyped @1.38', {
      method: 'GET',
      path: `/allocations/${c(8)}`,
      version: '1.38',
    });
    await req('1.38 change type', {
      method: 'PUT',
      path: `/allocations/${c(9)}`,
      version: '1.38',
      body: { ...gen(1), consumer_type: 'MIGRATION' },
    });
    await req('read retyped', { method: 'GET', path: `/allocations/${c(9)}`, version: '1.38' });
    await req('1.37 write keeps type', {
      method: 'PUT',
      path: `/allocations/${c(9)}`,
      version: '1.37',
      body: gen(2),
    });
    await req('read type kept', { method: 'GET', path: `/allocations/${c(9)}`, version: LATEST });

    // POST /allocations.
    const section = (resources: Record<string, number>, extra: Record<string, unknown> = {}) => ({
      allocations: { [p(1)]: { resources } },
      project_id: PROJECT,
      user_id: USER,
      ...extra,
    });
    await req('POST too early', {
      method: 'POST',
      path: '/allocations',
      version: '1.12',
      body: { [c(10)]: section({ VCPU: 1 }) },
    });
    const badPost: [string, unknown][] = [
      ['empty body', {}],
      ['bad json', '{'],
      ['bad consumer key', { nope: section({ VCPU: 1 }) }],
      ['missing project', { [c(10)]: { allocations: { [p(1)]: { resources: { VCPU: 1 } } } } }],
      ['list form', { [c(10)]: { ...section({}), allocations: [] } }],
      ['zero amount', { [c(10)]: section({ VCPU: 0 }) }],
      ['generation too early', { [c(10)]: section({ VCPU: 1 }, { consumer_generation: null }) }],
    ];
    for (const [title, body] of badPost) {
      await req(`POST 1.13 ${title}`, {
        method: 'POST',
        path: '/allocations',
        version: '1.13',
        body,
      });
    }
    await req('POST 1.13 unknown provider', {
      method: 'POST',
      path: '/allocations',
      version: '1.13',
      body: { [c(10)]: { ...section({}), allocations: { [p(99)]: { resources: { VCPU: 1 } } } } },
    });
    await req('POST 1.13 unknown class', {
      method: 'POST',
      path: '/allocations',
      version: '1.13',
      body: { [c(10)]: section({ CUSTOM_NOPE: 1 }) },
    });
    await req('POST 1.13 over capacity across consumers', {
      method: 'POST',
      path: '/allocations',
      version: '1.13',
      body: { [c(10)]: section({ VCPU: 8 }), [c(11)]: section({ VCPU: 8 }) },
    });
    await req('POST 1.13 class without inventory', {
      method: 'POST',
      path: '/allocations',
      version: '1.13',
      body: { [c(10)]: section({ CUSTOM_MAGIC: 1 }) },
    });
    await req('POST 1.13 step size', {
      method: 'POST',
      path: '/allocations',
      version: '1.13',
      body: { [c(10)]: section({ MEMORY_MB: 100 }) },
    });
    await req('POST 1.13 two consumers, one emptied', {
      method: 'POST',
      path: '/allocations',
      version: '1.13',
      body: {
        [c(10)]: section({ VCPU: 1 }),
        [c(11)]: section({ VCPU: 1, MEMORY_MB: 256 }),
        [c(2)]: { allocations: {}, project_id: PROJECT, user_id: USER },
      },
    });
    for (const consumer of [c(10), c(11), c(2)]) {
      await req(`read ${consumer} after POST`, {
        method: 'GET',
        path: `/allocations/${consumer}`,
        version: '1.28',
      });
    }
    await req('POST 1.28 missing generation', {
      method: 'POST',
      path: '/allocations',
      version: '1.28',
      body: { [c(10)]: section({ VCPU: 2 }) },
    });
    await req('POST 1.28 stale generation', {
      method: 'POST',
      path: '/allocations',
      version: '1.28',
      body: {
        [c(10)]: section({ VCPU: 2 }, { consumer_generation: 1 }),
        [c(11)]: section({ VCPU: 2 }, { consumer_generation: 0 }),
      },
    });
    await req('POST 1.28 new consumer with a generation', {
      method: 'POST',
      path: '/allocations',
      version: '1.28',
      body: { [c(12)]: section({ VCPU: 2 }, { consumer_generation: 4 }) },
    });
    await req('POST 1.28 right generations', {
      method: 'POST',
      path: '/allocations',
      version: '1.28',
      body: {
        [c(10)]: section({ VCPU: 2 }, { consumer_generation: 1 }),
        [c(12)]: section({ VCPU: 1 }, { consumer_generation: null }),
        [c(11)]: { allocations: {}, project_id: PROJECT, user_id: USER, consumer_generation: 1 },
      },
    });
    await req('read c11 emptied', {
      method: 'GET',
      path: `/allocations/${c(11)}`,
      version: '1.28',
    });
    await req('POST 1.34 with mappings', {
      method: 'POST',
      path: '/allocations',
      version: '1.34',
      body: {
        [c(13)]: section({ VCPU: 1 }, { consumer_generation: null, mappings: { '': [p(1)] } }),
      },
    });
    await req('POST 1.33 mappings too early', {
      method: 'POST',
      path: '/allocations',
      version: '1.33',
      body: {
        [c(14)]: section({ VCPU: 1 }, { consumer_generation: null, mappings: { '': [p(1)] } }),
      },
    });
    await req('POST 1.38 missing consumer_type', {
      method: 'POST',
      path: '/allocations',
      version: '1.38',
      body: { [c(14)]: section({ VCPU: 1 }, { consumer_generation: null }) },
    });
    await req('POST 1.38 typed', {
      method: 'POST',
      path: '/allocations',
      version: '1.38',
      body: {
        [c(14)]: section({ VCPU: 1 }, { consumer_generation: null, consumer_type: 'INSTANCE' }),
        [c(13)]: section({ VCPU: 1 }, { consumer_generation: 1, consumer_type: 'MIGRATION' }),
      },
    });
    await req('read c13', { method: 'GET', path: `/allocations/${c(13)}`, version: LATEST });
    await req('allocations of compute-1 at the end', {
      method: 'GET',
      path: `/resource_providers/${p(1)}/allocations`,
      version: LATEST,
    });

    // DELETE.
    await req('DELETE existing', {
      method: 'DELETE',
      path: `/allocations/${c(10)}`,
      version: '1.0',
    });
    await req('DELETE again', { method: 'DELETE', path: `/allocations/${c(10)}`, version: '1.0' });
    await req('DELETE never seen @1.23', {
      method: 'DELETE',
      path: `/allocations/${c(50)}`,
      version: '1.23',
    });
    await req('DELETE malformed', { method: 'DELETE', path: '/allocations/nope', version: LATEST });
    await req('DELETE latest', {
      method: 'DELETE',
      path: `/allocations/${c(14)}`,
      version: LATEST,
    });
    await req('read deleted', { method: 'GET', path: `/allocations/${c(14)}`, version: LATEST });
    await req('method not allowed', {
      method: 'PATCH',
      path: `/allocations/${c(14)}`,
      version: LATEST,
    });
    await req('POST method not allowed on consumer', {
      method: 'POST',
      path: `/allocations/${c(14)}`,
      version: LATEST,
      body: {},
    });
    await req('GET /allocations not allowed', {
      method: 'GET',
      path: '/allocations',
      version: LATEST,
    });
  },
};
