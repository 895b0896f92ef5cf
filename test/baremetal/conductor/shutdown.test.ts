/**
 * The conductor's stop (what SIGTERM runs), on SQLite with http RPC: it goes offline first,
 * keeps answering RPC for hash_ring_reset_interval while another conductor lives (so calls
 * routed by a ring built before are not lost), lets the work in flight finish, releases what
 * it held and leaves the services table. Work that outlives graceful_shutdown_timeout keeps
 * its node reserved, and the conductor taking the node over fails it as after a crash.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FAKE_NO_DELAYS } from '../../../src/baremetal/conductor/conductor-settings.ts';
import { listServices } from '../../../src/db/index.ts';
import {
  apiStore,
  conductorApi,
  httpTransport,
  newNode,
  openTestDatabase,
  settled,
  startTestConductor,
} from './support/conductor-harness.ts';

describe('conductor shutdown', () => {
  let dir: string;
  let url: string;
  const closers: (() => Promise<unknown>)[] = [];
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'baton-shutdown-'));
    url = `sqlite:${join(dir, 'bm.sqlite')}`;
  });
  after(async () => {
    for (const close of closers.reverse()) await close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('goes offline first, answers RPC during the grace, finishes its work, then leaves', async () => {
    const slow = { ...FAKE_NO_DELAYS, deploy: [1, 1] as const };
    const t1 = await httpTransport(url, 60);
    const t2 = await httpTransport(url, 60);
    const tApi = await httpTransport(url, 60);
    closers.push(t1.close, t2.close, tApi.close);
    const settings = { hashRingResetInterval: 2, automatedClean: false, fakeDelays: slow };
    const c1 = await startTestConductor({
      url,
      host: 'sd-1',
      transport: t1.transport,
      settings,
      registerService: true,
    });
    const c2 = await startTestConductor({ url, host: 'sd-2', transport: t2.transport, settings });
    closers.push(() => c2.stop());
    const database = await openTestDatabase(url);
    closers.push(() => database.close());
    const store = apiStore(database);
    const api = conductorApi(store, tApi.transport);
    // A node on sd-1, available, then deploying (1 s of fake deploy work).
    let node = await api.createNode(newNode());
    while ((await api.conductorFor(node)) !== 'sd-1') node = await api.createNode(newNode());
    const uuid = String(node.get('uuid'));
    for (const action of ['manage', 'provide']) {
      await api.doProvisioningAction(await store.nodes.get(uuid), action);
      await settled(store, uuid);
    }
    // A second node of sd-1 for a call made during the grace.
    let other = await api.createNode(newNode());
    while ((await api.conductorFor(other)) !== 'sd-1') other = await api.createNode(newNode());
    const routedBefore = await store.nodes.get(String(other.get('uuid')));

    await api.doNodeDeploy(await store.nodes.get(uuid));
    const started = Date.now();
    let stopped = false;
    const stopping = c1.stop().finally(() => {
      stopped = true;
    });
    // Offline in the conductors table first: while the stop still has its work to finish.
    for (;;) {
      if (!(await store.conductors.active(60)).includes('sd-1')) break;
      assert.ok(!stopped, 'went offline before the stop completed');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.ok(!stopped, 'went offline before the stop completed');
    // A call routed to sd-1 by a ring built before is still answered by it.
    const { objectRpcSerializer, RpcClient } = await import('../../../src/rpc/index.ts');
    const { BAREMETAL_OBJECTS } = await import('../../../src/baremetal/objects/index.ts');
    const { CONDUCTOR_TOPIC, CONDUCTOR_RPC } = await import(
      '../../../src/baremetal/rpcapi/index.ts'
    );
    const direct = new RpcClient({
      transport: tApi.transport,
      topic: CONDUCTOR_TOPIC,
      version: CONDUCTOR_RPC.latest,
      server: 'sd-1',
      serializer: objectRpcSerializer(BAREMETAL_OBJECTS),
    });
    assert.deepEqual(
      await direct.call('get_supported_boot_devices', { node_id: routedBefore.get('uuid') }),
      ['pxe'],
    );
    assert.equal(await stopping, true, 'no work left behind');
    assert.ok(Date.now() - started >= 2000, 'served RPC for hash_ring_reset_interval');
    const done = await store.nodes.get(uuid);
    assert.equal(done.get('provision_state'), 'active', 'the deploy in flight finished');
    assert.equal(done.get('reservation'), null);
    const services = await listServices(database as never);
    assert.equal(
      services.some((s) => s.binary === 'baremetal-conductor' && s.host === 'sd-1'),
      false,
    );
    // After the stop, the API reaches the node through sd-2.
    await api.changeNodePowerState(routedBefore, 'power on');
    assert.equal(
      (await settled(store, String(routedBefore.get('uuid')))).get('power_state'),
      'power on',
    );
  });

  it('leaves a node whose work outlived graceful_shutdown_timeout reserved, for the takeover', async () => {
    const t = await httpTransport(url, 60);
    closers.push(t.close);
    const c3 = await startTestConductor({
      url,
      host: 'sd-3',
      transport: t.transport,
      settings: {
        automatedClean: false,
        gracefulShutdownTimeout: 0,
        hashRingResetInterval: 0,
        fakeDelays: { ...FAKE_NO_DELAYS, deploy: [3, 3] },
      },
    });
    const database = await openTestDatabase(url);
    closers.push(() => database.close());
    const store = apiStore(database);
    const { doProvisioningAction, doNodeDeploy } = await import(
      '../../../src/baremetal/conductor/manager-provision.ts'
    );
    const { createNode } = await import('../../../src/baremetal/conductor/manager-nodes.ts');
    const ctx = c3.conductor.context;
    const uuid = String((await createNode(ctx, newNode())).get('uuid'));
    await doProvisioningAction(ctx, uuid, 'manage');
    await settled(store, uuid);
    await doProvisioningAction(ctx, uuid, 'provide');
    await settled(store, uuid);
    await doNodeDeploy(ctx, uuid, {});
    assert.equal(await c3.conductor.stop(), false, 'work was left running');
    const left = await store.nodes.get(uuid);
    assert.equal(left.get('provision_state'), 'deploying');
    assert.equal(left.get('reservation'), 'sd-3', 'kept for the conductor taking it over');
    // In a real process the work dies with it; here it ends before the database closes.
    await new Promise((resolve) => setTimeout(resolve, 3200));
    await c3.database.close();
  });
});
