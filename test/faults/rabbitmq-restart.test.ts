/**
 * Fault 2: RabbitMQ restarted while the bare metal API calls two conductors over it (rpc
 * transport amqp, a private broker node of the test's own). Calls in flight fail as
 * docs/rpc.md says (connection lost, or a timeout after `[DEFAULT] rpc_response_timeout`),
 * which the API answers 503 in Ironic's format; no request hangs; the conductors and the API
 * reconnect by themselves and serve again within seconds; no node is left reserved. The restart
 * must be seen: every connection the broker had before it is gone after it, replaced by new
 * ones. Calls in flight when it stops fail; calls made while it is down wait for the
 * reconnection, so a restart that finds no call in flight may fail none (0 is allowed).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  type BatonProcess,
  baremetalApi,
  baremetalConductor,
  stopAllBaton,
} from './support/baton-process.ts';
import { BaremetalLoad, isIronicError, writeBaremetalConfig } from './support/deployment.ts';
import { describeCounts, emptyCounts, runWorkers } from './support/load.ts';
import { PrivateRabbitmq } from './support/private-rabbitmq.ts';
import { reasons, untilEmpty, untilRecovered } from './support/recovery.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('fault: RabbitMQ restarted while the API calls conductors', { timeout: 240_000 }, () => {
  let broker: PrivateRabbitmq;
  let dir: string;
  const processes: BatonProcess[] = [];

  before(async () => {
    broker = await PrivateRabbitmq.start();
    dir = mkdtempSync(join(tmpdir(), 'baton-fault-rmq-'));
  });
  after(async () => {
    await stopAllBaton(processes);
    await broker?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503s while it is down, reconnects within seconds, leaves no node locked', async () => {
    const db = `sqlite:${join(dir, 'baremetal.sqlite')}`;
    const configs = ['rmq-1', 'rmq-2'].map((host) =>
      writeBaremetalConfig({
        dir,
        host,
        db,
        transport: 'amqp',
        transportUrl: broker.url,
        extra: [],
      }),
    );
    const apiConfig = writeBaremetalConfig({
      dir,
      host: 'rmq-api',
      db,
      transport: 'amqp',
      transportUrl: broker.url,
    });
    for (const [i, config] of configs.entries()) {
      processes.push(await baremetalConductor(`conductor-${i + 1}`, config));
    }
    const api = await baremetalApi(apiConfig, ['--rpc-response-timeout', '10']);
    processes.push(api.process);

    const counts = emptyCounts();
    const load = new BaremetalLoad(api.url, counts);
    let stop = false;
    const running = runWorkers(
      4,
      (_, i) => load.step(i),
      () => stop,
    );
    let okBefore = 0;
    let failedBefore = 0;
    let downAt = 0;
    let upAt = 0;
    let recoveredMs = 0;
    let connectionsBefore: string[] = [];
    let connectionsAfter: string[] = [];
    try {
      await sleep(3_000);
      okBefore = counts.ok;
      failedBefore = counts.serverErrors.length;
      connectionsBefore = await broker.connections();
      downAt = Date.now();
      await broker.restart(2_000);
      upAt = Date.now();
      recoveredMs = await untilRecovered([counts], 30_000);
      await sleep(2_000);
      connectionsAfter = await broker.connections();
    } finally {
      stop = true;
      await running;
    }

    const check = await load.check();
    const reserved = await untilEmpty(async () => (await load.check()).reserved, 10_000);
    console.log(
      [
        `fault 2 (RabbitMQ restart): faults injected 1 (down ${upAt - downAt} ms), serving again ${recoveredMs} ms after the broker was up`,
        describeCounts('  baremetal', counts),
        ...Object.entries(reasons(counts)).map(([reason, n]) => `  ${n}× ${reason}`),
        `  broker connections: ${connectionsBefore.length} before, ${connectionsAfter.length} after, none kept`,
        `  rows checked: ${check.rows} nodes (${check.missing.length} missing, ${reserved.length} reserved)`,
      ].join('\n'),
    );
    assert.ok(counts.ok > okBefore);
    assert.equal(failedBefore, 0, 'no 5xx before the broker went down');
    // Three processes, each with at least one connection, all of them new after the restart.
    assert.ok(connectionsBefore.length >= 3, `connections before: ${connectionsBefore}`);
    assert.ok(connectionsAfter.length >= 3, `connections after: ${connectionsAfter}`);
    assert.deepEqual(
      connectionsAfter.filter((port) => connectionsBefore.includes(port)),
      [],
      'the restart was seen: no connection outlived it',
    );
    for (const answer of counts.serverErrors) {
      assert.match(answer.body, /connection lost|not delivered|timed out after|unreachable/);
      assert.ok(answer.at <= upAt + recoveredMs, `${answer.label} failed after the recovery`);
    }
    assert.deepEqual(counts.hangs, [], 'no request hangs');
    assert.deepEqual(counts.noAnswer, []);
    for (const answer of counts.serverErrors) {
      assert.equal(answer.status, 503, `${answer.label}: ${answer.body}`);
      assert.ok(isIronicError(answer.body), answer.body);
    }
    assert.ok(recoveredMs < 15_000, `serving again within 15 s (${recoveredMs} ms)`);
    assert.deepEqual(check.missing, [], 'every acknowledged node is there');
    assert.deepEqual(reserved, [], 'no node left reserved');
    for (const p of processes) assert.ok(p.running(), `${p.name} still runs:\n${p.output()}`);
  });
});
