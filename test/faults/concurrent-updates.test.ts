/**
 * Fault 5: many writers of one node at once (issue 24 §2), with processes as an operator runs
 * them: `baton baremetal conductor` and two `baton baremetal api` on one SQLite file, http RPC,
 * the conductor's periodic tasks every second. The scenarios of bench:baremetal-races
 * (bench/support/baremetal-races.ts), each on a new node: 40 PATCHes of different keys of
 * `extra` at once; 20 among 20 power actions; 40 spread over both APIs; 20 appending to one
 * list in `extra` over both APIs; 20 among power and provision actions over both APIs. Every
 * PATCH answered 2xx must be in the node afterwards (acknowledged updates lost: 0), the
 * requests must have been in flight together, and where two API processes write one list or
 * among state changes, the conductor must have met updates computed from a stale read (it
 * merged or refused them: each would have been a lost update before). The counts are printed.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  type RaceClient,
  raceUpdates,
  type UpdateRaceOptions,
} from '../../bench/support/baremetal-races.ts';
import { IronicHttp } from '../../bench/support/ironic-http.ts';
import {
  type BatonProcess,
  baremetalApi,
  baremetalConductor,
  stopAllBaton,
} from './support/baton-process.ts';
import { writeBaremetalConfig } from './support/deployment.ts';

const STALE = /update of node \S+ (merged|refused)/g;
/** A process writes its log lines in blocks, at least every 100 ms. */
const LOG_FLUSH_MS = 300;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('fault: concurrent writers of one node', { timeout: 240_000 }, () => {
  let dir: string;
  const processes: BatonProcess[] = [];
  let conductor: BatonProcess;
  let first: IronicHttp;
  let second: IronicHttp;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'baton-fault-updates-'));
    const db = `sqlite:${join(dir, 'baremetal.sqlite')}`;
    const extra = ['sync_power_state_interval = 1'];
    conductor = await baremetalConductor(
      'updates-conductor',
      writeBaremetalConfig({ dir, host: 'updates-conductor', db, extra }),
    );
    processes.push(conductor);
    const apis = [];
    for (const host of ['updates-api-1', 'updates-api-2']) {
      const api = await baremetalApi(writeBaremetalConfig({ dir, host, db }));
      processes.push(api.process);
      apis.push(api.url);
    }
    first = new IronicHttp(apis[0] as string, { version: '1.80', sockets: 64 });
    second = new IronicHttp(apis[1] as string, { version: '1.80', sockets: 64 });
  });
  after(async () => {
    first?.close();
    second?.close();
    await stopAllBaton(processes);
    rmSync(dir, { recursive: true, force: true });
  });

  /** PATCHes alternately through both APIs; everything else through the first. */
  const bothApis = (): RaceClient => {
    let n = 0;
    return {
      call: (method, path, body) =>
        (method === 'PATCH' && n++ % 2 === 1 ? second : first).call(method, path, body),
    };
  };

  const scenarios: {
    name: string;
    client: () => RaceClient;
    options: UpdateRaceOptions;
    /** The race must make the conductor meet stale reads (one key for all, or state changes). */
    staleExpected: boolean;
  }[] = [
    { name: '40 patches', client: () => first, options: { patches: 40 }, staleExpected: false },
    {
      name: '20 patches + 20 power',
      client: () => first,
      options: { patches: 20, powerActions: 20 },
      staleExpected: false,
    },
    {
      name: '40 patches, two APIs',
      client: bothApis,
      options: { patches: 40 },
      // Different keys: merged when a read went stale, which is not always.
      staleExpected: false,
    },
    {
      name: '20 appends to one list, two APIs',
      client: bothApis,
      options: { patches: 20, append: true },
      staleExpected: true,
    },
    {
      name: '20 patches + 10 power + 10 provision, two APIs',
      client: bothApis,
      options: { patches: 20, powerActions: 10, provisionActions: 10 },
      staleExpected: true,
    },
  ];

  for (const scenario of scenarios) {
    it(`${scenario.name}: every acknowledged update is kept`, async () => {
      await sleep(LOG_FLUSH_MS);
      const staleBefore = conductor.output().match(STALE)?.length ?? 0;
      const result = await raceUpdates(scenario.client(), scenario.options);
      await sleep(LOG_FLUSH_MS);
      const stale = (conductor.output().match(STALE)?.length ?? 0) - staleBefore;
      console.log(
        `fault 5 (${scenario.name}): ${result.sent} requests, at most ${result.maxInFlight} in flight; ` +
          `PATCHes ${JSON.stringify(result.patchStatuses)}, other ${JSON.stringify(result.actionStatuses)}; ` +
          `updates from a stale read merged or refused: ${stale}; acknowledged updates lost: ${result.lost.length}`,
      );
      assert.ok(
        result.maxInFlight >= result.sent / 2,
        `only ${result.maxInFlight} in flight at once`,
      );
      assert.ok(
        result.acknowledged >= scenario.options.patches / 2,
        `${result.acknowledged} PATCHes acknowledged`,
      );
      if (scenario.staleExpected) assert.ok(stale > 0, 'no update was computed from a stale read');
      assert.deepEqual(result.lost, [], 'acknowledged updates lost');
    });
  }
});
