/**
 * What antelope added (API 1.81 node inventory, 1.82 shards), unpinned on both sides: the
 * real Ironic 21.4.4 and Baton's antelope (real-ironic-antelope.test.ts).
 */
import type { Scenario } from './index.ts';

const N1 = '1be26c0b-03f2-4d2e-ae87-c02d7f33c2a1';
const N2 = '1be26c0b-03f2-4d2e-ae87-c02d7f33c2a2';
const N3 = '1be26c0b-03f2-4d2e-ae87-c02d7f33c2a3';
const V = '1.82';

export const ANTELOPE_SCENARIOS: readonly Scenario[] = [
  {
    title: 'antelope: the maximum is 1.82, /v1 links the shards',
    steps: [
      ...[undefined, 'latest', '1.80', '1.81', '1.82', '1.83'].map((version) => ({
        path: '/v1/nodes',
        version,
      })),
      ...['1.81', '1.82', 'latest'].map((version) => ({
        path: '/v1',
        version,
      })),
      { path: '/', version: 'latest' },
    ],
  },
  {
    title: 'antelope: shards on nodes, /v1/shards, the shard and sharded filters',
    steps: [
      { path: '/v1/shards', version: V },
      {
        method: 'POST',
        path: '/v1/nodes',
        version: V,
        body: { uuid: N1, driver: 'fake-hardware', name: 'sh-1', shard: 'alpha' },
      },
      {
        method: 'POST',
        path: '/v1/nodes',
        version: V,
        body: { uuid: N2, driver: 'fake-hardware', name: 'sh-2', shard: 'beta' },
      },
      {
        method: 'POST',
        path: '/v1/nodes',
        version: V,
        body: { uuid: N3, driver: 'fake-hardware', name: 'sh-3' },
      },
      {
        method: 'PATCH',
        path: `/v1/nodes/${N3}`,
        version: V,
        body: [{ op: 'add', path: '/shard', value: 'alpha' }],
      },
      { path: `/v1/nodes/${N3}`, version: V },
      { path: `/v1/nodes/${N3}`, version: '1.81' },
      { path: `/v1/nodes/${N1}?fields=uuid,shard`, version: V },
      { path: `/v1/nodes/${N1}?fields=uuid,shard`, version: '1.81' },
      { path: '/v1/shards', version: V },
      { path: '/v1/shards', version: '1.81' },
      { method: 'POST', path: '/v1/shards', version: '1.81' },
      { path: `/v1/shards/alpha`, version: V },
      { path: '/v1/nodes?shard=alpha', version: V },
      { path: '/v1/nodes?shard=alpha,beta&fields=uuid,shard', version: V },
      { path: '/v1/nodes?shard=gamma', version: V },
      { path: '/v1/nodes?shard=alpha', version: '1.81' },
      { path: '/v1/nodes/detail?sharded=true&fields=uuid', version: V },
      { path: '/v1/nodes?sharded=false', version: V },
      { path: '/v1/nodes?sharded=maybe', version: V },
      { path: '/v1/nodes?sort_key=shard&fields=uuid,shard', version: V },
      {
        method: 'PATCH',
        path: `/v1/nodes/${N3}`,
        version: V,
        body: [{ op: 'remove', path: '/shard' }],
      },
      { path: '/v1/nodes/detail?sharded=false&fields=uuid,shard', version: V },
      {
        method: 'PATCH',
        path: `/v1/nodes/${N3}`,
        version: '1.81',
        body: [{ op: 'add', path: '/shard', value: 'alpha' }],
      },
      {
        method: 'POST',
        path: '/v1/nodes',
        version: '1.81',
        body: { driver: 'fake-hardware', name: 'sh-4', shard: 'alpha' },
      },
      { path: '/v1/shards', version: V },
      {
        method: 'POST',
        path: '/v1/ports',
        version: V,
        body: { node_uuid: N1, address: '52:54:00:00:02:a1' },
      },
      { path: '/v1/ports?shard=alpha', version: V },
      { path: '/v1/ports?shard=beta', version: V },
      { path: '/v1/ports?shard=alpha', version: '1.81' },
      { path: `/v1/ports?shard=alpha&node=${N1}`, version: V },
    ],
  },
  {
    title: 'antelope: node inventory',
    steps: [
      { path: `/v1/nodes/${N1}/inventory`, version: '1.81' },
      { path: `/v1/nodes/${N1}/inventory`, version: '1.80' },
      { path: '/v1/nodes/sh-2/inventory', version: V },
      { path: '/v1/nodes/no-such-node/inventory', version: V },
      { method: 'PUT', path: `/v1/nodes/${N1}/inventory`, version: V, body: {} },
    ],
  },
];
