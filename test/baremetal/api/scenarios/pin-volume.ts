/**
 * Volume connectors and targets pinned to zed on both sides (real-ironic-api.test.ts): zed
 * serves API 1.80, so both are reachable. Creates are the API process's own writes and answer
 * as the real ones, and so do reads; changing or deleting one needs conductor RPC 1.4, above
 * zed's cap: Baton answers those 406 where the real one goes on, which real-ironic-api.test.ts
 * checks apart.
 */
import type { Exchange } from '../support/compare.ts';
import type { Scenario } from './index.ts';

const V = 'latest';
const N = '1be26c0b-03f2-4d2e-ae87-c02d7f33c1e1';
const C = '1be26c0b-03f2-4d2e-ae87-c02d7f33c1e2';
const T = '1be26c0b-03f2-4d2e-ae87-c02d7f33c1e3';
const MISSING = '1be26c0b-03f2-4d2e-ae87-c02d7f33c1e4';

const post = (path: string, body: unknown): Exchange => ({
  method: 'POST',
  path,
  version: V,
  body,
});

export const PIN_VOLUME_SCENARIOS: readonly Scenario[] = [
  {
    title:
      'pinned to zed: volume connectors and targets are created and read as the real pinned service does',
    steps: [
      { path: '/v1/volume', version: V },
      post('/v1/nodes', { uuid: N, driver: 'fake-hardware', name: 'pinned-volume' }),
      post('/v1/volume/connectors', {
        uuid: C,
        node_uuid: N,
        type: 'iqn',
        connector_id: 'iqn.2017-05.org.openstack:pinned',
      }),
      post('/v1/volume/targets', {
        uuid: T,
        node_uuid: N,
        volume_type: 'iscsi',
        boot_index: 0,
        volume_id: 'pinned',
        properties: { auth_password: 'p' },
      }),
      { path: '/v1/volume/connectors?detail=True', version: V },
      { path: `/v1/nodes/${N}/volume/targets`, version: V },
      { path: `/v1/volume/targets/${T}`, version: V },
      { method: 'DELETE', path: `/v1/volume/connectors/${MISSING}`, version: V },
    ],
  },
];
