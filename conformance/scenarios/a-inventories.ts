/**
 * Inventories: the whole set (GET, PUT, DELETE from 1.5) and single records (POST, GET, PUT,
 * DELETE), with every validation rule, capacity (reserved == total from 1.26), generation
 * conflicts, in-use checks against allocations, and the cache headers from 1.15.
 */
import type { Pair, PairRequest } from '../pair.ts';
import { allocate, around, createProvider, generationOf, LATEST, p, u } from './a-support.ts';

const inventories = (uuid: string) => `/resource_providers/${uuid}/inventories`;

async function reads(pair: Pair): Promise<void> {
  await createProvider(pair, p(1), 'inv-1');
  await createProvider(pair, p(2), 'inv-2');
  for (const version of around('1.15')) {
    await pair.req(`empty set @${version}`, { method: 'GET', path: inventories(p(1)), version });
  }
  for (const version of ['1.0', '1.23']) {
    await pair.req(`set of unknown provider @${version}`, {
      method: 'GET',
      path: inventories(p(99)),
      version,
    });
    await pair.req(`record of unknown provider @${version}`, {
      method: 'GET',
      path: `${inventories(p(99))}/VCPU`,
      version,
    });
    await pair.req(`missing record @${version}`, {
      method: 'GET',
      path: `${inventories(p(1))}/VCPU`,
      version,
    });
  }
  await pair.req('record of unknown class', {
    method: 'GET',
    path: `${inventories(p(1))}/NOPE`,
    version: LATEST,
  });
  await pair.req('not acceptable', {
    method: 'GET',
    path: inventories(p(1)),
    version: LATEST,
    headers: { accept: 'text/plain' },
  });
}

async function posts(pair: Pair): Promise<void> {
  const post = (title: string, body: unknown, version = LATEST, uuid = p(1)) =>
    pair.req(title, { method: 'POST', path: inventories(uuid), version, body });
  await post('create VCPU @1.0', { resource_class: 'VCPU', total: 8 }, '1.0');
  await post(
    'create MEMORY_MB @1.15',
    {
      resource_class: 'MEMORY_MB',
      total: 2048,
      reserved: 512,
      min_unit: 64,
      max_unit: 1024,
      step_size: 64,
      allocation_ratio: 1.5,
    },
    '1.15',
  );
  await post('create with a generation', {
    resource_class: 'DISK_GB',
    total: 100,
    resource_provider_generation: 2,
  });
  await post('create with a stale generation', {
    resource_class: 'IPV4_ADDRESS',
    total: 10,
    resource_provider_generation: 0,
  });
  await post('duplicate class', { resource_class: 'VCPU', total: 8 });
  await post('unknown provider', { resource_class: 'VCPU', total: 8 }, LATEST, p(99));
  await post('unknown class', { resource_class: 'CUSTOM_NOPE', total: 8 });
  await post('standard class not in the list', { resource_class: 'NOPE', total: 8 });
  const bad: [string, Record<string, unknown>][] = [
    ['no class', { total: 8 }],
    ['no total', { resource_class: 'PCI_DEVICE' }],
    ['lower-case class', { resource_class: 'vcpu', total: 8 }],
    ['total 0', { resource_class: 'PCI_DEVICE', total: 0 }],
    ['total too big', { resource_class: 'PCI_DEVICE', total: 2147483648 }],
    ['total max', { resource_class: 'SRIOV_NET_VF', total: 2147483647 }],
    ['total a float', { resource_class: 'PCI_DEVICE', total: 1.5 }],
    ['total 2.0', { resource_class: 'NUMA_CORE', total: 2.0 }],
    ['total a string', { resource_class: 'PCI_DEVICE', total: '8' }],
    ['reserved negative', { resource_class: 'PCI_DEVICE', total: 8, reserved: -1 }],
    ['reserved above total', { resource_class: 'PCI_DEVICE', total: 8, reserved: 9 }],
    ['reserved equal total', { resource_class: 'PCI_DEVICE', total: 8, reserved: 8 }],
    ['min_unit 0', { resource_class: 'PCI_DEVICE', total: 8, min_unit: 0 }],
    ['max_unit 0', { resource_class: 'PCI_DEVICE', total: 8, max_unit: 0 }],
    ['min above max', { resource_class: 'PCI_DEVICE', total: 8, min_unit: 4, max_unit: 2 }],
    ['max above total', { resource_class: 'NUMA_SOCKET', total: 8, max_unit: 16 }],
    ['step_size 0', { resource_class: 'PCI_DEVICE', total: 8, step_size: 0 }],
    ['ratio 0', { resource_class: 'NUMA_THREAD', total: 8, allocation_ratio: 0 }],
    ['ratio negative', { resource_class: 'PCI_DEVICE', total: 8, allocation_ratio: -1 }],
    ['ratio huge', { resource_class: 'PCI_DEVICE', total: 8, allocation_ratio: 3.5e38 }],
    ['ratio a string', { resource_class: 'PCI_DEVICE', total: 8, allocation_ratio: '1' }],
    ['unknown field', { resource_class: 'PCI_DEVICE', total: 8, color: 'red' }],
    [
      'generation a string',
      { resource_class: 'PCI_DEVICE', total: 8, resource_provider_generation: 'x' },
    ],
  ];
  for (const [title, body] of bad) await post(title, body);
  await post(
    'reserved equal total @1.25',
    { resource_class: 'FPGA', total: 4, reserved: 4 },
    '1.25',
  );
  await post(
    'reserved equal total @1.26',
    { resource_class: 'FPGA', total: 4, reserved: 4 },
    '1.26',
  );
  await post('bad json', '{"total": ');
  await pair.req('after posts', { method: 'GET', path: inventories(p(1)), version: LATEST });
  await pair.req('one record @1.14', {
    method: 'GET',
    path: `${inventories(p(1))}/MEMORY_MB`,
    version: '1.14',
  });
  await pair.req('one record @1.15', {
    method: 'GET',
    path: `${inventories(p(1))}/MEMORY_MB`,
    version: '1.15',
  });
}

async function putOne(pair: Pair): Promise<void> {
  const put = (title: string, rc: string, body: unknown, version = LATEST, uuid = p(1)) =>
    pair.req(title, { method: 'PUT', path: `${inventories(uuid)}/${rc}`, version, body });
  let generation = await generationOf(pair, p(1));
  await put('update VCPU', 'VCPU', { resource_provider_generation: generation, total: 16 });
  await put('stale generation', 'VCPU', { resource_provider_generation: generation, total: 4 });
  await put(
    'stale generation @1.22',
    'VCPU',
    { resource_provider_generation: 0, total: 4 },
    '1.22',
  );
  generation = await generationOf(pair, p(1));
  await put('no generation', 'VCPU', { total: 4 });
  await put('class not on the provider', 'PCI_DEVICE', {
    resource_provider_generation: generation,
    total: 4,
  });
  await put('unknown class', 'CUSTOM_NOPE', { resource_provider_generation: generation, total: 4 });
  await put('resource_class in body', 'VCPU', {
    resource_provider_generation: generation,
    total: 4,
    resource_class: 'VCPU',
  });
  await put('reserved above total', 'VCPU', {
    resource_provider_generation: generation,
    total: 4,
    reserved: 5,
  });
  await put(
    'unknown provider',
    'VCPU',
    { resource_provider_generation: 0, total: 4 },
    LATEST,
    p(99),
  );
  await put('update @1.0', 'VCPU', { resource_provider_generation: generation, total: 12 }, '1.0');
}

async function putAll(pair: Pair): Promise<void> {
  const put = (title: string, body: unknown, version = LATEST, uuid = p(2)) =>
    pair.req(title, { method: 'PUT', path: inventories(uuid), version, body });
  await put('set two', {
    resource_provider_generation: 0,
    inventories: { VCPU: { total: 4 }, DISK_GB: { total: 50, reserved: 10 } },
  });
  await put('stale generation', { resource_provider_generation: 0, inventories: {} });
  await put('no generation', { inventories: {} });
  await put('no inventories', { resource_provider_generation: 1 });
  await put('lower-case class key', {
    resource_provider_generation: 1,
    inventories: { vcpu: { total: 1 } },
  });
  await put('unknown class', {
    resource_provider_generation: 1,
    inventories: { CUSTOM_NOPE: { total: 1 } },
  });
  await put('record without total', { resource_provider_generation: 1, inventories: { VCPU: {} } });
  await put('record with class', {
    resource_provider_generation: 1,
    inventories: { VCPU: { total: 1, resource_class: 'VCPU' } },
  });
  await put('record with generation', {
    resource_provider_generation: 1,
    inventories: { VCPU: { total: 1, resource_provider_generation: 1 } },
  });
  await put('reserved above total', {
    resource_provider_generation: 1,
    inventories: { VCPU: { total: 1, reserved: 2 } },
  });
  await put(
    'reserved equals total @1.25',
    {
      resource_provider_generation: 1,
      inventories: { VCPU: { total: 2, reserved: 2 } },
    },
    '1.25',
  );
  await put(
    'reserved equals total @1.26',
    {
      resource_provider_generation: 1,
      inventories: { VCPU: { total: 2, reserved: 2 }, DISK_GB: { total: 50 } },
    },
    '1.26',
  );
  await put(
    'set at 1.14 (no cache headers)',
    {
      resource_provider_generation: 2,
      inventories: { VCPU: { total: 8 }, DISK_GB: { total: 50 } },
    },
    '1.14',
  );
  await put(
    'unknown provider',
    { resource_provider_generation: 0, inventories: {} },
    LATEST,
    p(99),
  );
  await put('extra top-level field', {
    resource_provider_generation: 3,
    inventories: {},
    generation: 3,
  });
  await put('inventories a list', { resource_provider_generation: 3, inventories: [] });
}

async function inUse(pair: Pair): Promise<void> {
  await allocate(pair, u(1), { [p(2)]: { VCPU: 2, DISK_GB: 20 } });
  let generation = await generationOf(pair, p(2));
  const put = (title: string, body: unknown, version = LATEST) =>
    pair.req(title, { method: 'PUT', path: inventories(p(2)), version, body });
  await put('remove a class in use', {
    resource_provider_generation: generation,
    inventories: { VCPU: { total: 8 } },
  });
  await put(
    'remove a class in use @1.22',
    { resource_provider_generation: generation, inventories: { VCPU: { total: 8 } } },
    '1.22',
  );
  await put('total below usage', {
    resource_provider_generation: generation,
    inventories: { VCPU: { total: 1 }, DISK_GB: { total: 50 } },
  });
  await put('reserved swallowing usage', {
    resource_provider_generation: generation,
    inventories: { VCPU: { total: 8, reserved: 7 }, DISK_GB: { total: 50 } },
  });
  generation = await generationOf(pair, p(2));
  await pair.req('update one below usage', {
    method: 'PUT',
    path: `${inventories(p(2))}/VCPU`,
    version: LATEST,
    body: { resource_provider_generation: generation, total: 1 },
  });
  for (const version of ['1.0', '1.23']) {
    await pair.req(`delete one in use @${version}`, {
      method: 'DELETE',
      path: `${inventories(p(2))}/VCPU`,
      version,
    });
  }
  for (const version of ['1.4', '1.5', '1.23']) {
    await pair.req(`delete all in use @${version}`, {
      method: 'DELETE',
      path: inventories(p(2)),
      version,
    });
  }
  await pair.req('delete all below 1.5 without rights', {
    method: 'DELETE',
    path: inventories(p(2)),
    version: '1.4',
    token: 'demo',
  });
}

async function deletes(pair: Pair): Promise<void> {
  const del = (title: string, path: string, version = LATEST, extra: Partial<PairRequest> = {}) =>
    pair.req(title, { method: 'DELETE', path, version, ...extra });
  await del('delete one', `${inventories(p(1))}/DISK_GB`);
  await del('delete one again', `${inventories(p(1))}/DISK_GB`);
  await del('delete unknown class', `${inventories(p(1))}/NOPE`);
  await del('delete on unknown provider', `${inventories(p(99))}/VCPU`);
  await del('delete all', inventories(p(1)));
  await del('delete all again', inventories(p(1)));
  await del('delete all of unknown provider', inventories(p(99)));
  await pair.req('after deletes', { method: 'GET', path: inventories(p(1)), version: LATEST });
  await pair.req('generation after deletes', {
    method: 'GET',
    path: `/resource_providers/${p(1)}`,
    version: LATEST,
  });
}

export const aInventories = {
  name: 'a-inventories',
  async run(pair: Pair) {
    await reads(pair);
    await posts(pair);
    await putOne(pair);
    await putAll(pair);
    await inUse(pair);
    await deletes(pair);
  },
};
