/**
 * Corners of allocations and allocation candidates that clients stumble on: odd uuids, empty
 * consumers, duplicated or padded query values, fractional capacities, huge amounts.
 */
import type { Scenario } from '../pair.ts';
import { c, inventories, p, provider } from './b-support.ts';

export const bEdges: Scenario = {
  name: 'b-edges',
  async run(pair) {
    await provider(pair, p(1), 'cn1');
    await provider(pair, p(2), 'cn2');
    await inventories(pair, p(1), {
      VCPU: { total: 3, allocation_ratio: 1.5 },
      MEMORY_MB: { total: 1024, reserved: 512 },
    });
    await inventories(pair, p(2), { VCPU: { total: 2 } });
    const owner = { project_id: 'p', user_id: 'u' };
    const put = (title: string, consumer: string, version: string, body: unknown) =>
      pair.req(title, { method: 'PUT', path: `/allocations/${consumer}`, version, body });
    const post = (title: string, version: string, body: unknown) =>
      pair.req(title, { method: 'POST', path: '/allocations', version, body });
    const ask = (title: string, version: string, query: string) =>
      pair.req(title, { method: 'GET', path: `/allocation_candidates?${query}`, version });

    // Fractional capacity: (3 - 0) * 1.5 = 4.5.
    await put('fits in 4.5', c(1), '1.12', {
      allocations: { [p(1)]: { resources: { VCPU: 4 } } },
      ...owner,
    });
    await put('5 does not', c(2), '1.12', {
      allocations: { [p(1)]: { resources: { VCPU: 1 } } },
      ...owner,
    });
    await ask('summaries of a fractional capacity', '1.29', 'resources=VCPU:1');
    await put('huge amount', c(2), '1.12', {
      allocations: { [p(2)]: { resources: { VCPU: 2 ** 40 } } },
      ...owner,
    });
    await put('reserved leaves 512', c(2), '1.12', {
      allocations: { [p(1)]: { resources: { MEMORY_MB: 513 } } },
      ...owner,
    });
    await put('same provider twice in the list form', c(3), '1.0', {
      allocations: [
        { resource_provider: { uuid: p(2) }, resources: { VCPU: 1 } },
        { resource_provider: { uuid: p(2) }, resources: { VCPU: 2 } },
      ],
    });
    await pair.req('which one won', {
      method: 'GET',
      path: `/allocations/${c(3)}`,
      version: '1.0',
    });

    // Keys that match the uuid pattern without being uuids.
    const dashes = '-'.repeat(36);
    await post('consumer key of dashes', '1.13', {
      [dashes]: { allocations: { [p(2)]: { resources: { VCPU: 1 } } }, ...owner },
    });
    await pair.req('read the dashes consumer', {
      method: 'GET',
      path: `/allocations/${dashes}`,
      version: '1.28',
    });
    await post('provider key of dashes', '1.13', {
      [c(4)]: { allocations: { [dashes]: { resources: { VCPU: 1 } } }, ...owner },
    });
    await post('upper-case consumer key', '1.13', {
      [c(5).toUpperCase()]: { allocations: { [p(2)]: { resources: { VCPU: 1 } } }, ...owner },
    });
    await pair.req('read it lower-case', {
      method: 'GET',
      path: `/allocations/${c(5)}`,
      version: '1.28',
    });
    await pair.req('read it upper-case', {
      method: 'GET',
      path: `/allocations/${c(5).toUpperCase()}`,
      version: '1.28',
    });
    await pair.req('delete it upper-case', {
      method: 'DELETE',
      path: `/allocations/${c(5).toUpperCase()}`,
      version: '1.28',
    });
    await pair.req('upper-case provider in the path', {
      method: 'GET',
      path: `/resource_providers/${p(2).toUpperCase()}/allocations`,
      version: '1.28',
    });

    // Emptied or never-filled consumers.
    await post('empty allocations for an unknown consumer @1.13', '1.13', {
      [c(6)]: { allocations: {}, ...owner },
    });
    await pair.req('read it', { method: 'GET', path: `/allocations/${c(6)}`, version: '1.28' });
    await put('then a new-consumer write', c(6), '1.28', {
      allocations: { [p(2)]: { resources: { VCPU: 1 } } },
      ...owner,
      consumer_generation: null,
    });
    await put('or with generation 0', c(6), '1.28', {
      allocations: { [p(2)]: { resources: { VCPU: 1 } } },
      ...owner,
      consumer_generation: 0,
    });
    await pair.req('read it again', {
      method: 'GET',
      path: `/allocations/${c(6)}`,
      version: '1.28',
    });
    await post('empty allocations @1.28, null', '1.28', {
      [c(7)]: { allocations: {}, ...owner, consumer_generation: null },
    });
    await put('then null again', c(7), '1.28', {
      allocations: { [p(2)]: { resources: { VCPU: 1 } } },
      ...owner,
      consumer_generation: null,
    });
    await pair.req('delete then put the same consumer', {
      method: 'DELETE',
      path: `/allocations/${c(7)}`,
      version: '1.28',
    });
    await put('null after delete', c(7), '1.28', {
      allocations: { [p(2)]: { resources: { VCPU: 1 } } },
      ...owner,
      consumer_generation: null,
    });

    await post('an empty consumer left behind', '1.13', { [c(8)]: { allocations: {}, ...owner } });
    await pair.req('delete the empty consumer', {
      method: 'DELETE',
      path: `/allocations/${c(8)}`,
      version: '1.28',
    });
    await put('empty allocations for the empty consumer, generation 0', c(8), '1.28', {
      allocations: {},
      ...owner,
      consumer_generation: 0,
    });
    await put('and again with null', c(8), '1.28', {
      allocations: {},
      ...owner,
      consumer_generation: null,
    });
    const r1 = await pair.req('cn1 generation', {
      method: 'GET',
      path: `/resource_providers/${p(1)}`,
      version: '1.30',
    });
    await pair.req('reshaper with an empty new consumer', {
      method: 'POST',
      path: '/reshaper',
      version: '1.30',
      body: {
        inventories: {
          [p(1)]: {
            resource_provider_generation: (r1.real.body as { generation: number }).generation,
            inventories: {
              VCPU: { total: 3, allocation_ratio: 1.5 },
              MEMORY_MB: { total: 1024, reserved: 512 },
            },
          },
        },
        allocations: { [c(9)]: { allocations: {}, ...owner, consumer_generation: null } },
      },
    });
    await put('then a write with null', c(9), '1.28', {
      allocations: { [p(2)]: { resources: { VCPU: 1 } } },
      ...owner,
      consumer_generation: null,
    });

    // Query strings as webob reads them.
    await ask('padded amount', '1.29', 'resources=VCPU:%201');
    await ask('plus amount', '1.29', 'resources=VCPU:%2B1');
    await ask('underscored amount', '1.29', 'resources=VCPU:1_0');
    await ask('hex amount', '1.29', 'resources=VCPU:0x1');
    await ask('padded class', '1.29', 'resources=VCPU%20:1');
    await ask('class given twice', '1.29', 'resources=VCPU:1,VCPU:2');
    await ask('trailing comma', '1.29', 'resources=VCPU:1,');
    await ask('resources without =', '1.29', 'resources');
    await ask('plus as space', '1.29', 'resources=VCPU:+1');
    await ask('bad percent', '1.29', 'resources=VCPU:1%zz');
    await ask('non-utf8 percent', '1.29', 'resources=VCPU:1%ff');
    await ask('padded traits', '1.29', 'resources=VCPU:1&required=HW_CPU_X86_SSE,%20CUSTOM_GOLD');
    await ask('padded in_tree', '1.31', `resources=VCPU:1&in_tree=%20${p(1)}%20`);
    await ask('padded member_of', '1.29', `resources=VCPU:1&member_of=in:${p(1)},%20${p(2)}`);
    await ask('limit twice, last bad', '1.29', 'resources=VCPU:1&limit=2&limit=0');
    await ask('limit twice, first zero', '1.29', 'resources=VCPU:1&limit=0&limit=1');
    await ask(
      'group_policy twice, last bad',
      '1.29',
      'resources1=VCPU:1&resources2=VCPU:1&group_policy=none&group_policy=x',
    );
    await ask(
      'group_policy twice, first isolate',
      '1.29',
      'resources1=VCPU:1&resources2=VCPU:1&group_policy=isolate&group_policy=none',
    );
    await ask('empty key', '1.29', 'resources=VCPU:1&=x');
    await ask('double ampersand', '1.29', 'resources=VCPU:1&&');
    await ask(
      'padded same_subtree',
      '1.36',
      'resources_A=VCPU:1&resources_B=VCPU:1&same_subtree=%20_A%20,_B&group_policy=none',
    );
    await ask('resources on a numbered group 0 at 1.33', '1.33', 'resources0=VCPU:1');

    // Policy: a token that is not admin.
    const asUser = (title: string, method: string, path: string, body?: unknown) =>
      pair.req(`not admin: ${title}`, { method, path, version: '1.38', token: 'user', body });
    await asUser('GET consumer', 'GET', `/allocations/${c(1)}`);
    await asUser('PUT consumer', 'PUT', `/allocations/${c(1)}`, {});
    await asUser('DELETE consumer', 'DELETE', `/allocations/${c(1)}`);
    await asUser('POST allocations', 'POST', '/allocations', {});
    await asUser('provider allocations', 'GET', `/resource_providers/${p(1)}/allocations`);
    await asUser('candidates', 'GET', '/allocation_candidates?resources=VCPU:1');
    await asUser('reshaper', 'POST', '/reshaper', {});
  },
};
