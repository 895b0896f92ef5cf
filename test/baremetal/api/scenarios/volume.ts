/**
 * Volume connectors and targets (API 1.32) unpinned on both sides (real-ironic-node-actions.test.ts):
 * the version gates, the root's links, create and its checks (schema, unknown node, unique type and
 * connector ID, unique boot index per node), lists (default fields, `fields`, `detail`, `node`,
 * paging, sort keys), show, the node's sub-resources (lists only; anything else not permitted),
 * PATCH and delete through the conductor (refused while the node is not powered off), and a
 * node's deletion taking its volumes along.
 */
import type { Exchange } from '../support/compare.ts';
import type { Scenario } from './index.ts';
import { del, get, patch, post } from './requests.ts';

const V = '1.82';
const N1 = '0a1ce000-1111-4c5e-9a7b-00000000a001';
const N2 = '0a1ce000-1111-4c5e-9a7b-00000000a002';
const C1 = '0a1ce000-2222-4c5e-9a7b-00000000c001';
const C2 = '0a1ce000-2222-4c5e-9a7b-00000000c002';
const T1 = '0a1ce000-3333-4c5e-9a7b-00000000f001';
const T2 = '0a1ce000-3333-4c5e-9a7b-00000000f002';
const UNKNOWN = '0a1ce000-9999-4c5e-9a7b-000000000999';

const power = (uuid: string, target: string): Exchange => ({
  method: 'PUT',
  path: `/v1/nodes/${uuid}/states/power`,
  version: V,
  body: { target },
  settle: uuid,
});
const connector = (fields: Record<string, unknown>) => post('/v1/volume/connectors', fields);
const target = (fields: Record<string, unknown>) => post('/v1/volume/targets', fields);

export const VOLUME_SCENARIOS: readonly Scenario[] = [
  {
    title: 'volume: version gates and the root links',
    steps: [
      get('/v1/volume', '1.31'),
      get('/v1/volume/connectors', '1.31'),
      get('/v1/volume/targets/x', '1.31'),
      post('/v1/volume/connectors', {}, '1.31'),
      get('/v1/volume', '1.32'),
      { method: 'POST', path: '/v1/volume', version: V, body: {} },
      {
        ...get('/v1/volume/other'),
        realBug: 'VolumeController.get() takes 1 positional argument but 2 were given',
      },
      post('/v1/nodes', { uuid: N1, name: 'vol-1', driver: 'fake-hardware' }),
      get(`/v1/nodes/${N1}/volume`, '1.31'),
      get(`/v1/nodes/${N1}/volume/connectors`, '1.31'),
      get(`/v1/nodes/vol-1/volume`),
      get(`/v1/nodes/${N1}?fields=uuid,volume`, '1.31'),
      get(`/v1/nodes/${N1}`, '1.32'),
      // The node's storage interface: fake hardware's are noop (default) and fake; cinder is
      // not enabled on either side.
      patch(`/v1/nodes/${N1}`, [{ op: 'replace', path: '/storage_interface', value: 'cinder' }]),
      patch(`/v1/nodes/${N1}`, [{ op: 'replace', path: '/storage_interface', value: 'fake' }]),
      get(`/v1/nodes/${N1}/validate`),
      patch(`/v1/nodes/${N1}`, [{ op: 'replace', path: '/storage_interface', value: 'noop' }]),
    ],
  },
  {
    title: 'volume connectors: create, its checks, lists, show and the node sub-resource',
    steps: [
      post('/v1/nodes', { uuid: N2, name: 'vol-2', driver: 'fake-hardware' }),
      connector({
        uuid: C1,
        node_uuid: N2,
        type: 'iqn',
        connector_id: 'iqn.2017-05.org.openstack:01:c1',
        extra: { a: 1 },
      }),
      connector({ node_uuid: N2, type: 'iqn', connector_id: 'iqn.2017-05.org.openstack:01:c1' }),
      connector({ uuid: C1, node_uuid: N2, type: 'wwpn', connector_id: 'x' }),
      connector({ uuid: C2, node_uuid: N2, type: 'ip', connector_id: '192.168.1.7' }),
      connector({ node_uuid: UNKNOWN, type: 'ip', connector_id: 'y' }),
      connector({ node_uuid: 'vol-2', type: 'ip', connector_id: 'y' }),
      connector({ node_uuid: N2, type: 'ip' }),
      connector({ node_uuid: N2, type: 'ip', connector_id: 'z', other: 1 }),
      connector({ node_uuid: N2, type: 5, connector_id: 'z' }),
      connector({ node_uuid: N2, type: 'ip', connector_id: 'z', uuid: 'nope' }),
      {
        method: 'POST',
        path: '/v1/volume/connectors',
        version: V,
        rawBody: 'not json',
        realBug: "the JSON decoder's error let through",
      },
      post(`/v1/nodes/${N2}/volume/connectors`, {
        node_uuid: N2,
        type: 'ip',
        connector_id: 'under-node',
      }),
      get('/v1/volume/connectors'),
      get('/v1/volume/connectors?detail=True'),
      get('/v1/volume/connectors?fields=uuid,extra'),
      get('/v1/volume/connectors?fields=uuid,nope'),
      get('/v1/volume/connectors?fields=uuid&detail=True'),
      get('/v1/volume/connectors?detail=False'),
      get('/v1/volume/connectors?detail=maybe'),
      get('/v1/volume/connectors?limit=1'),
      get(`/v1/volume/connectors?limit=1&marker=${C1}`),
      get(`/v1/volume/connectors?marker=${UNKNOWN}`),
      get('/v1/volume/connectors?marker=nope'),
      get('/v1/volume/connectors?limit=0'),
      get('/v1/volume/connectors?sort_key=extra'),
      get('/v1/volume/connectors?sort_key=nope'),
      get('/v1/volume/connectors?sort_key=type&sort_dir=desc'),
      get('/v1/volume/connectors?sort_dir=up'),
      get(`/v1/volume/connectors?node=${N2}`),
      get('/v1/volume/connectors?node=vol-2&detail=True'),
      get('/v1/volume/connectors?node=vol-1'),
      get('/v1/volume/connectors?node=missing-node'),
      get(`/v1/volume/connectors/${C1}`),
      get(`/v1/volume/connectors/${C1}?fields=extra,node_uuid`),
      get(`/v1/volume/connectors/${C1}?fields=nope`),
      get(`/v1/volume/connectors/${UNKNOWN}`),
      get('/v1/volume/connectors/not-a-uuid'),
      get(`/v1/nodes/${N2}/volume`),
      get(`/v1/nodes/${N2}/volume/connectors`),
      get(`/v1/nodes/${N2}/volume/connectors?detail=True&limit=1`),
      get(`/v1/nodes/${N2}/volume/connectors?node=${N1}`),
      get('/v1/nodes/vol-2/volume/connectors'),
      get(`/v1/nodes/${UNKNOWN}/volume/connectors`),
      get(`/v1/nodes/${N2}/volume/connectors/${C1}`),
      patch(`/v1/nodes/${N2}/volume/connectors/${C1}`, [
        { op: 'replace', path: '/extra', value: {} },
      ]),
      del(`/v1/nodes/${N2}/volume/connectors/${C1}`),
      { method: 'PUT', path: '/v1/volume/connectors', version: V, body: {} },
      get('/v1/volume/connectors/detail'),
      get(`/v1/volume/connectors/${C1}/extra`),
      post(`/v1/volume/connectors/${C1}`, { node_uuid: N2, type: 'ip', connector_id: 'p' }),
      { method: 'PUT', path: `/v1/volume/connectors/${C1}`, version: V, body: {} },
      get('/v1/volume/connectors.json'),
      get(`/v1/volume/connectors/${C1}.json`),
      { method: 'PATCH', path: '/v1/volume/connectors', version: V, body: [] },
    ],
  },
  {
    title: 'volume targets: create, its checks, lists and show',
    steps: [
      target({
        uuid: T1,
        node_uuid: N2,
        volume_type: 'iscsi',
        boot_index: 0,
        volume_id: '04452bed-5367-4202-8bf5-de4335ac56d2',
        properties: { target_lun: 0, auth_password: 'secret' },
      }),
      target({ node_uuid: N2, volume_type: 'iscsi', boot_index: 0, volume_id: 'v2' }),
      target({
        uuid: T2,
        node_uuid: N2,
        volume_type: 'fibre_channel',
        boot_index: 1,
        volume_id: 'v3',
      }),
      target({ node_uuid: N2, volume_type: 'iscsi', boot_index: '2', volume_id: 'v4' }),
      target({ node_uuid: N2, volume_type: 'iscsi', boot_index: true, volume_id: 'v4' }),
      target({ node_uuid: N2, volume_type: 'iscsi', volume_id: 'v4' }),
      target({
        node_uuid: N2,
        volume_type: 'iscsi',
        boot_index: 3,
        volume_id: 'v4',
        properties: [],
      }),
      target({ node_uuid: UNKNOWN, volume_type: 'iscsi', boot_index: 0, volume_id: 'v5' }),
      get('/v1/volume/targets'),
      get('/v1/volume/targets?detail=True'),
      get('/v1/volume/targets?sort_key=properties'),
      get('/v1/volume/targets?sort_key=boot_index&sort_dir=desc&limit=1'),
      get(`/v1/volume/targets/${T1}`),
      get(`/v1/volume/targets/${T1}?fields=properties`),
      get(`/v1/nodes/${N2}/volume/targets?fields=uuid,boot_index`),
      get(`/v1/nodes/${N1}/volume/targets`),
      post(`/v1/nodes/${N2}/volume/targets`, {
        node_uuid: N2,
        volume_type: 'iscsi',
        boot_index: 9,
        volume_id: 'v9',
      }),
    ],
  },
  {
    title: 'volume: PATCH and delete through the conductor, only while the node is powered off',
    steps: [
      patch(`/v1/volume/connectors/${C1}`, [{ op: 'replace', path: '/extra/b', value: 2 }]),
      del(`/v1/volume/connectors/${C2}`),
      patch(`/v1/volume/targets/${T1}`, [{ op: 'replace', path: '/boot_index', value: 5 }]),
      del(`/v1/volume/targets/${T2}`),
      power(N2, 'power off'),
      patch(`/v1/volume/connectors/${C1}`, [{ op: 'add', path: '/extra/b', value: 2 }]),
      patch(`/v1/volume/connectors/${C1}`, [
        { op: 'replace', path: '/connector_id', value: '192.168.1.7' },
        { op: 'replace', path: '/type', value: 'ip' },
      ]),
      patch(`/v1/volume/connectors/${C1}`, [{ op: 'replace', path: '/uuid', value: UNKNOWN }]),
      patch(`/v1/volume/connectors/${C1}`, [{ op: 'replace', path: '/node_uuid', value: 'vol-1' }]),
      patch(`/v1/volume/connectors/${C1}`, [{ op: 'replace', path: '/node_uuid', value: UNKNOWN }]),
      patch(`/v1/volume/connectors/${C1}`, [{ op: 'remove', path: '/type' }]),
      patch(`/v1/volume/connectors/${C1}`, [{ op: 'replace', path: '/type', value: 7 }]),
      patch(`/v1/volume/connectors/${C1}`, [{ op: 'replace', path: '/node_uuid', value: N1 }]),
      patch(`/v1/volume/connectors/${UNKNOWN}`, [{ op: 'add', path: '/extra/b', value: 2 }]),
      patch(`/v1/volume/connectors/${C1}`, { op: 'add' }),
      patch(`/v1/volume/targets/${T1}`, [{ op: 'replace', path: '/boot_index', value: 1 }]),
      patch(`/v1/volume/targets/${T1}`, [{ op: 'replace', path: '/boot_index', value: 4 }]),
      patch(`/v1/volume/targets/${T1}`, [{ op: 'add', path: '/properties/x', value: 'y' }]),
      get(`/v1/volume/targets?node=${N2}&detail=True`),
      del(`/v1/volume/targets/${T2}`),
      del(`/v1/volume/targets/${T2}`),
      del(`/v1/volume/connectors/${C2}`),
      del('/v1/volume/connectors/not-a-uuid'),
      get(`/v1/volume/connectors?node=${N2}`),
      { method: 'DELETE', path: `/v1/nodes/${N2}`, version: V },
      get('/v1/volume/targets'),
      get('/v1/volume/connectors'),
    ],
  },
];
