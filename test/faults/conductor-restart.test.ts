/**
 * Fault 6: a conductor SIGKILLed while it deploys, and started again in its place (issue 24
 * §2), with processes as an operator runs them: `baton baremetal conductor` and `baton
 * baremetal api` on one SQLite file, `[fake] deploy_delay` longer than the nodes take to be
 * prepared, `check_provision_state_interval` 10 s. With 20 and with 200 nodes deploying when
 * the conductor is killed, every node must have settled (`deploy failed`, unreserved) within
 * one provision state check interval of the new conductor's start: in fact before it serves,
 * since it fails them as it starts. The real Ironic 21.4.4, and Baton before, failed 8
 * (`periodic_max_workers`) and left the others `deploying` for good; bench:baremetal-races
 * measures both in one run. The scenario is bench/support/baremetal-races.ts's; the counts are
 * printed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { killDuringDeploys } from '../../bench/support/baremetal-races.ts';
import { IronicHttp } from '../../bench/support/ironic-http.ts';
import {
  type BatonProcess,
  baremetalApi,
  baremetalConductor,
  stopAllBaton,
} from './support/baton-process.ts';
import { writeBaremetalConfig } from './support/deployment.ts';

const INTERVAL_S = 10;

describe('fault: a conductor killed during deploys and started again', { timeout: 600_000 }, () => {
  let dir: string;
  const processes: BatonProcess[] = [];

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'baton-fault-restart-'));
  });
  after(async () => {
    await stopAllBaton(processes);
    rmSync(dir, { recursive: true, force: true });
  });

  for (const [count, deployDelay] of [
    [20, 10],
    [200, 60],
  ] as const) {
    it(`settles all ${count} nodes it was deploying within one check interval of its start`, async () => {
      const db = `sqlite:${join(dir, `restart-${count}.sqlite`)}`;
      const host = `restart-${count}`;
      const config = writeBaremetalConfig({
        dir,
        host,
        db,
        checkProvisionStateInterval: INTERVAL_S,
        extra: [`workers_pool_size = ${count + 50}`, '[fake]', `deploy_delay = ${deployDelay}`],
      });
      let conductor = await baremetalConductor(host, config);
      processes.push(conductor);
      const api = await baremetalApi(writeBaremetalConfig({ dir, host: `${host}-api`, db }));
      processes.push(api.process);
      const http = new IronicHttp(api.url, { version: '1.80', sockets: 16 });
      try {
        const result = await killDuringDeploys(
          http,
          {
            async killConductor() {
              conductor.child.kill('SIGKILL');
              await conductor.exited;
            },
            async restartConductor() {
              processes.splice(processes.indexOf(conductor), 1);
              conductor = await baremetalConductor(host, config);
              processes.push(conductor);
            },
          },
          { nodes: count, limitMs: (2 * INTERVAL_S + 10) * 1000, pollMs: 250 },
        );
        const afterStart =
          result.settleMs === undefined ? undefined : result.settleMs - result.startMs;
        console.log(
          `fault 6 (${count} nodes deploying, conductor SIGKILLed and started again): ` +
            `${result.deployingAtKill} deploying when killed; new conductor serving after ${Math.round(result.startMs)} ms; ` +
            `left transitional: ${result.leftTransitional}; settled ${afterStart === undefined ? 'never' : `${Math.round(afterStart)} ms after it served`}; ` +
            `final states ${JSON.stringify(result.finalStates)}`,
        );
        assert.equal(result.deployingAtKill, count, 'every node was deploying when killed');
        assert.equal(result.leftTransitional, 0, 'nodes left transitional');
        assert.deepEqual(result.finalStates, { 'deploy failed': count });
        assert.ok(
          afterStart !== undefined && afterStart <= INTERVAL_S * 1000,
          `settled ${afterStart} ms after the start`,
        );
      } finally {
        http.close();
      }
    });
  }
});
