/**
 * RAID through the API and its conductor, on the three backends, as the real Ironic 21.4.4
 * answers with fake hardware (real-ironic-node-actions.test.ts holds the same requests to it):
 * PUT /v1/nodes/{node}/states/raid (1.12) storing a target configuration checked against the
 * logical disk schema (the real texts), `{}` or no body unsetting it, `no-raid` refused with
 * the real 404; the node's raid_config and target_raid_config from 1.12; the driver's logical
 * disk properties. Under zed's RPC cap the PUT is 406 after the API's own checks, the
 * properties answered by the API itself; Ironic's default policy decides who may call them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it, test } from 'node:test';
import { RAID_LOGICAL_DISK_PROPERTIES } from '../../../src/baremetal/drivers/raid-logical-disks.ts';
import {
  type BatonApi,
  forEachApiBackend,
  pinnedCaps,
  startBatonApi,
} from './support/baton-api.ts';
import { projectUser, startUnderDefaultPolicy, systemUser } from './support/personas.ts';

const LATEST = '1.82';
const RAID = {
  logical_disks: [
    { raid_level: '1', size_gb: 100, is_root_volume: true, controller: 'c', physical_disks: ['a'] },
    { raid_level: '5', size_gb: 'MAX', disk_type: 'ssd', number_of_physical_disks: 3 },
  ],
};

async function call(
  api: BatonApi,
  method: string,
  url: string,
  payload?: unknown,
  version = LATEST,
) {
  const answer = await api.request({
    method: method as 'GET',
    url,
    headers: {
      'X-OpenStack-Ironic-API-Version': version,
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
    },
    // As JSON text, so that null and lists are sent as they are.
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
  const text = answer.body;
  return {
    status: answer.statusCode,
    body: text === '' ? undefined : answer.json(),
    fault: () => JSON.parse(answer.json().error_message).faultstring as string,
  };
}

async function createNode(api: BatonApi, name: string, fields: Record<string, unknown> = {}) {
  const created = await call(api, 'POST', '/v1/nodes', {
    driver: 'fake-hardware',
    name,
    ...fields,
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body as { uuid: string };
}

const raidFields = async (api: BatonApi, name: string) => {
  const { raid_config, target_raid_config } = (
    await call(api, 'GET', `/v1/nodes/${name}?fields=raid_config,target_raid_config`)
  ).body;
  return { raid_config, target_raid_config };
};

forEachApiBackend('node RAID', (api) => {
  test('a target configuration is stored (204) and shown from 1.12; {} or no body unsets it', async () => {
    await createNode(api(), 'raid');
    const set = await call(api(), 'PUT', '/v1/nodes/raid/states/raid', RAID);
    assert.equal(set.status, 204);
    assert.equal(set.body, undefined);
    assert.deepEqual(await raidFields(api(), 'raid'), {
      raid_config: {},
      target_raid_config: RAID,
    });
    const states = (await call(api(), 'GET', '/v1/nodes/raid/states')).body;
    assert.deepEqual(states.target_raid_config, RAID);
    assert.deepEqual(states.raid_config, {});
    const old = (await call(api(), 'GET', '/v1/nodes/raid/states', undefined, '1.11')).body;
    assert.equal('target_raid_config' in old, false);
    const hidden = await call(
      api(),
      'GET',
      '/v1/nodes/raid?fields=target_raid_config',
      undefined,
      '1.11',
    );
    assert.equal(hidden.status, 406);
    // The fake RAID interface writes nothing to raid_config; the node is left unreserved.
    const node = await api().store.nodes.getByName('raid');
    assert.equal(node.get('reservation'), null);
    assert.equal((await call(api(), 'PUT', '/v1/nodes/raid/states/raid', {})).status, 204);
    assert.deepEqual((await raidFields(api(), 'raid')).target_raid_config, {});
    assert.equal((await call(api(), 'PUT', '/v1/nodes/raid/states/raid', RAID)).status, 204);
    assert.equal((await call(api(), 'PUT', '/v1/nodes/raid/states/raid')).status, 204);
    assert.deepEqual((await raidFields(api(), 'raid')).target_raid_config, {});
  });

  test('the logical disk schema refuses with the real texts; the node keeps its target', async () => {
    await call(api(), 'PUT', '/v1/nodes/raid/states/raid', RAID);
    const refusals: [unknown, string][] = [
      [{ logical_disks: [] }, 'RAID config validation error: [] is too short'],
      [{ foo: 1 }, "RAID config validation error: 'logical_disks' is a required property"],
      [
        { logical_disks: [{ raid_level: '7', size_gb: 1 }] },
        "RAID config validation error: '7' is not one of ['JBOD', '0', '1', '2', '5', '6', '1+0', '5+0', '6+0']",
      ],
      [
        { logical_disks: [{ raid_level: '1', size_gb: -1 }] },
        'RAID config validation error: -1 is less than the minimum of 0',
      ],
      [
        { logical_disks: [{ raid_level: '1', size_gb: 1, physical_disks: ['a', 'b'] }] },
        "RAID config validation error: 'controller' is a dependency of 'physical_disks'",
      ],
      [
        { logical_disks: [{ raid_level: '1', size_gb: 1, number_of_physical_disks: 0 }] },
        'RAID config validation error: 0 is less than or equal to the minimum of 0',
      ],
      [
        {
          logical_disks: [
            { raid_level: '1', size_gb: 'MAX', is_root_volume: true },
            { raid_level: '0', size_gb: 10, is_root_volume: true },
          ],
        },
        'Raid config cannot have more than one root volume. 2 root volumes were specified',
      ],
      [
        ['logical_disks'],
        "Expected types <class 'dict'> for target_raid_config: ['logical_disks']",
      ],
      [null, "Expected types <class 'dict'> for target_raid_config: None"],
    ];
    for (const [body, text] of refusals) {
      const answer = await call(api(), 'PUT', '/v1/nodes/raid/states/raid', body);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(answer.fault(), text);
    }
    assert.deepEqual((await raidFields(api(), 'raid')).target_raid_config, RAID);
  });

  test('406 below 1.12; no-raid is the real 404; a missing node 404', async () => {
    const old = await call(api(), 'PUT', '/v1/nodes/raid/states/raid', RAID, '1.11');
    assert.equal(old.status, 406);
    await createNode(api(), 'noraid', { raid_interface: 'no-raid' });
    const refused = await call(api(), 'PUT', '/v1/nodes/noraid/states/raid', RAID);
    assert.equal(refused.status, 404);
    assert.equal(
      refused.fault(),
      'Driver fake-hardware does not support raid (disabled or not implemented).',
    );
    // An empty configuration is not checked: even no-raid stores it.
    assert.equal((await call(api(), 'PUT', '/v1/nodes/noraid/states/raid', {})).status, 204);
    const missing = await call(api(), 'PUT', '/v1/nodes/missing/states/raid', RAID);
    assert.equal(missing.status, 404);
    assert.equal(missing.fault(), 'Node missing could not be found.');
  });

  test("the driver's logical disk properties come from a conductor; 406 below 1.12", async () => {
    const shown = await call(
      api(),
      'GET',
      '/v1/drivers/fake-hardware/raid/logical_disk_properties',
    );
    assert.equal(shown.status, 200);
    assert.deepEqual(shown.body, RAID_LOGICAL_DISK_PROPERTIES);
    const old = await call(
      api(),
      'GET',
      '/v1/drivers/fake-hardware/raid/logical_disk_properties',
      undefined,
      '1.11',
    );
    assert.equal(old.status, 406);
    const unknown = await call(api(), 'GET', '/v1/drivers/ipmi/raid/logical_disk_properties');
    assert.equal(unknown.status, 404);
    assert.equal(unknown.fault(), "The driver 'ipmi' is unknown.");
  });
});

test("under zed's RPC cap, setting RAID is 406 after the API's own checks; the properties are served", async () => {
  const baton = await startBatonApi({
    caps: { ...pinnedCaps('zed'), apiMax: pinnedCaps('antelope').apiMax },
  });
  try {
    await createNode(baton, 'zed');
    const refused = await call(baton, 'PUT', '/v1/nodes/zed/states/raid', RAID);
    assert.equal(refused.status, 406);
    assert.equal(
      refused.fault(),
      'Request not acceptable. This node action needs conductor RPC API 1.4, above the version cap in force',
    );
    const old = await call(baton, 'PUT', '/v1/nodes/zed/states/raid', RAID, '1.11');
    assert.equal(old.status, 406);
    assert.equal(old.fault(), 'Request not acceptable.');
    const wrong = await call(baton, 'PUT', '/v1/nodes/zed/states/raid', ['x']);
    assert.equal(wrong.status, 400);
    const properties = await call(
      baton,
      'GET',
      '/v1/drivers/fake-hardware/raid/logical_disk_properties',
    );
    assert.equal(properties.status, 200);
    assert.deepEqual(properties.body, RAID_LOGICAL_DISK_PROPERTIES);
  } finally {
    await baton.close();
  }
});

const OWNER = 'f0e1d2c3b4a5968778695a4b3c2d1e0f';
const LESSEE = '0123456789abcdef0123456789abcdef';

describe("Ironic's default policy on RAID", () => {
  let api: BatonApi;

  before(async () => {
    api = await startUnderDefaultPolicy();
    const created = await as(systemUser('admin'), 'POST', '/v1/nodes', {
      driver: 'fake-hardware',
      name: 'owned',
      owner: OWNER,
      lessee: LESSEE,
    });
    assert.equal(created.statusCode, 201, created.body);
  });
  after(() => api?.close());

  const as = (who: Record<string, string>, method: string, url: string, payload?: unknown) =>
    api.request({
      method: method as 'GET',
      url,
      headers: { ...who, 'x-openstack-ironic-api-version': LATEST },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });

  it("set_raid_state is the owner's members'; its readers and the lessee's members are refused", async () => {
    const member = await as(
      projectUser(OWNER, 'member'),
      'PUT',
      '/v1/nodes/owned/states/raid',
      RAID,
    );
    assert.equal(member.statusCode, 204, member.body);
    for (const who of [projectUser(OWNER, 'reader'), projectUser(LESSEE, 'member')]) {
      const refused = await as(who, 'PUT', '/v1/nodes/owned/states/raid', RAID);
      assert.equal(refused.statusCode, 403);
      assert.match(refused.body, /baremetal:node:set_raid_state/);
    }
    const stranger = await as(
      projectUser('ffffffffffffffffffffffffffffffff', 'member'),
      'PUT',
      '/v1/nodes/owned/states/raid',
      RAID,
    );
    assert.equal(stranger.statusCode, 404);
  });

  it("the logical disk properties are a system reader's", async () => {
    const url = '/v1/drivers/fake-hardware/raid/logical_disk_properties';
    assert.equal((await as(systemUser('reader'), 'GET', url)).statusCode, 200);
    const member = await as(projectUser(OWNER, 'member'), 'GET', url);
    assert.equal(member.statusCode, 403);
    assert.match(member.body, /baremetal:driver:get_raid_logical_disk_properties/);
  });
});
