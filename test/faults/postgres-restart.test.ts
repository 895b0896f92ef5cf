/**
 * Fault 1: PostgreSQL restarted under load (a private cluster of the test's own, never the
 * shared server). Placement (`baton placement serve`) and the bare metal service (`baton
 * baremetal api` + one conductor) run on it while workers send a mixed load; the cluster is
 * stopped (fast shutdown: every session cut), left down for 2 s, started again, twice. Requests in
 * flight or sent while it is down get an answer, not a hang: a success, or a 503 in the
 * service's own error format (never a 500 or a stack); afterwards the same processes serve
 * again without a restart, and every acknowledged write is there. Each restart must be seen:
 * both services answer, while it is down, 503s saying the database is unavailable (a restart
 * no request noticed would prove nothing about the above).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../../src/cli/main.ts';
import {
  type BatonProcess,
  baremetalApi,
  baremetalConductor,
  placementServe,
  stopAllBaton,
} from './support/baton-process.ts';
import {
  BaremetalLoad,
  isIronicError,
  isPlacementError,
  PlacementLoad,
  writeBaremetalConfig,
} from './support/deployment.ts';
import { type Answer, describeCounts, emptyCounts, runWorkers } from './support/load.ts';
import { PrivatePostgres } from './support/private-postgres.ts';
import { untilEmpty, untilRecovered } from './support/recovery.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const RESTARTS = 2;

async function dbUpgrade(service: string, url: string): Promise<void> {
  let text = '';
  const status = await runCli(['db', 'upgrade', '--service', service, '--db', url], {
    out: (line) => {
      text += `${line}\n`;
    },
    err: (chunk) => {
      text += chunk;
    },
  });
  assert.equal(status, 0, text);
}

describe('fault: PostgreSQL restarted under load', { timeout: 240_000 }, () => {
  let pg: PrivatePostgres;
  let dir: string;
  const processes: BatonProcess[] = [];

  before(async () => {
    pg = await PrivatePostgres.start();
    dir = mkdtempSync(join(tmpdir(), 'baton-fault-pg-'));
  });
  after(async () => {
    await stopAllBaton(processes);
    await pg?.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers 503s or successes while it is down, and serves again without a restart', async () => {
    const placementDb = await pg.createDatabase('placement');
    const baremetalDb = await pg.createDatabase('baremetal');
    await dbUpgrade('placement', placementDb);
    await dbUpgrade('baremetal', baremetalDb);
    const config = writeBaremetalConfig({ dir, host: 'pg-fault-1', db: baremetalDb });
    const placement = await placementServe(placementDb);
    processes.push(placement.process);
    processes.push(await baremetalConductor('conductor', config));
    const api = await baremetalApi(config);
    processes.push(api.process);

    const placementCounts = emptyCounts();
    const baremetalCounts = emptyCounts();
    const placementLoad = new PlacementLoad(placement.url, placementCounts);
    const baremetalLoad = new BaremetalLoad(api.url, baremetalCounts);
    let stop = false;
    const load = Promise.all([
      runWorkers(
        3,
        (_, i) => placementLoad.step(i),
        () => stop,
      ),
      runWorkers(
        3,
        (_, i) => baremetalLoad.step(i),
        () => stop,
      ),
    ]);
    const downMs: number[] = [];
    const recoveredMs: number[] = [];
    /** Per restart, the 503s each service answered from the stop until it served again. */
    const seen: { placement: Answer[]; baremetal: Answer[] }[] = [];
    let before: { placement: number; baremetal: number };
    try {
      await sleep(3_000);
      before = { placement: placementCounts.ok, baremetal: baremetalCounts.ok };
      // Twice: a crash on a lost session depends on where each client was when it was cut.
      for (let fault = 0; fault < RESTARTS; fault++) {
        const failedBefore = {
          placement: placementCounts.serverErrors.length,
          baremetal: baremetalCounts.serverErrors.length,
        };
        const downAt = Date.now();
        await pg.restart(2_000);
        downMs.push(Date.now() - downAt);
        // Until both services answer successes again: the pools reconnect by themselves.
        recoveredMs.push(await untilRecovered([placementCounts, baremetalCounts], 45_000));
        seen.push({
          placement: placementCounts.serverErrors.slice(failedBefore.placement),
          baremetal: baremetalCounts.serverErrors.slice(failedBefore.baremetal),
        });
      }
      await sleep(2_000);
    } finally {
      stop = true;
      await load;
    }

    const placementCheck = await placementLoad.missing();
    const baremetalCheck = await baremetalLoad.check();
    // A release that met the database away is retried every second in the background.
    const reserved = await untilEmpty(async () => (await baremetalLoad.check()).reserved, 10_000);
    const errors = [...placementCounts.serverErrors, ...baremetalCounts.serverErrors];
    console.log(
      [
        `fault 1 (PostgreSQL restart): faults injected ${pg.restarts} (down ${downMs.join(', ')} ms), services serving again ${recoveredMs.join(', ')} ms after it was up`,
        describeCounts('  placement', placementCounts),
        describeCounts('  baremetal', baremetalCounts),
        `  rows checked: ${placementLoad.acknowledged.length} providers (${placementCheck.length} missing), ` +
          `${baremetalCheck.rows} nodes (${baremetalCheck.missing.length} missing, ${reserved.length} reserved)`,
        ...errors.slice(0, 3).map((e) => `  e.g. ${e.label} → ${e.status} ${e.body.slice(0, 300)}`),
      ].join('\n'),
    );
    assert.ok(placementCounts.ok > before.placement && baremetalCounts.ok > before.baremetal);
    assert.equal(seen.length, RESTARTS);
    for (const [fault, answers] of seen.entries()) {
      for (const service of ['placement', 'baremetal'] as const) {
        assert.ok(
          answers[service].some((a) => /The database is unavailable/.test(a.body)),
          `restart ${fault + 1} was seen by ${service}: a 503 saying the database is unavailable (got ${answers[service].length} 5xx)`,
        );
      }
    }
    assert.deepEqual(placementCounts.hangs, [], 'no Placement request hangs');
    assert.deepEqual(baremetalCounts.hangs, [], 'no bare metal request hangs');
    assert.deepEqual([...placementCounts.noAnswer, ...baremetalCounts.noAnswer], []);
    for (const answer of placementCounts.serverErrors) {
      assert.equal(answer.status, 503, `${answer.label}: ${answer.body}`);
      assert.ok(isPlacementError(answer.body), answer.body);
    }
    for (const answer of baremetalCounts.serverErrors) {
      assert.equal(answer.status, 503, `${answer.label}: ${answer.body}`);
      assert.ok(isIronicError(answer.body), answer.body);
    }
    assert.deepEqual(placementCheck, [], 'every acknowledged provider is there');
    assert.deepEqual(baremetalCheck.missing, [], 'every acknowledged node is there');
    assert.deepEqual(reserved, [], 'no node left reserved');
    for (const p of processes) assert.ok(p.running(), `${p.name} still runs:\n${p.output()}`);
  });
});
