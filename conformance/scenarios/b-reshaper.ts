/**
 * POST /reshaper (1.30; mappings 1.34; consumer types 1.38): moving VFs from a compute root
 * to a new child PF with the allocations that use them; every refusal on the way.
 */
import type { Pair, Scenario } from '../pair.ts';
import { c, consumerGeneration, inventories, p, provider } from './b-support.ts';

const ROOT = p(1);
const PF = p(2);
const OTHER = p(3);
const VM = c(1);
const VM2 = c(2);

async function generation(pair: Pair, uuid: string): Promise<number> {
  const got = await pair.req(`generation of ${uuid}`, {
    method: 'GET',
    path: `/resource_providers/${uuid}`,
    version: '1.30',
  });
  return (got.real.body as { generation?: number }).generation ?? -1;
}

export const bReshaper: Scenario = {
  name: 'b-reshaper',
  async run(pair) {
    await provider(pair, ROOT, 'compute');
    await provider(pair, PF, 'compute-pf', ROOT);
    await provider(pair, OTHER, 'other');
    await inventories(pair, ROOT, { VCPU: { total: 8 }, SRIOV_NET_VF: { total: 4 } });
    await inventories(pair, OTHER, { VCPU: { total: 2 } });
    await pair.req('VM uses VCPU and a VF on the root', {
      method: 'PUT',
      path: `/allocations/${VM}`,
      version: '1.28',
      body: {
        allocations: { [ROOT]: { resources: { VCPU: 2, SRIOV_NET_VF: 1 } } },
        project_id: 'p',
        user_id: 'u',
        consumer_generation: null,
      },
    });
    const post = (title: string, version: string | undefined, body: unknown) =>
      pair.req(title, { method: 'POST', path: '/reshaper', version, body });

    const rootGen = await generation(pair, ROOT);
    const pfGen = await generation(pair, PF);
    const vmGen = await consumerGeneration(pair, VM);
    const moved = (extra: Record<string, unknown> = {}, vfTo = PF) => ({
      inventories: {
        [ROOT]: { resource_provider_generation: rootGen, inventories: { VCPU: { total: 8 } } },
        [PF]: {
          resource_provider_generation: pfGen,
          inventories: { SRIOV_NET_VF: { total: 4 } },
        },
      },
      allocations: {
        [VM]: {
          allocations: {
            [ROOT]: { resources: { VCPU: 2 } },
            [vfTo]: { resources: { SRIOV_NET_VF: 1 } },
          },
          project_id: 'p',
          user_id: 'u',
          consumer_generation: vmGen,
          ...extra,
        },
      },
    });

    await post('too early', '1.29', moved());
    await post('no version', undefined, moved());
    await post('bad json', '1.30', '{"inventories": ');
    await post('empty', '1.30', {});
    await post('no allocations', '1.30', { inventories: moved().inventories });
    await post('no inventories', '1.30', { allocations: {} });
    await post('empty inventories', '1.30', { inventories: {}, allocations: {} });
    await post('bad provider key', '1.30', { ...moved(), inventories: { nope: {} } });
    await post('inventory without total', '1.30', {
      ...moved(),
      inventories: {
        [ROOT]: { resource_provider_generation: rootGen, inventories: { VCPU: {} } },
      },
    });
    await post('inventory without generation', '1.30', {
      ...moved(),
      inventories: { [ROOT]: { inventories: { VCPU: { total: 1 } } } },
    });
    await post('extra key', '1.30', { ...moved(), more: 1 });
    await post('allocation without generation', '1.30', {
      ...moved(),
      allocations: { [VM]: { allocations: {}, project_id: 'p', user_id: 'u' } },
    });
    await post('mappings too early', '1.33', moved({ mappings: { '': [ROOT] } }));
    await post('consumer_type missing', '1.38', moved());
    await pair.req('text/plain', {
      method: 'POST',
      path: '/reshaper',
      version: '1.30',
      body: JSON.stringify(moved()),
      headers: { 'content-type': 'text/plain' },
    });

    // Refusals after validation; nothing may have changed after any of them.
    await post('unknown provider in inventories', '1.30', {
      ...moved(),
      inventories: { [p(99)]: { resource_provider_generation: 0, inventories: {} } },
    });
    await post('unknown provider in inventories @1.23', '1.23', {
      ...moved(),
      inventories: { [p(99)]: { resource_provider_generation: 0, inventories: {} } },
    });
    await post('stale provider generation', '1.30', {
      ...moved(),
      inventories: {
        [ROOT]: { resource_provider_generation: rootGen + 5, inventories: { VCPU: { total: 8 } } },
      },
    });
    await post('unknown provider in allocations', '1.30', moved({}, p(98)));
    await post('stale consumer generation', '1.30', moved({ consumer_generation: 0 }));
    await post('new consumer with a generation', '1.30', {
      ...moved(),
      allocations: {
        [VM2]: {
          allocations: { [ROOT]: { resources: { VCPU: 1 } } },
          project_id: 'p',
          user_id: 'u',
          consumer_generation: 3,
        },
      },
    });
    await post('unknown class in inventory', '1.30', {
      ...moved(),
      inventories: {
        [ROOT]: {
          resource_provider_generation: rootGen,
          inventories: { VCPU: { total: 8 }, CUSTOM_NOPE: { total: 1 } },
        },
      },
    });
    await post('unknown class in allocations', '1.30', {
      ...moved(),
      allocations: {
        [VM]: {
          allocations: { [ROOT]: { resources: { CUSTOM_NOPE: 1 } } },
          project_id: 'p',
          user_id: 'u',
          consumer_generation: vmGen,
        },
      },
    });
    await post('allocation over capacity', '1.30', {
      ...moved(),
      allocations: {
        [VM]: {
          allocations: { [ROOT]: { resources: { VCPU: 20 } } },
          project_id: 'p',
          user_id: 'u',
          consumer_generation: vmGen,
        },
      },
    });
    await post('inventory still in use', '1.30', {
      inventories: moved().inventories,
      allocations: {},
    });
    await post('reserved above total', '1.30', {
      ...moved(),
      inventories: {
        [ROOT]: {
          resource_provider_generation: rootGen,
          inventories: { VCPU: { total: 8, reserved: 9 } },
        },
      },
    });
    await post('min_unit above max_unit', '1.30', {
      ...moved(),
      inventories: {
        [PF]: {
          resource_provider_generation: pfGen,
          inventories: { SRIOV_NET_VF: { total: 4, min_unit: 3, max_unit: 2 } },
        },
      },
    });
    for (const uuid of [ROOT, PF]) {
      await pair.req(`inventories of ${uuid} unchanged`, {
        method: 'GET',
        path: `/resource_providers/${uuid}/inventories`,
        version: '1.30',
      });
    }
    await pair.req('VM unchanged', { method: 'GET', path: `/allocations/${VM}`, version: '1.30' });
    await pair.req('VM2 absent', { method: 'GET', path: `/allocations/${VM2}`, version: '1.30' });

    // Success, then what it did.
    await post('the reshape', '1.30', moved());
    for (const uuid of [ROOT, PF]) {
      await pair.req(`inventories of ${uuid}`, {
        method: 'GET',
        path: `/resource_providers/${uuid}/inventories`,
        version: '1.30',
      });
      await pair.req(`allocations of ${uuid}`, {
        method: 'GET',
        path: `/resource_providers/${uuid}/allocations`,
        version: '1.30',
      });
      await pair.req(`usages of ${uuid}`, {
        method: 'GET',
        path: `/resource_providers/${uuid}/usages`,
        version: '1.30',
      });
    }
    await pair.req('VM moved', { method: 'GET', path: `/allocations/${VM}`, version: '1.30' });
    await post('the same reshape again (stale)', '1.30', moved());

    // 1.34 mappings and 1.38 consumer types; a new consumer and an emptied one.
    const rootGen2 = await generation(pair, ROOT);
    const otherGen = await generation(pair, OTHER);
    const vmGen2 = await consumerGeneration(pair, VM);
    const second = (version: string, extra: Record<string, unknown>) =>
      post(`second reshape @${version}`, version, {
        inventories: {
          [ROOT]: {
            resource_provider_generation: rootGen2,
            inventories: { VCPU: { total: 16, allocation_ratio: 2.0 } },
          },
          [OTHER]: { resource_provider_generation: otherGen, inventories: {} },
        },
        allocations: {
          [VM]: {
            allocations: {},
            project_id: 'p',
            user_id: 'u',
            consumer_generation: vmGen2,
            ...extra,
          },
          [VM2]: {
            allocations: { [ROOT]: { resources: { VCPU: 20 } } },
            project_id: 'p2',
            user_id: 'u2',
            consumer_generation: null,
            mappings: { '': [ROOT] },
            ...extra,
          },
        },
      });
    await second('1.34', {});
    await pair.req('VM emptied', { method: 'GET', path: `/allocations/${VM}`, version: '1.38' });
    await pair.req('VM2 created', { method: 'GET', path: `/allocations/${VM2}`, version: '1.38' });
    await pair.req('other emptied', {
      method: 'GET',
      path: `/resource_providers/${OTHER}/inventories`,
      version: '1.30',
    });
    const rootGen3 = await generation(pair, ROOT);
    const vm2Gen = await consumerGeneration(pair, VM2);
    await post('typed @1.38', '1.38', {
      inventories: {
        [ROOT]: { resource_provider_generation: rootGen3, inventories: { VCPU: { total: 16 } } },
      },
      allocations: {
        [VM2]: {
          allocations: { [ROOT]: { resources: { VCPU: 4 } } },
          project_id: 'p2',
          user_id: 'u2',
          consumer_generation: vm2Gen,
          consumer_type: 'INSTANCE',
        },
      },
    });
    await pair.req('VM2 typed', { method: 'GET', path: `/allocations/${VM2}`, version: '1.38' });
  },
};
