/**
 * The new release pinned to the previous one (the rolling-upgrade doc, steps 1 to 3.1), probed on both
 * sides: the real Ironic 21.4.4 pinned to zed and Baton's antelope pinned to zed. The API
 * maximum is 1.80 (`latest` resolves to it), 1.81 and 1.82 are refused with the real 406 and
 * the range, and what antelope added (inventory, shards, their filters and fields) is not
 * reachable. The rows these requests write are checked in real-ironic-api.test.ts.
 */

import type { Scenario } from './index.ts';

const N = '1be26c0b-03f2-4d2e-ae87-c02d7f33c1a1';
const G = '1be26c0b-03f2-4d2e-ae87-c02d7f33c1b1';
const C = '1be26c0b-03f2-4d2e-ae87-c02d7f33c1c1';

export const PIN_SCENARIOS: readonly Scenario[] = [
  {
    title: 'pinned to zed: the API maximum, latest, and the refusal of 1.81 and 1.82',
    steps: [
      ...[undefined, 'latest', '1.80', '1.81', '1.82', '1.83'].flatMap((version) => [
        { path: '/v1/nodes', version },
        { path: '/v1', version },
      ]),
      { path: '/', version: 'latest' },
    ],
  },
  {
    title: "pinned to zed: antelope's inventory and shards are not reachable",
    steps: [
      { method: 'POST', path: '/v1/chassis', version: 'latest', body: { uuid: C } },
      {
        method: 'POST',
        path: '/v1/nodes',
        version: 'latest',
        body: { uuid: N, driver: 'fake-hardware', name: 'pinned-1', chassis_uuid: C },
      },
      {
        method: 'POST',
        path: '/v1/portgroups',
        version: 'latest',
        body: { uuid: G, node_uuid: N, address: '52:54:00:00:01:b1' },
      },
      {
        method: 'POST',
        path: '/v1/ports',
        version: 'latest',
        body: { node_uuid: N, address: '52:54:00:00:01:a1', portgroup_uuid: G },
      },
      {
        method: 'PATCH',
        path: `/v1/nodes/${N}`,
        version: 'latest',
        body: [{ op: 'add', path: '/extra/pinned', value: true }],
      },
      { path: `/v1/nodes/${N}`, version: 'latest' },
      { path: `/v1/nodes/${N}?fields=shard`, version: 'latest' },
      { path: `/v1/nodes/${N}/inventory`, version: 'latest' },
      { path: `/v1/nodes/${N}/inventory`, version: '1.80' },
      { path: `/v1/nodes/${N}/inventory`, version: '1.81' },
      { path: '/v1/shards', version: 'latest' },
      { path: '/v1/shards', version: '1.82' },
      { path: '/v1/nodes?shard=a', version: 'latest' },
      { path: '/v1/nodes/detail?sharded=true', version: 'latest' },
      { path: '/v1/ports?shard=a', version: 'latest' },
      {
        method: 'PATCH',
        path: `/v1/nodes/${N}`,
        version: 'latest',
        body: [{ op: 'add', path: '/shard', value: 'a' }],
      },
      {
        method: 'POST',
        path: '/v1/nodes',
        version: 'latest',
        body: { driver: 'fake-hardware', name: 'pinned-2', shard: 'a' },
      },
      { path: '/v1/nodes?fields=uuid,name', version: 'latest' },
    ],
  },
];
