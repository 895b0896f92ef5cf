/**
 * Allocations and deploy templates pinned to zed on both sides (real-ironic-api.test.ts): zed
 * serves API 1.80, so both are reachable. Deploy templates are the API process's own writes and
 * answer as the real ones; allocations are read and looked up alike, while creating or
 * deleting one needs conductor RPC 1.2, above zed's cap: Baton answers those 406 where the
 * real one goes on (its RPC cap allows them), which real-ironic-api.test.ts checks apart.
 */
import type { Scenario } from './index.ts';

const V = 'latest';
const N = '1be26c0b-03f2-4d2e-ae87-c02d7f33c1d1';

export const PIN_ALLOCATION_SCENARIOS: readonly Scenario[] = [
  {
    title: 'pinned to zed: deploy templates are served as the real pinned service serves them',
    steps: [
      {
        method: 'POST',
        path: '/v1/deploy_templates',
        version: V,
        body: {
          name: 'CUSTOM_PINNED',
          steps: [{ interface: 'bios', step: 'apply_configuration', args: {}, priority: 10 }],
          extra: { pinned: true },
        },
      },
      { path: '/v1/deploy_templates?detail=true', version: V },
      {
        method: 'PATCH',
        path: '/v1/deploy_templates/CUSTOM_PINNED',
        version: V,
        body: [{ op: 'add', path: '/extra/x', value: 1 }],
      },
      { path: '/v1/deploy_templates/CUSTOM_PINNED', version: V },
    ],
  },
  {
    title: 'pinned to zed: allocations are read and looked up as the real pinned service does',
    steps: [
      { path: '/v1/allocations', version: V },
      { path: '/v1/allocations/missing', version: V },
      {
        method: 'PATCH',
        path: '/v1/allocations/missing',
        version: V,
        body: [{ op: 'add', path: '/extra/x', value: 1 }],
      },
      { method: 'DELETE', path: '/v1/allocations/missing', version: V },
      { method: 'POST', path: '/v1/allocations', version: V, body: {} },
      {
        method: 'POST',
        path: '/v1/nodes',
        version: V,
        body: { uuid: N, driver: 'fake-hardware', name: 'pinned-alloc' },
      },
      { path: `/v1/nodes/${N}/allocation`, version: V },
      { path: `/v1/nodes/${N}?fields=allocation_uuid`, version: V },
      { method: 'DELETE', path: `/v1/nodes/${N}/allocation`, version: V },
    ],
  },
];
