/**
 * Turns on a node (common/turns.ts): first come first served, the wait given up when the node
 * stays with one holder for the patience given, each hand-over starting that clock again; and
 * in a conductor, on SQLite, PostgreSQL and MariaDB: forty updates of one node at once all get
 * it, one after the other (`node_locked_retry_attempts` polls `node_locked_retry_interval`
 * apart let one of them through per poll and refused the rest), while a task meeting a node
 * held longer than the polling would wait still gets NodeLocked in that time.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { NodeLockedError } from '../../../src/baremetal/common/errors.ts';
import { Turns } from '../../../src/baremetal/common/turns.ts';
import { withNodeTask } from '../../../src/baremetal/conductor/node-task.ts';
import type { ConductorApi } from '../../../src/baremetal/rpcapi/index.ts';
import {
  conductorApi,
  forEachConductorBackend,
  localTransports,
  newNode,
  startTestConductor,
  type TestConductor,
} from './support/conductor-harness.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('turns on a node', () => {
  it('are given in arrival order, and a node is free again once every holder has left', async () => {
    const turns = new Turns();
    const order: number[] = [];
    const first = (await turns.take('n')) as () => void;
    const waiting = [1, 2, 3].map(async (i) => {
      const leave = (await turns.take('n')) as () => void;
      order.push(i);
      await sleep(5);
      leave();
    });
    await sleep(10);
    assert.deepEqual(order, [], 'nobody before the holder leaves');
    first();
    first(); // leaving twice hands over once
    await Promise.all(waiting);
    assert.deepEqual(order, [1, 2, 3]);
    assert.equal(turns.busyNodes, 0);
    assert.ok(await turns.take('other'), 'other nodes are independent');
  });

  it('give up after the patience when the holder keeps the node, not while the line moves', async (t) => {
    // The clock is the test's: waits of tens of milliseconds must not depend on the machine.
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const turns = new Turns();
    const held = (await turns.take('n')) as () => void;
    const impatient = turns.take('n', 30);
    t.mock.timers.tick(30);
    assert.equal(await impatient, undefined, 'the holder kept it 30 ms');
    // A line of holders each keeping the node 20 ms: a waiter with 30 ms of patience behind
    // four of them (90 ms in all) gets its turn, since each hand-over starts its clock again.
    const line = [1, 2, 3, 4].map(() => turns.take('n', 30));
    const last = turns.take('n', 30);
    t.mock.timers.tick(10);
    held();
    for (const waiting of line) {
      const leave = await waiting;
      assert.ok(leave, 'each in the line gets its turn');
      t.mock.timers.tick(20);
      leave();
    }
    const leave = await last;
    assert.ok(leave, 'the line moved');
    leave();
    assert.equal(turns.busyNodes, 0);
  });
});

forEachConductorBackend('a conductor gives a node to its tasks in turn', (backend) => {
  const { transport } = localTransports();
  let conductor: TestConductor;
  let api: ConductorApi;

  before(async () => {
    conductor = await startTestConductor({
      url: backend.url(),
      transport: transport(),
      // Polling alone would wait 0.5 s in all for a node another task holds.
      settings: { nodeLockedRetryAttempts: 3, nodeLockedRetryInterval: 0.25 },
    });
    backend.onCleanup(() => conductor.stop());
    api = conductorApi(conductor.store, transport());
  });

  it('gives the node to forty updates of it at once, where polling alone refused most', async () => {
    const uuid = String((await api.createNode(newNode())).get('uuid'));
    const store = conductor.store;
    const started = Date.now();
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, async (_, i) => {
        const node = await store.nodes.get(uuid);
        node.set('description', `d${i}`);
        return api.updateNode(node);
      }),
    );
    const took = Date.now() - started;
    const refused = results.filter((r) => r.status === 'rejected');
    console.log(`40 updates of one node in ${took} ms, ${refused.length} refused`);
    assert.deepEqual(
      refused.map((r) => String((r as PromiseRejectedResult).reason)),
      [],
      'no update refused',
    );
    const after = await store.nodes.get(uuid);
    assert.equal(after.get('reservation'), null);
    assert.match(String(after.get('description')), /^d\d+$/);
  });

  it('still answers NodeLocked, in the polling time, to a task meeting a node held longer', async () => {
    const uuid = String((await api.createNode(newNode())).get('uuid'));
    const ctx = conductor.conductor.context;
    let release = () => {};
    const holding = withNodeTask(ctx, uuid, { purpose: 'long work' }, () => {
      return new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    await sleep(50);
    const started = Date.now();
    const node = await conductor.store.nodes.get(uuid);
    node.set('description', 'late');
    await assert.rejects(
      api.updateNode(node),
      (error: unknown) => error instanceof NodeLockedError && error.host === conductor.host,
    );
    const waited = Date.now() - started;
    assert.ok(waited >= 450 && waited < 3_000, `waited ${waited} ms`);
    release();
    await holding;
    assert.equal((await conductor.store.nodes.get(uuid)).get('reservation'), null);
  });

  it('takes a node another conductor let go of as soon as it is free, not an interval later', async () => {
    const uuid = String((await api.createNode(newNode())).get('uuid'));
    const running = conductor.conductor.context;
    // Ironic's default: 3 tries 1 s apart; the node is let go of 100 ms into the first wait.
    const ctx = { ...running, settings: { ...running.settings, nodeLockedRetryInterval: 1 } };
    await conductor.store.reservations.reserve('another-conductor', uuid);
    const letGo = sleep(100).then(() =>
      conductor.store.reservations.release('another-conductor', uuid),
    );
    const started = Date.now();
    await withNodeTask(ctx, uuid, { purpose: 'the next verb' }, async () => {});
    const waited = Date.now() - started;
    await letGo;
    assert.ok(waited >= 90 && waited < 700, `waited ${waited} ms`);
    assert.equal((await conductor.store.nodes.get(uuid)).get('reservation'), null);
  });
});
