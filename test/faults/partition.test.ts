/**
 * Fault 4: the API and the conductors separated. Two conductors run in a network namespace of
 * the test's own, joined to the host by a veth pair, with their RPC (http) listening on the
 * namespace's address; the API runs on the host. The link is cut (every packet dropped both
 * ways: nothing is refused, calls just get no answer) for 8 s, then restored. Calls to a
 * conductor get, within `[DEFAULT] rpc_response_timeout` (5 s here), a 503 in Ironic's format
 * saying the call timed out, which a client can retry; reads the API serves from the database
 * go on succeeding; no request hangs; after the link returns the calls succeed again, and no
 * node is left reserved. Needs root (network namespaces); where it cannot run it is skipped,
 * except under CI=true where it fails.
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
import { NetworkNamespace } from './support/network-namespace.ts';
import { reasons, untilEmpty, untilRecovered } from './support/recovery.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const unavailable = NetworkNamespace.unavailable();
if (unavailable !== undefined && process.env.CI === 'true') {
  throw new Error(`${unavailable} (CI=true: the partition fault must run)`);
}
const CUT_MS = 8_000;
const RPC_TIMEOUT_S = 5;
const SECRET = 'partition-test-secret';

describe('fault: the API and the conductors separated', {
  timeout: 240_000,
  skip: unavailable,
}, () => {
  let ns: NetworkNamespace;
  let dir: string;
  const processes: BatonProcess[] = [];

  before(async () => {
    ns = await NetworkNamespace.create();
    dir = mkdtempSync(join(tmpdir(), 'baton-fault-netns-'));
  });
  after(async () => {
    await stopAllBaton(processes);
    await ns?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503 "timed out" while cut, no hang, and serves again once the link returns', async () => {
    const db = `sqlite:${join(dir, 'baremetal.sqlite')}`;
    for (const host of ['part-1', 'part-2']) {
      const config = writeBaremetalConfig({
        dir,
        host,
        db,
        transportUrl: `http://${ns.innerAddress}:0`,
        // Beyond loopback, a noauth conductor's RPC needs a shared secret.
        rpcSharedSecret: SECRET,
        // The conductors keep their heartbeats (the database is on this side of the cut too):
        // the API still routes to them and must give up on its own.
        heartbeatTimeout: 60,
      });
      processes.push(await baremetalConductor(host, config, ns.exec));
    }
    const api = await baremetalApi(
      writeBaremetalConfig({ dir, host: 'part-api', db, rpcSharedSecret: SECRET }),
      ['--rpc-response-timeout', String(RPC_TIMEOUT_S)],
    );
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
    let okWhileCut = 0;
    let failedWhileCut = 0;
    let recoveredMs = 0;
    try {
      await sleep(3_000);
      okBefore = counts.ok;
      await ns.cut();
      await sleep(CUT_MS);
      okWhileCut = counts.ok - okBefore;
      failedWhileCut = counts.serverErrors.length;
      await ns.restore();
      recoveredMs = await untilRecovered([counts], 30_000);
      await sleep(2_000);
    } finally {
      stop = true;
      await running;
    }

    const check = await load.check();
    const reserved = await untilEmpty(async () => (await load.check()).reserved, 10_000);
    console.log(
      [
        `fault 4 (partition API | conductors, netns ${ns.name}): faults injected ${ns.cuts} (cut ${CUT_MS} ms), ` +
          `${okWhileCut} successes (database reads) and ${failedWhileCut} 5xx while cut, serving again ${recoveredMs} ms after the link returned`,
        describeCounts('  baremetal', counts),
        ...Object.entries(reasons(counts)).map(([reason, n]) => `  ${n}× ${reason}`),
        `  rows checked: ${check.rows} nodes (${check.missing.length} missing, ${reserved.length} reserved)`,
      ].join('\n'),
    );
    assert.ok(failedWhileCut > 0, 'calls to the conductors failed while the link was cut');
    assert.deepEqual(counts.hangs, [], 'no request hangs');
    assert.deepEqual(counts.noAnswer, []);
    for (const answer of counts.serverErrors) {
      assert.equal(answer.status, 503, `${answer.label}: ${answer.body}`);
      assert.ok(isIronicError(answer.body), answer.body);
      assert.match(answer.body, /timed out after|connection lost|not delivered/);
    }
    assert.ok(recoveredMs < 15_000, `serving again within 15 s (${recoveredMs} ms)`);
    assert.deepEqual(check.missing, [], 'every acknowledged node is there');
    assert.deepEqual(reserved, [], 'no node left reserved');
    for (const p of processes) assert.ok(p.running(), `${p.name} still runs:\n${p.output()}`);
  });
});
