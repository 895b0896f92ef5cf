/**
 * Two conductors on one database, RPC over http (peers in the services table), on SQLite,
 * PostgreSQL and MariaDB: nodes spread over both; a conductor stopped cleanly hands its nodes
 * over (the API's calls go to the other one, which takes the active nodes over); nodes a dead
 * conductor left reserved in `deploying` or `cleaning` end as the real Ironic ends them, its
 * reservations are cleared, and a pending power change is dropped; a conductor starting fails
 * the unreserved nodes it cannot resume.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { ConductorRings } from '../../../src/baremetal/common/hash-ring.ts';
import { createBaremetalStore } from '../../../src/baremetal/db/index.ts';
import type { NodeObject } from '../../../src/baremetal/objects/index.ts';
import type { ConductorApi } from '../../../src/baremetal/rpcapi/index.ts';
import {
  apiStore,
  conductorApi,
  forEachConductorBackend,
  httpTransport,
  newNode,
  openTestDatabase,
  settled,
  startTestConductor,
  type TestConductor,
  UNPINNED,
} from './support/conductor-harness.ts';

const FAST = {
  heartbeatInterval: 1,
  heartbeatTimeout: 3,
  checkProvisionStateInterval: 1,
  syncLocalStateInterval: 1,
  hashRingResetInterval: 0,
  nodeLockedRetryAttempts: 3,
  nodeLockedRetryInterval: 0.2,
};

async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 20_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

forEachConductorBackend('two conductors and a takeover', (backend) => {
  let c1: TestConductor;
  let c2: TestConductor;
  let api: ConductorApi;
  let store: ReturnType<typeof apiStore>;
  let nodes: NodeObject[] = [];

  before(async () => {
    const t1 = await httpTransport(backend.url());
    const t2 = await httpTransport(backend.url());
    const tApi = await httpTransport(backend.url());
    backend.onCleanup(() => Promise.all([t1.close(), t2.close(), tApi.close()]));
    c1 = await startTestConductor({
      url: backend.url(),
      host: 'c1',
      transport: t1.transport,
      settings: FAST,
    });
    backend.onCleanup(() => c1.stop());
    c2 = await startTestConductor({
      url: backend.url(),
      host: 'c2',
      transport: t2.transport,
      settings: FAST,
    });
    backend.onCleanup(() => c2.stop());
    const database = await openTestDatabase(backend.url());
    backend.onCleanup(() => database.close());
    store = apiStore(database);
    api = conductorApi(store, tApi.transport, { heartbeatTimeout: 3 });
  });

  it('spreads nodes over both conductors and deploys them through the one each maps to', async () => {
    for (let i = 0; i < 10; i++) nodes.push(await api.createNode(newNode()));
    const hosts = await Promise.all(nodes.map((node) => api.conductorFor(node)));
    assert.deepEqual([...new Set(hosts)].sort(), ['c1', 'c2']);
    for (const action of ['manage', 'provide']) {
      for (const node of nodes)
        await api.doProvisioningAction(await store.nodes.get(String(node.get('uuid'))), action);
      for (const node of nodes) await settled(store, String(node.get('uuid')));
    }
    for (const node of nodes)
      await api.doNodeDeploy(await store.nodes.get(String(node.get('uuid'))));
    nodes = await Promise.all(nodes.map((node) => settled(store, String(node.get('uuid')))));
    const ids = { c1: c1.conductor.context.conductorId, c2: c2.conductor.context.conductorId };
    nodes.forEach((node, i) => {
      assert.equal(node.get('provision_state'), 'active');
      assert.equal(
        node.get('conductor_affinity'),
        ids[hosts[i] as 'c1' | 'c2'],
        'deployed by its conductor',
      );
    });
  });

  it('hands the nodes of a cleanly stopped conductor over to the other one', async () => {
    const c2Nodes: NodeObject[] = [];
    for (const node of nodes) if ((await api.conductorFor(node)) === 'c2') c2Nodes.push(node);
    assert.ok(c2Nodes.length > 0);
    assert.equal(await c2.stop(), true, 'nothing left in flight');
    const row = (await store.conductors.list()).find((c) => c.get('hostname') === 'c2');
    assert.ok(row);
    assert.equal(await store.conductors.active(3).then((hosts) => hosts.includes('c2')), false);
    // The API's calls for those nodes now reach c1.
    for (const node of c2Nodes) {
      assert.equal(await api.conductorFor(node), 'c1');
      await api.changeNodePowerState(await store.nodes.get(String(node.get('uuid'))), 'power on');
      assert.equal((await settled(store, String(node.get('uuid')))).get('power_state'), 'power on');
    }
    // c1's _sync_local_state takes the active nodes over.
    const c1Id = c1.conductor.context.conductorId;
    await eventually('the takeover of the active nodes', async () => {
      const now = await Promise.all(c2Nodes.map((n) => store.nodes.get(String(n.get('uuid')))));
      return now.every((n) => n.get('conductor_affinity') === c1Id && n.get('reservation') === null)
        ? true
        : undefined;
    });
  });

  it('fails what a dead conductor left deploying or cleaning, as the real takeover does, and clears its reservations', async () => {
    const dead = `dead-${Date.now()}`;
    const past = createBaremetalStore(store.context.database, {
      targets: UNPINNED.objectTargets,
      now: () => new Date(Date.now() - 600_000),
    });
    await past.conductors.register({
      hostname: dead,
      drivers: ['fake-hardware'],
      conductor_group: '',
    });
    const left = async (state: string, target: string, fields: Record<string, unknown> = {}) => {
      const node = await api.createNode(newNode(fields));
      const uuid = String(node.get('uuid'));
      const row = await store.nodes.get(uuid);
      row.set('provision_state', state);
      row.set('target_provision_state', target);
      await store.nodes.save(row);
      await store.reservations.reserve(dead, row.get('id'));
      return uuid;
    };
    const deploying = await left('deploying', 'active');
    const cleaning = await left('cleaning', 'available');
    const powering = await left('active', 'active' as never);
    const powerRow = await store.nodes.get(powering);
    powerRow.set('target_provision_state', null);
    powerRow.set('target_power_state', 'power on');
    await store.nodes.save(powerRow);

    const afterDeploy = await eventually('deploy failed', async () => {
      const node = await store.nodes.get(deploying);
      return node.get('provision_state') === 'deploy failed' && node.get('reservation') === null
        ? node
        : undefined;
    });
    assert.equal(afterDeploy.get('target_provision_state'), 'active');
    assert.equal(afterDeploy.get('last_error'), 'Operation was aborted due to conductor take over');
    const afterClean = await eventually('clean failed', async () => {
      const node = await store.nodes.get(cleaning);
      return node.get('provision_state') === 'clean failed' && node.get('reservation') === null
        ? node
        : undefined;
    });
    assert.equal(afterClean.get('last_error'), 'Operation was aborted due to conductor take over');
    assert.equal(afterClean.get('target_provision_state'), 'available');
    const afterPower = await eventually('power cleared', async () => {
      const node = await store.nodes.get(powering);
      return node.get('target_power_state') === null && node.get('reservation') === null
        ? node
        : undefined;
    });
    assert.equal(
      afterPower.get('last_error'),
      'Pending power operation was aborted due to conductor take over',
    );
    assert.equal(afterPower.get('provision_state'), 'active');
    const reserved = await store.nodes.list({ filters: { reserved_by_any_of: [dead] } });
    assert.deepEqual(reserved, []);
  });

  it('fails, at start, the unreserved nodes it maps that no conductor can resume', async () => {
    // A node the ring of c1 and c3 gives to c3, left verifying by nobody.
    const rings = new ConductorRings(
      ['c1', 'c3'].map((hostname) => ({
        hostname,
        conductorGroup: '',
        hardwareTypes: ['fake-hardware'],
      })),
    );
    let uuid = '';
    for (;;) {
      const node = await api.createNode(newNode());
      uuid = String(node.get('uuid'));
      if (rings.conductorFor({ uuid, driver: 'fake-hardware', conductorGroup: '' }) === 'c3') break;
    }
    const row = await store.nodes.get(uuid);
    row.set('provision_state', 'verifying');
    row.set('target_provision_state', 'manageable');
    await store.nodes.save(row);
    const t3 = await httpTransport(backend.url());
    const c3 = await startTestConductor({
      url: backend.url(),
      host: 'c3',
      transport: t3.transport,
      settings: FAST,
    });
    try {
      const after = await store.nodes.get(uuid);
      assert.equal(after.get('provision_state'), 'enroll');
      assert.equal(after.get('target_provision_state'), null);
      assert.equal(
        after.get('last_error'),
        "The verifying state can't be resumed by conductor c3. Moving to fail state.",
      );
    } finally {
      await c3.stop();
      await t3.close();
    }
  });
});
