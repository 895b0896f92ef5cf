/**
 * The periodic power state sync (Ironic's `_sync_power_states`, `do_sync_power_state`) and
 * the recovery of nodes it put in maintenance (`_power_failure_recovery`), on a conductor
 * whose fake-hardware nodes use a power interface of the tests' own (support/flaky-power.ts):
 * the hardware's state is kept apart from the node's, and its reads can fail.
 * `force_power_state_during_sync` sets the hardware back to the recorded state, or records the
 * hardware's; reads failing more than `power_state_sync_max_retries` times in a row put the
 * node in maintenance with `fault: power failure` and the real text, and the recovery takes it
 * out when the BMC answers again; reserved, maintenance, enroll/wait nodes and nodes with a
 * power change under way are not read; at most `sync_power_state_workers` reads run at once;
 * 1,000 nodes are synced well within the default interval. On the three backends.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConductorLog } from '../../../src/baremetal/conductor/conductor-context.ts';
import type { ConductorSettings } from '../../../src/baremetal/conductor/conductor-settings.ts';
import {
  POWER_FAILURE_FAULT,
  powerFailureRecovery,
  powerSyncFailureCount,
  syncPowerStates,
} from '../../../src/baremetal/conductor/periodic-tasks.ts';
import type { NodeObject } from '../../../src/baremetal/objects/index.ts';
import {
  forEachConductorBackend,
  localTransports,
  newNode,
  startTestConductor,
  type TestConductor,
} from './support/conductor-harness.ts';
import { FLAKY, FLAKY_CATALOG, FLAKY_ENABLED } from './support/flaky-power.ts';

/**
 * Each test's conductor has a conductor group of its own: the stopped conductors of earlier
 * tests stay on the ring until their heartbeat times out and would be mapped some nodes.
 */
let groups = 0;

async function flakyConductor(
  url: string,
  settings: Partial<ConductorSettings> = {},
  log?: ConductorLog,
): Promise<TestConductor> {
  const { transport } = localTransports();
  return startTestConductor({
    url,
    transport: transport(),
    drivers: FLAKY_CATALOG,
    settings: { ...FLAKY_ENABLED, conductorGroup: `sync${++groups}`, ...settings },
    ...(log === undefined ? {} : { log }),
  });
}

async function flakyNode(
  running: TestConductor,
  fields: Parameters<typeof newNode>[0] = {},
): Promise<string> {
  const node = await running.store.nodes.create(
    newNode({
      conductor_group: running.conductor.context.settings.conductorGroup,
      power_interface: 'flaky',
      provision_state: 'available',
      power_state: 'power off',
      ...fields,
    }),
  );
  const uuid = String(node.get('uuid'));
  FLAKY.power.set(uuid, (fields.power_state as string | undefined) ?? 'power off');
  return uuid;
}

async function dropAll(running: TestConductor): Promise<void> {
  for (const node of await running.store.nodes.list({})) {
    await running.store.nodes.destroy(String(node.get('uuid')));
  }
}

forEachConductorBackend('the periodic power state sync', (ctx) => {
  test('records a first power state; forced: sets the hardware back to the recorded one', async () => {
    FLAKY.reset();
    const running = await flakyConductor(ctx.url());
    ctx.onCleanup(() => running.stop());
    const context = running.conductor.context;
    const first = await flakyNode(running, { power_state: null });
    FLAKY.power.set(first, 'power on');
    const drifted = await flakyNode(running, { power_state: 'power on' });
    FLAKY.power.set(drifted, 'power off');
    await syncPowerStates(context);
    assert.equal((await running.store.nodes.get(first)).get('power_state'), 'power on');
    const after = await running.store.nodes.get(drifted);
    assert.equal(after.get('power_state'), 'power on');
    assert.equal(after.get('target_power_state'), null);
    assert.equal(FLAKY.power.get(drifted), 'power on', 'the hardware was set back');
    assert.deepEqual(FLAKY.changes, [`${drifted} power on`]);
    assert.equal(powerSyncFailureCount(context, drifted), 1, 'a correction counts as a retry');
    await syncPowerStates(context);
    assert.equal(powerSyncFailureCount(context, drifted), 0);
    assert.deepEqual(FLAKY.changes, [`${drifted} power on`], 'nothing more to change');
    await dropAll(running);
    await running.stop();
  });

  test('not forced: records the hardware state and leaves the hardware alone', async () => {
    FLAKY.reset();
    const running = await flakyConductor(ctx.url(), { forcePowerStateDuringSync: false });
    ctx.onCleanup(() => running.stop());
    const drifted = await flakyNode(running, { power_state: 'power on' });
    FLAKY.power.set(drifted, 'power off');
    await syncPowerStates(running.conductor.context);
    assert.equal((await running.store.nodes.get(drifted)).get('power_state'), 'power off');
    assert.deepEqual(FLAKY.changes, []);
    await dropAll(running);
    await running.stop();
  });

  test('reads no node reserved, in maintenance, waiting, enrolled or changing power', async () => {
    FLAKY.reset();
    const running = await flakyConductor(ctx.url());
    ctx.onCleanup(() => running.stop());
    const skipped = [
      await flakyNode(running, { reservation: 'another-host' }),
      await flakyNode(running, { maintenance: true }),
      await flakyNode(running, { provision_state: 'wait call-back' }),
      await flakyNode(running, { provision_state: 'clean wait' }),
      await flakyNode(running, { provision_state: 'enroll' }),
      await flakyNode(running, { provision_state: 'adopt failed' }),
      await flakyNode(running, { target_power_state: 'power on' }),
    ];
    const read = await flakyNode(running);
    for (const uuid of [...skipped, read]) FLAKY.power.set(uuid, 'power on');
    await syncPowerStates(running.conductor.context);
    assert.deepEqual([...FLAKY.read], [read]);
    assert.equal(FLAKY.power.get(read), 'power off', 'the one read was corrected');
    for (const uuid of skipped) assert.equal(FLAKY.power.get(uuid), 'power on');
    await dropAll(running);
    await running.stop();
  });

  test('after max retries failed reads: maintenance, power failure; recovered when it answers', async () => {
    FLAKY.reset();
    const running = await flakyConductor(ctx.url(), { powerStateSyncMaxRetries: 2 });
    ctx.onCleanup(() => running.stop());
    const context = running.conductor.context;
    const uuid = await flakyNode(running, { power_state: 'power on' });
    const healthy = await flakyNode(running);
    FLAKY.power.set(uuid, 'power on');
    FLAKY.failing.add(uuid);
    for (let attempt = 1; attempt <= 2; attempt++) {
      await syncPowerStates(context);
      assert.equal(powerSyncFailureCount(context, uuid), attempt);
      const node = await running.store.nodes.get(uuid);
      assert.equal(node.get('maintenance'), false, `attempt ${attempt}`);
      assert.equal(node.get('power_state'), 'power on');
    }
    await syncPowerStates(context);
    const failed = await running.store.nodes.get(uuid);
    assert.equal(failed.get('maintenance'), true);
    assert.equal(failed.get('fault'), POWER_FAILURE_FAULT);
    assert.equal(failed.get('power_state'), null);
    assert.equal(
      failed.get('maintenance_reason'),
      `During sync_power_state, max retries exceeded for node ${uuid}, node state None does not match expected state 'power on'. Updating DB state to 'None' Switching node to maintenance mode. Error: BMC did not answer`,
    );
    assert.equal(failed.get('last_error'), failed.get('maintenance_reason'));
    const [event, ...more] = await running.store.nodeHistory.list(Number(failed.get('id')));
    assert.deepEqual(more, [], 'one history event');
    assert.equal(event?.get('event_type'), 'monitoring');
    assert.equal(event?.get('severity'), 'ERROR');
    assert.equal(event?.get('event'), failed.get('maintenance_reason'));
    assert.equal(failed.get('reservation'), null);
    assert.equal((await running.store.nodes.get(healthy)).get('maintenance'), false);

    // In maintenance, the sync leaves it; the recovery reads it and keeps it while it fails.
    const reads = FLAKY.reads;
    await syncPowerStates(context);
    assert.equal(FLAKY.reads, reads + 1, 'only the healthy node was read');
    await powerFailureRecovery(context);
    assert.equal(FLAKY.reads, reads + 2);
    assert.equal((await running.store.nodes.get(uuid)).get('maintenance'), true);

    // A node in maintenance for another reason is not the recovery's.
    const other = await flakyNode(running, { maintenance: true, maintenance_reason: 'mine' });
    FLAKY.failing.delete(uuid);
    await powerFailureRecovery(context);
    const recovered = await running.store.nodes.get(uuid);
    assert.equal(recovered.get('maintenance'), false);
    assert.equal(recovered.get('maintenance_reason'), null);
    assert.equal(recovered.get('fault'), null);
    assert.equal(recovered.get('power_state'), 'power on');
    assert.equal(recovered.get('reservation'), null);
    assert.equal((await running.store.nodes.get(other)).get('maintenance_reason'), 'mine');
    await syncPowerStates(context);
    assert.equal(powerSyncFailureCount(context, uuid), 0);
    await dropAll(running);
    await running.stop();
  });

  test('runs on its intervals: the sync and the recovery as periodic tasks', async () => {
    FLAKY.reset();
    const running = await flakyConductor(ctx.url(), {
      syncPowerStateInterval: 1,
      powerFailureRecoveryInterval: 1,
      powerStateSyncMaxRetries: 0,
    });
    ctx.onCleanup(() => running.stop());
    const uuid = await flakyNode(running, { power_state: 'power on' });
    FLAKY.power.set(uuid, 'power on');
    FLAKY.failing.add(uuid);
    const until = async (what: string, check: (node: NodeObject) => boolean) => {
      for (let i = 0; i < 100; i++) {
        if (check(await running.store.nodes.get(uuid))) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`${what}: not within 5 s`);
    };
    await until('maintenance', (node) => node.get('fault') === POWER_FAILURE_FAULT);
    FLAKY.failing.delete(uuid);
    await until('recovered', (node) => node.get('maintenance') === false);
    assert.equal((await running.store.nodes.get(uuid)).get('power_state'), 'power on');
    await dropAll(running);
    await running.stop();
  });

  test('logs each sweep: the nodes mapped here (maintenance left out) and its time', async () => {
    FLAKY.reset();
    const lines: string[] = [];
    const log: ConductorLog = { info: (m) => lines.push(m), warn: () => {}, error: () => {} };
    const running = await flakyConductor(ctx.url(), {}, log);
    ctx.onCleanup(() => running.stop());
    await flakyNode(running);
    await flakyNode(running);
    await flakyNode(running, { maintenance: true });
    await syncPowerStates(running.conductor.context);
    const sweeps = lines.filter((line) => line.startsWith('Power state sync:'));
    assert.equal(sweeps.length, 1, lines.join('\n'));
    assert.match(sweeps[0] as string, /^Power state sync: 2 nodes mapped here, \d+\.\d\d s$/);
    await dropAll(running);
    await running.stop();
  });

  test('reads at most sync_power_state_workers nodes at once', async () => {
    FLAKY.reset();
    const running = await flakyConductor(ctx.url(), { syncPowerStateWorkers: 3 });
    ctx.onCleanup(() => running.stop());
    for (let i = 0; i < 24; i++) await flakyNode(running);
    FLAKY.readDelayMs = 20;
    await syncPowerStates(running.conductor.context);
    assert.equal(FLAKY.reads, 24);
    assert.equal(FLAKY.maxInFlight, 3);
    await dropAll(running);
    await running.stop();

    // periodic_max_workers bounds it too, as in the real service.
    FLAKY.reset();
    const bounded = await flakyConductor(ctx.url(), { periodicMaxWorkers: 2 });
    ctx.onCleanup(() => bounded.stop());
    for (let i = 0; i < 12; i++) await flakyNode(bounded);
    FLAKY.readDelayMs = 20;
    await syncPowerStates(bounded.conductor.context);
    assert.equal(FLAKY.reads, 12);
    assert.equal(FLAKY.maxInFlight, 2);
    await dropAll(bounded);
    await bounded.stop();
  });

  test('lets the event loop turn between nodes: RPC calls are not held for a whole sweep', async () => {
    FLAKY.reset();
    const running = await flakyConductor(ctx.url());
    ctx.onCleanup(() => running.stop());
    for (let i = 0; i < 600; i++) await flakyNode(running, { name: `turn${i}` });
    // Once first, so that what is timed is the sweep and not the code's first run.
    await syncPowerStates(running.conductor.context);
    // On SQLite every query answers at once: without a turn of the loop between nodes the
    // sweep is one chain of promises and a timer waits for all of it.
    let last = performance.now();
    let longest = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 1);
    const started = performance.now();
    await syncPowerStates(running.conductor.context);
    const sweepMs = performance.now() - started;
    clearInterval(ticker);
    longest = Math.max(longest, performance.now() - last);
    console.log(
      `power sync of 600 nodes [${ctx.backend}]: ${sweepMs.toFixed(0)} ms, longest wait of a timer ${longest.toFixed(1)} ms`,
    );
    // Held back for the whole sweep, a timer waits about as long as the sweep takes.
    assert.ok(
      longest < sweepMs / 2,
      `a timer waited ${longest.toFixed(1)} ms of a ${sweepMs.toFixed(0)} ms sweep`,
    );
    await dropAll(running);
    await running.stop();
  });

  test('syncs 1,000 nodes within one default interval', { timeout: 600_000 }, async () => {
    FLAKY.reset();
    const running = await flakyConductor(ctx.url());
    ctx.onCleanup(() => running.stop());
    const uuids: string[] = [];
    for (let i = 0; i < 1000; i++) uuids.push(await flakyNode(running, { name: `n${i}` }));
    // Every tenth node has drifted: the sync puts its hardware back.
    for (let i = 0; i < 1000; i += 10) FLAKY.power.set(uuids[i] as string, 'power on');
    // A BMC answers in about 10 ms (ipmitool against ipmi_sim takes longer, see the docs).
    FLAKY.readDelayMs = 10;
    const started = performance.now();
    await syncPowerStates(running.conductor.context);
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `power sync of 1000 nodes [${ctx.backend}]: ${seconds.toFixed(2)} s, 8 workers, ` +
        `max ${FLAKY.maxInFlight} reads at once, ${FLAKY.changes.length} corrected`,
    );
    assert.equal(FLAKY.read.size, 1000);
    // node_power_action reads the state again before it changes it.
    assert.equal(FLAKY.reads, 1100);
    assert.equal(FLAKY.changes.length, 100);
    assert.ok(FLAKY.maxInFlight <= 8);
    assert.ok(seconds < 60, `within sync_power_state_interval (60 s): ${seconds} s`);
    await dropAll(running);
    await running.stop();
  });
});
