/**
 * Volume connectors and targets (API 1.32) on the three backends, through the API and its
 * conductor: created by the API, unique as Ironic's (a connector's type and ID, a target's boot
 * index per node: 409), changed and deleted by the node's conductor only while the node is
 * powered off (400 InvalidStateRequested otherwise), moved to another node by PATCH, listed by
 * node and paged, and gone with their node. Under zed's RPC cap, PATCH and DELETE are 406 while
 * reads and creates are served. Under Ironic 21.4's default policy a project sees the volumes of
 * the nodes it owns or leases, not another's, and a target's properties redacted.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it, test } from 'node:test';
import { VolumeChangedError } from '../../../src/baremetal/common/errors.ts';
import { updateVolumeTarget } from '../../../src/baremetal/conductor/manager-volumes.ts';
import { Node } from '../../../src/baremetal/objects/index.ts';
import {
  type BatonApi,
  forEachApiBackend,
  pinnedCaps,
  startBatonApi,
  startSecondApi,
  unpinnedCaps,
} from './support/baton-api.ts';
import { callApi } from './support/call-api.ts';
import { projectUser, SYSTEM_ADMIN, startUnderDefaultPolicy } from './support/personas.ts';

const V = { 'X-OpenStack-Ironic-API-Version': '1.82' };

function call(
  api: BatonApi,
  method: string,
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) {
  return callApi(api, method, url, { payload, headers: { ...V, ...headers } });
}

let serial = 0;
async function node(api: BatonApi, fields: Record<string, unknown> = {}) {
  serial += 1;
  return api.store.nodes.create(
    Node.create({
      driver: 'fake-hardware',
      name: `vol-${process.pid}-${serial}`,
      power_state: 'power off',
      ...fields,
    } as never),
  );
}

forEachApiBackend('volume connectors and targets', (api) => {
  test('a connector is created, unique by type and ID, changed and deleted while powered off', async () => {
    const first = await node(api());
    const uuid = String(first.get('uuid'));
    const id = `iqn.2017-05.org.openstack:${process.pid}-${serial}`;
    const created = await call(api(), 'POST', '/v1/volume/connectors', {
      node_uuid: uuid,
      type: 'iqn',
      connector_id: id,
    });
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.node_uuid, uuid);
    const again = await call(api(), 'POST', '/v1/volume/connectors', {
      node_uuid: uuid,
      type: 'iqn',
      connector_id: id,
    });
    assert.equal(again.status, 409);
    assert.equal(
      again.fault(),
      `A volume connector with type iqn and connector ID ${id} already exists.`,
    );
    const url = `/v1/volume/connectors/${created.body.uuid}`;
    const patched = await call(api(), 'PATCH', url, [{ op: 'add', path: '/extra/a', value: 1 }]);
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.body.extra, { a: 1 });
    // Moved to another node: the conductor checks that node's power state.
    const second = await node(api(), { power_state: 'power on' });
    const moved = await call(api(), 'PATCH', url, [
      { op: 'replace', path: '/node_uuid', value: second.get('uuid') },
    ]);
    assert.equal(moved.status, 400);
    assert.equal(
      moved.fault(),
      `The requested action "volume connector update" can not be performed on node "${second.get('uuid')}" while it is in state "power on".`,
    );
    const listed = await call(api(), 'GET', `/v1/volume/connectors?node=${uuid}&detail=True`);
    assert.deepEqual(
      listed.body.connectors.map((c: { extra: unknown }) => c.extra),
      [{ a: 1 }],
    );
    assert.equal((await call(api(), 'DELETE', url)).status, 204);
    assert.equal((await call(api(), 'GET', url)).status, 404);
  });

  test('a target is unique by boot index per node, refused while powered on, gone with its node', async () => {
    const owner = await node(api(), { power_state: 'power on' });
    const uuid = String(owner.get('uuid'));
    const target = (boot_index: number) =>
      call(api(), 'POST', '/v1/volume/targets', {
        node_uuid: uuid,
        volume_type: 'iscsi',
        boot_index,
        volume_id: `v${boot_index}`,
        properties: { auth_password: 'secret', target_lun: 0 },
      });
    const created = await target(0);
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.properties, { auth_password: '******', target_lun: 0 });
    const twice = await target(0);
    assert.equal(twice.status, 409);
    assert.equal(
      twice.fault(),
      "A volume target with boot index '0' for the same node already exists.",
    );
    assert.equal((await target(1)).status, 201);
    const url = `/v1/volume/targets/${created.body.uuid}`;
    const refused = await call(api(), 'DELETE', url);
    assert.equal(refused.status, 400);
    assert.match(refused.fault(), /"volume target deletion" can not be performed/);
    const page = await call(api(), 'GET', `/v1/nodes/${uuid}/volume/targets?limit=1`);
    assert.equal(page.body.targets.length, 1);
    assert.match(page.body.next, /\/v1\/volume\/targets\?sort_key=id&sort_dir=asc&fields=/);
    await call(api(), 'PUT', `/v1/nodes/${uuid}/maintenance`, {});
    assert.equal((await call(api(), 'DELETE', `/v1/nodes/${uuid}`)).status, 204);
    assert.equal((await call(api(), 'GET', url)).status, 404);
  });
});

forEachApiBackend('volume PATCHes at once', (api) => {
  test('an update computed from a read that is no longer current is refused (VolumeChanged)', async () => {
    const owner = await node(api());
    const created = await call(api(), 'POST', '/v1/volume/targets', {
      node_uuid: owner.get('uuid'),
      volume_type: 'iscsi',
      boot_index: 0,
      volume_id: 'stale',
      extra: { a: 1 },
    });
    const stale = await api().store.volumeTargets.get(String(created.body.uuid));
    const moved = await call(api(), 'PATCH', `/v1/volume/targets/${created.body.uuid}`, [
      { op: 'add', path: '/extra/b', value: 2 },
    ]);
    assert.equal(moved.status, 200, moved.text);
    stale.set('extra', { a: 1, c: 3 });
    const conductor = api().conductors[0];
    assert.ok(conductor);
    // What the conductor is sent for a PATCH computed from the stale read.
    await assert.rejects(
      updateVolumeTarget(conductor.context, stale, { extra: { a: 1 } }),
      (error: unknown) =>
        error instanceof VolumeChangedError &&
        error.message ===
          `Volume ${created.body.uuid} was changed by another request while this one was being applied (extra), please retry.`,
    );
  });

  test('every PATCH answered 2xx keeps its key of extra (issue 24 §2)', async () => {
    const owner = await node(api());
    const created = await call(api(), 'POST', '/v1/volume/connectors', {
      node_uuid: owner.get('uuid'),
      type: 'iqn',
      connector_id: `iqn.2017-05.org.openstack:race-${process.pid}-${serial}`,
    });
    assert.equal(created.status, 201, created.text);
    const url = `/v1/volume/connectors/${created.body.uuid}`;
    // Two API processes: each one's PATCHes take turns, the other's may go in between a read
    // and its write (VolumeChanged, applied again).
    const second = await startSecondApi(api(), unpinnedCaps());
    const patch = (i: number) => ({
      method: 'PATCH' as const,
      url,
      headers: V,
      payload: [{ op: 'add', path: `/extra/k${i}`, value: i }],
    });
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0 ? api().request(patch(i)) : second.request(patch(i)),
      ),
    ).finally(() => second.close());
    const answers = replies.map((reply) => ({ status: reply.statusCode, text: reply.body }));
    const acknowledged = answers.flatMap((answer, i) => (answer.status === 200 ? [`k${i}`] : []));
    assert.ok(acknowledged.length >= 5, `only ${acknowledged.length} PATCHes answered 200`);
    for (const answer of answers) {
      // A PATCH not acknowledged is refused as a client may retry: the node's reservation held.
      if (answer.status !== 200) assert.equal(answer.status, 409, answer.text);
    }
    const extra = (await call(api(), 'GET', url)).body.extra as Record<string, number>;
    assert.deepEqual(
      acknowledged.filter((key) => !(key in extra)),
      [],
      'acknowledged PATCHes lost',
    );
  });
});

test("under zed's RPC cap, changing or deleting a volume is 406; reads and creates are served", async () => {
  const baton = await startBatonApi({
    caps: { ...pinnedCaps('zed'), apiMax: pinnedCaps('antelope').apiMax },
  });
  try {
    const owner = await node(baton);
    const created = await call(baton, 'POST', '/v1/volume/connectors', {
      node_uuid: owner.get('uuid'),
      type: 'wwpn',
      connector_id: '0123456789abcdef',
    });
    assert.equal(created.status, 201, created.text);
    const url = `/v1/volume/connectors/${created.body.uuid}`;
    assert.equal((await call(baton, 'GET', url)).status, 200);
    const patched = await call(baton, 'PATCH', url, [{ op: 'add', path: '/extra/x', value: 1 }]);
    assert.equal(patched.status, 406);
    assert.equal(
      patched.fault(),
      'Request not acceptable. Changing a volume connector or target needs conductor RPC API 1.4, above the version cap in force',
    );
    // The request's own checks come first.
    const invalid = await call(baton, 'PATCH', url, [{ op: 'add', path: '/uuid', value: 'x' }]);
    assert.equal(invalid.status, 400);
    assert.equal((await call(baton, 'DELETE', url)).status, 406);
  } finally {
    await baton.close();
  }
});

describe("Ironic's default policy on volume connectors and targets", () => {
  const OWNER = 'a0e1d2c3b4a5968778695a4b3c2d1e0f';
  const LESSEE = 'b0e1d2c3b4a5968778695a4b3c2d1e0f';
  const OTHER = 'c0e1d2c3b4a5968778695a4b3c2d1e0f';
  let api: BatonApi;

  before(async () => {
    api = await startUnderDefaultPolicy();
  });
  after(() => api?.close());

  it('a project sees the volumes of its nodes, another is told they do not exist', async () => {
    const owned = await node(api, { owner: OWNER, lessee: LESSEE });
    const theirs = await node(api, { owner: OTHER });
    const target = async (nodeUuid: unknown, as: Record<string, string>) =>
      call(
        api,
        'POST',
        '/v1/volume/targets',
        { node_uuid: nodeUuid, volume_type: 'iscsi', boot_index: 0, volume_id: 'v' },
        as,
      );
    // Creating needs the owner's (or lessee's) admin, or the system.
    const asMember = await target(owned.get('uuid'), projectUser(OWNER, 'member'));
    assert.equal(asMember.status, 403);
    assert.equal(
      asMember.fault(),
      'Access was denied to the following resource: baremetal:volume:create',
    );
    const mine = await target(owned.get('uuid'), projectUser(OWNER, 'admin'));
    assert.equal(mine.status, 201, mine.text);
    const other = await target(theirs.get('uuid'), SYSTEM_ADMIN);
    assert.equal(other.status, 201, other.text);
    const listed = await call(
      api,
      'GET',
      '/v1/volume/targets',
      undefined,
      projectUser(LESSEE, 'member'),
    );
    assert.deepEqual(
      listed.body.targets.map((t: { uuid: string }) => t.uuid),
      [mine.body.uuid],
    );
    const shown = await call(
      api,
      'GET',
      `/v1/volume/targets/${mine.body.uuid}`,
      undefined,
      projectUser(OWNER, 'member'),
    );
    assert.equal(shown.status, 200);
    assert.match(String(shown.body.properties.redacted_contents), /Value redacted/);
    const hidden = await call(
      api,
      'GET',
      `/v1/volume/targets/${other.body.uuid}`,
      undefined,
      projectUser(OWNER, 'member'),
    );
    assert.equal(hidden.status, 404);
    assert.equal(hidden.fault(), `Volume target ${other.body.uuid} could not be found.`);
    const underOther = await call(
      api,
      'GET',
      `/v1/nodes/${theirs.get('uuid')}/volume/targets`,
      undefined,
      projectUser(OWNER, 'member'),
    );
    assert.equal(underOther.status, 404);
    assert.equal(underOther.fault(), `Node ${theirs.get('uuid')} could not be found.`);
    const deleted = await call(
      api,
      'DELETE',
      `/v1/volume/targets/${mine.body.uuid}`,
      undefined,
      projectUser(LESSEE, 'member'),
    );
    assert.equal(deleted.status, 403);
  });
});
