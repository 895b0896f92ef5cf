/**
 * Work lost under concurrency, Baton's bare metal service against the real Ironic 21.4.4 in
 * the same run, same settings (bench/support/served-baremetal.ts: one API worker, SQLite or
 * the BACKEND's scratch database, RPC over HTTP, fake hardware), same client code
 * (bench/support/baremetal-races.ts), at microversion 1.80. Issue 24 §2's figures:
 *
 * - patches: PATCHES clients PATCH different keys of one node's `extra` at once;
 * - patches + power: PATCHES_AMONG PATCHes and as many power actions at once;
 * - patches + provision: PATCHES_AMONG PATCHes, as many power actions and PROVISION_ACTIONS
 *   provide/manage requests at once (the node walks through `cleaning` and `verifying`);
 *   each of those three ROUNDS times, on a new node each time: acknowledged updates lost
 *   (2xx answers whose key is missing afterwards), the answers by status, the most requests
 *   in flight at once;
 * - conductor killed during deploys: one conductor, `[fake] deploy_delay = DEPLOY_DELAY`,
 *   KILL_NODES nodes deploying when it is SIGKILLed, and a new conductor started in its
 *   place (same host); nodes left in a transitional state (or reserved) LIMIT_S seconds after
 *   the new conductor's start, and the time to settle. `[conductor]
 *   check_provision_state_interval` is the default (60 s) on both.
 *
 * REAL=0 skips the real service; SCENARIOS=updates or SCENARIOS=kill runs one kind only.
 *
 * PATCHES=40 PATCHES_AMONG=20 PROVISION_ACTIONS=10 ROUNDS=3 KILL_NODES=20 DEPLOY_DELAY=10 \
 * LIMIT_S=120 npm run bench:baremetal-races
 */
import type { Backend } from '../src/db/index.ts';
import { createScratchDatabase } from '../test/db/support/backends.ts';
import { realIronicMissing } from '../test/support/real-ironic.ts';
import {
  type KillResult,
  killDuringDeploys,
  raceUpdates,
  type UpdateRaceOptions,
  type UpdateRaceResult,
} from './support/baremetal-races.ts';
import { IronicHttp } from './support/ironic-http.ts';
import { loadAverage } from './support/process-cpu.ts';
import {
  type ServedBaremetal,
  type ServedOptions,
  startBatonBaremetal,
  startRealBaremetal,
} from './support/served-baremetal.ts';

const VERSION = '1.80';
const PATCHES = Number(process.env.PATCHES ?? 40);
const PATCHES_AMONG = Number(process.env.PATCHES_AMONG ?? 20);
const PROVISION_ACTIONS = Number(process.env.PROVISION_ACTIONS ?? 10);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const KILL_NODES = Number(process.env.KILL_NODES ?? 20);
const DEPLOY_DELAY = Number(process.env.DEPLOY_DELAY ?? (KILL_NODES > 20 ? 60 : 10));
const LIMIT_S = Number(process.env.LIMIT_S ?? 120);
const BACKEND = (process.env.BACKEND ?? 'sqlite') as Backend;
const COMPARE_REAL = process.env.REAL !== '0';
const SCENARIOS = (process.env.SCENARIOS ?? 'updates,kill').split(',');

type Starter = (databaseUrl?: string, options?: ServedOptions) => Promise<ServedBaremetal>;

interface UpdateFigures {
  readonly name: string;
  readonly rounds: UpdateRaceResult[];
}

interface ServiceFigures {
  readonly updates: UpdateFigures[];
  readonly kill?: KillResult;
}

const UPDATE_SCENARIOS: { name: string; options: UpdateRaceOptions }[] = [
  { name: `${PATCHES} patches`, options: { patches: PATCHES } },
  {
    name: `${PATCHES_AMONG} patches + ${PATCHES_AMONG} power`,
    options: { patches: PATCHES_AMONG, powerActions: PATCHES_AMONG },
  },
  {
    name: `${PATCHES_AMONG} patches + ${PATCHES_AMONG} power + ${PROVISION_ACTIONS} provision`,
    options: {
      patches: PATCHES_AMONG,
      powerActions: PATCHES_AMONG,
      provisionActions: PROVISION_ACTIONS,
    },
  },
];

async function withService<T>(
  start: Starter,
  options: ServedOptions,
  body: (service: ServedBaremetal) => Promise<T>,
): Promise<T> {
  const scratch = BACKEND === 'sqlite' ? undefined : await createScratchDatabase(BACKEND);
  const service = await start(scratch?.url, options);
  try {
    return await body(service);
  } finally {
    await service.stop();
    await scratch?.drop();
  }
}

async function figuresOf(start: Starter): Promise<ServiceFigures> {
  const updates: UpdateFigures[] = [];
  if (SCENARIOS.includes('updates')) {
    await withService(start, {}, async (service) => {
      const http = new IronicHttp(service.url, { version: VERSION, sockets: 128 });
      try {
        for (const scenario of UPDATE_SCENARIOS) {
          const rounds: UpdateRaceResult[] = [];
          for (let round = 0; round < ROUNDS; round++) {
            rounds.push(await raceUpdates(http, scenario.options));
          }
          updates.push({ name: scenario.name, rounds });
          console.log(
            `  ${service.name}: ${scenario.name}: ${rounds.map(describeRound).join('; ')}`,
          );
        }
      } finally {
        http.close();
      }
    });
  }
  if (!SCENARIOS.includes('kill')) return { updates };
  const options: ServedOptions = {
    conductors: 1,
    config: {
      fake: { deploy_delay: String(DEPLOY_DELAY) },
      conductor: { workers_pool_size: String(Math.max(100, KILL_NODES + 50)) },
    },
  };
  const kill = await withService(start, options, async (service) => {
    const http = new IronicHttp(service.url, { version: VERSION, sockets: 32 });
    try {
      return await killDuringDeploys(http, service, {
        nodes: KILL_NODES,
        limitMs: LIMIT_S * 1000,
      });
    } finally {
      http.close();
    }
  });
  console.log(
    `  ${start === startBatonBaremetal ? 'baton' : 'real'}: kill: ${JSON.stringify(kill)}`,
  );
  return { updates, kill };
}

function describeRound(round: UpdateRaceResult): string {
  const statuses = (counts: Record<string, number>) =>
    Object.entries(counts)
      .map(([status, n]) => `${n}×${status}`)
      .join(' + ');
  const actions = Object.keys(round.actionStatuses).length
    ? `, actions ${statuses(round.actionStatuses)}`
    : '';
  return `patches ${statuses(round.patchStatuses)}${actions}, lost ${round.lost.length}, in flight ${round.maxInFlight}`;
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

function printTable(baton: ServiceFigures, real: ServiceFigures | undefined): void {
  const rows: string[][] = [['scenario', 'figure', 'Baton', 'real 21.4.4']];
  const side = (value: (f: ServiceFigures) => string) => [
    value(baton),
    real === undefined ? '-' : value(real),
  ];
  for (const [i, scenario] of UPDATE_SCENARIOS.entries()) {
    if (baton.updates[i] === undefined) continue;
    const of = (f: ServiceFigures) => f.updates[i]?.rounds ?? [];
    const acked = (f: ServiceFigures) =>
      `${sum(of(f).map((r) => r.acknowledged))} of ${sum(of(f).map((r) => Object.values(r.patchStatuses).reduce((a, b) => a + b, 0)))}`;
    rows.push([scenario.name, 'PATCHes answered 2xx', ...side(acked)]);
    rows.push([
      '',
      'acknowledged updates lost',
      ...side((f) => String(sum(of(f).map((r) => r.lost.length)))),
    ]);
    rows.push([
      '',
      'most requests in flight',
      ...side((f) =>
        of(f)
          .map((r) => r.maxInFlight)
          .join(', '),
      ),
    ]);
  }
  if (baton.kill) {
    const k = (f: ServiceFigures) => f.kill as KillResult;
    const name = `${KILL_NODES} nodes deploying, conductor killed`;
    rows.push([name, 'deploying when killed', ...side((f) => String(k(f).deployingAtKill))]);
    rows.push([
      '',
      `left transitional after ${LIMIT_S} s`,
      ...side((f) => String(k(f).leftTransitional)),
    ]);
    rows.push([
      '',
      'time to settle (from start)',
      ...side((f) => {
        const settle = k(f).settleMs;
        return settle === undefined ? `> ${LIMIT_S} s` : `${(settle / 1000).toFixed(1)} s`;
      }),
    ]);
    rows.push([
      '',
      'final states',
      ...side((f) =>
        Object.entries(k(f).finalStates)
          .map(([state, n]) => `${n} ${state}`)
          .join(', '),
      ),
    ]);
  }
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length))) ?? [];
  for (const row of rows) console.log(row.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join('  '));
}

console.log(
  `bench:baremetal-races — ${BACKEND}, API ${VERSION}, PATCHES=${PATCHES} PATCHES_AMONG=${PATCHES_AMONG} ` +
    `PROVISION_ACTIONS=${PROVISION_ACTIONS} ROUNDS=${ROUNDS} KILL_NODES=${KILL_NODES} ` +
    `DEPLOY_DELAY=${DEPLOY_DELAY} LIMIT_S=${LIMIT_S}; load ${loadAverage()}`,
);
const baton = await figuresOf(startBatonBaremetal);
let real: ServiceFigures | undefined;
if (COMPARE_REAL) {
  const missing = realIronicMissing();
  if (missing) console.log(`real Ironic left out: ${missing}`);
  else real = await figuresOf(startRealBaremetal);
}
console.log(`load ${loadAverage()}`);
printTable(baton, real);
