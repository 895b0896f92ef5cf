/**
 * Provider aggregates (1.1 list form, 1.19 with generations) and usages (a provider's, and
 * GET /usages from 1.9 by project and user, grouped by consumer type from 1.38), with the
 * cache headers from 1.15 and every validation error.
 */
import type { Pair, PairRequest } from '../pair.ts';
import {
  allocate,
  around,
  atVersions,
  createProvider,
  g,
  generationOf,
  LATEST,
  p,
  setInventories,
  u,
} from './a-support.ts';

async function aggregates(pair: Pair): Promise<void> {
  await createProvider(pair, p(1), 'agg-1');
  const path = (uuid: string) => `/resource_providers/${uuid}/aggregates`;
  await atVersions(pair, 'empty aggregates', around('1.1', '1.15', '1.19'), {
    method: 'GET',
    path: path(p(1)),
  });
  await pair.req('aggregates of unknown provider', {
    method: 'GET',
    path: path(p(99)),
    version: LATEST,
  });
  await pair.req('aggregates not acceptable @1.0', {
    method: 'GET',
    path: path(p(1)),
    version: '1.0',
    headers: { accept: 'text/plain' },
  });
  const put = (title: string, body: unknown, version: string, uuid = p(1)) =>
    pair.req(title, { method: 'PUT', path: path(uuid), version, body } satisfies PairRequest);
  await put('set @1.0', [g(1)], '1.0');
  await put('set list @1.1', [g(1), g(2)], '1.1');
  await put('set list @1.18', [g(2), g(3)], '1.18');
  await put('set object @1.18', { aggregates: [g(1)], resource_provider_generation: 0 }, '1.18');
  await put('set list @1.19', [g(1)], '1.19');
  let generation = await generationOf(pair, p(1));
  await put(
    'set @1.19',
    { aggregates: [g(1), g(4)], resource_provider_generation: generation },
    '1.19',
  );
  await put(
    'stale generation',
    { aggregates: [], resource_provider_generation: generation },
    '1.19',
  );
  await put(
    'stale generation @1.23',
    { aggregates: [], resource_provider_generation: generation },
    '1.23',
  );
  generation = await generationOf(pair, p(1));
  const bad: [string, unknown][] = [
    ['no generation', { aggregates: [] }],
    ['no aggregates', { resource_provider_generation: generation }],
    ['bad uuid', { aggregates: ['nope'], resource_provider_generation: generation }],
    ['duplicates', { aggregates: [g(1), g(1)], resource_provider_generation: generation }],
    ['extra field', { aggregates: [], resource_provider_generation: generation, x: 1 }],
    ['generation a string', { aggregates: [], resource_provider_generation: '1' }],
    ['aggregates an object', { aggregates: {}, resource_provider_generation: generation }],
  ];
  for (const [title, body] of bad) await put(title, body, LATEST);
  await put('list duplicates @1.1', [g(1), g(1)], '1.1');
  await put('list bad uuid @1.1', ['nope'], '1.1');
  await put(
    'undashed uuid',
    { aggregates: [g(5).replaceAll('-', '')], resource_provider_generation: generation },
    LATEST,
  );
  generation = await generationOf(pair, p(1));
  await put(
    'same aggregates again',
    { aggregates: [g(5).replaceAll('-', '')], resource_provider_generation: generation },
    LATEST,
  );
  generation = await generationOf(pair, p(1));
  await put(
    'upper-case uuid',
    { aggregates: [g(6).toUpperCase(), g(5)], resource_provider_generation: generation },
    LATEST,
  );
  await pair.req('listed by an upper-case aggregate', {
    method: 'GET',
    path: `/resource_providers?member_of=${g(6).toUpperCase()}`,
    version: LATEST,
  });
  await pair.req('listed by the lower-case form', {
    method: 'GET',
    path: `/resource_providers?member_of=${g(6)}`,
    version: LATEST,
  });
  await put('unknown provider', { aggregates: [], resource_provider_generation: 0 }, LATEST, p(99));
  await put('unknown provider @1.0', [], '1.0', p(99));
  await pair.req('aggregates after sets', { method: 'GET', path: path(p(1)), version: LATEST });
  generation = await generationOf(pair, p(1));
  await put('clear', { aggregates: [], resource_provider_generation: generation }, LATEST);
  await generationOf(pair, p(1));
}

async function usages(pair: Pair): Promise<void> {
  await createProvider(pair, p(2), 'usage-2');
  await createProvider(pair, p(3), 'usage-3');
  await setInventories(pair, p(2), { VCPU: { total: 16 }, MEMORY_MB: { total: 4096 } });
  await setInventories(pair, p(3), { DISK_GB: { total: 500 } });
  const rpUsages = (uuid: string) => `/resource_providers/${uuid}/usages`;
  await atVersions(pair, 'provider usages before', around('1.15'), {
    method: 'GET',
    path: rpUsages(p(2)),
  });
  await allocate(
    pair,
    u(1),
    { [p(2)]: { VCPU: 2, MEMORY_MB: 512 } },
    { project: 'proj-1', user: 'user-1', consumerType: 'INSTANCE' },
  );
  await allocate(
    pair,
    u(2),
    { [p(2)]: { VCPU: 1 }, [p(3)]: { DISK_GB: 20 } },
    { project: 'proj-1', user: 'user-2', consumerType: 'MIGRATION' },
  );
  await allocate(
    pair,
    u(3),
    { [p(3)]: { DISK_GB: 5 } },
    { project: 'proj-2', user: 'user-1', consumerType: 'INSTANCE' },
  );
  // A consumer without a type: allocated at 1.37.
  await pair.req('allocate without a type', {
    method: 'PUT',
    path: `/allocations/${u(4)}`,
    version: '1.37',
    body: {
      allocations: { [p(2)]: { resources: { VCPU: 1 } } },
      project_id: 'proj-1',
      user_id: 'user-3',
      consumer_generation: null,
    },
  });
  await atVersions(pair, 'provider usages', around('1.15'), {
    method: 'GET',
    path: rpUsages(p(2)),
  });
  await pair.req('usages of unknown provider', {
    method: 'GET',
    path: rpUsages(p(99)),
    version: LATEST,
  });
  await pair.req('usages of unknown provider @1.23', {
    method: 'GET',
    path: rpUsages(p(99)),
    version: '1.23',
  });
  await pair.req('provider usages not acceptable', {
    method: 'GET',
    path: rpUsages(p(2)),
    version: LATEST,
    headers: { accept: 'text/html' },
  });
  const total = (title: string, query: string, versions: readonly string[]) =>
    atVersions(pair, `usages ${title}`, versions, { method: 'GET', path: `/usages${query}` });
  await total('of a project', '?project_id=proj-1', ['1.8', '1.9', '1.14', '1.15', '1.37']);
  await total('of a project and user', '?project_id=proj-1&user_id=user-1', ['1.9', '1.37']);
  await total('of an unknown project', '?project_id=nobody', ['1.9', '1.37']);
  await total('of an unknown user', '?project_id=proj-1&user_id=nobody', ['1.37']);
  await total('without project', '', ['1.9', '1.37']);
  await total('only user', '?user_id=user-1', ['1.37']);
  await total('empty project', '?project_id=', ['1.37']);
  await total('project too long', `?project_id=${'x'.repeat(256)}`, ['1.37']);
  await total('unknown parameter', '?project_id=proj-1&foo=1', ['1.37']);
  await total('consumer_type before 1.38', '?project_id=proj-1&consumer_type=INSTANCE', ['1.37']);
  await total('repeated project', '?project_id=proj-2&project_id=proj-1', ['1.37']);
  await pair.req('usages not acceptable', {
    method: 'GET',
    path: '/usages?project_id=proj-1',
    version: '1.37',
    headers: { accept: 'text/plain' },
  });
  await pair.req('usages not acceptable @1.8', {
    method: 'GET',
    path: '/usages?project_id=proj-1',
    version: '1.8',
    headers: { accept: 'text/plain' },
  });
  // From 1.38 grouped by consumer type. The real service fails every one of these on
  // PostgreSQL (docs/placement.md, deviations); they are here for the record.
  await total('by consumer type', '?project_id=proj-1', ['1.38']);
  await total('one consumer type', '?project_id=proj-1&consumer_type=INSTANCE', ['1.38']);
  await total('bad consumer type', '?project_id=proj-1&consumer_type=instance', ['1.38']);
}

export const aAggregatesUsages = {
  name: 'a-aggregates-usages',
  async run(pair: Pair) {
    await aggregates(pair);
    await usages(pair);
  },
};
