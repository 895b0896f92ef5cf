/**
 * The bare metal service under load, Baton's against the real Ironic 21.4.4, in the same run,
 * with the same settings (bench/support/served-baremetal.ts: one API worker, two conductors,
 * SQLite, RPC over HTTP, fake hardware, automated cleaning off), the same client code and the
 * same concurrency, at microversion 1.80. For each figure: both medians and p99s, and the
 * ratio (real / Baton for latencies, Baton / real for throughput).
 *
 * - list: `GET /v1/nodes/detail?limit=100` with 1,000 nodes enrolled;
 * - show: `GET /v1/nodes/{uuid}` of a random node;
 * - patch: `PATCH /v1/nodes/{uuid}` replacing `/extra/x` (through the conductor, over RPC);
 * - port create: `POST /v1/ports` with a new MAC each time (through the conductor);
 * - provisioning: nodes from `enroll` to `active` (manage, provide, deploy) per second, with
 *   IN_FLIGHT nodes moving at once; one poller lists their states every POLL_MS, so the
 *   polling costs the servers the same whatever the number in flight. A node gets its next
 *   verb once it is in the stable state and unlocked (no reservation). PROVISION_WARMUP nodes
 *   go the same way first, untimed.
 *
 * Both services are started and enrolled first; list and show are then measured in ROUNDS
 * interleaved rounds (the order reversed every other round) of SAMPLES timed requests each,
 * after WARMUP untimed ones in the first round and ROUND_WARMUP in the others: each prints the
 * median of the rounds' p50 and p99 with their range (min–max), and the ratio taken within each
 * round (median and range). Patch, port create (SAMPLES × ROUNDS samples each) and provisioning
 * follow, one service at a time.
 *
 * Each API figure: WARMUP requests, then SAMPLES timed ones from CLIENTS concurrent clients,
 * each from sending the request to the answer's last byte (the client decodes only the bodies
 * it reads: the list's 236 kB of JSON would otherwise add the same ~2 ms to both sides).
 * Target: Baton at least 10x the real service on every figure (p50).
 * REAL=0 skips the real service. SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof'
 * profiles Baton's API process (CONDUCTOR_NODE_ARGS its conductors).
 *
 * ROUNDS=5 SAMPLES=200 CLIENTS=1 NODES=1000 PROVISION_NODES=200 IN_FLIGHT=20 npm run bench:baremetal
 */
import { randomUUID } from 'node:crypto';
import type { Backend } from '../src/db/index.ts';
import { createScratchDatabase } from '../test/db/support/backends.ts';
import { realIronicMissing } from '../test/support/real-ironic.ts';
import { IronicHttp } from './support/ironic-http.ts';
import { percentile } from './support/placement-http.ts';
import { CpuMeter, type CpuSpent, loadAverage } from './support/process-cpu.ts';
import {
  formatSpread,
  interleave,
  lowerIsBetter,
  type RoundsFigure,
  summarizeRounds,
} from './support/rounds.ts';
import {
  BENCH_CONDUCTORS,
  BENCH_SETTINGS,
  type ServedBaremetal,
  startBatonBaremetal,
  startRealBaremetal,
} from './support/served-baremetal.ts';

const VERSION = '1.80';
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const SAMPLES = Number(process.env.SAMPLES ?? 200);
const WARMUP = Number(process.env.WARMUP ?? 100);
const ROUND_WARMUP = Number(process.env.ROUND_WARMUP ?? 20);
/** Patch and port create are measured once per service, with as many samples as all rounds. */
const WRITE_SAMPLES = SAMPLES * ROUNDS;
const CLIENTS = Number(process.env.CLIENTS ?? 1);
const NODES = Number(process.env.NODES ?? 1000);
const PROVISION_NODES = Number(process.env.PROVISION_NODES ?? 200);
const IN_FLIGHT = Number(process.env.IN_FLIGHT ?? 20);
const PROVISION_WARMUP = Number(process.env.PROVISION_WARMUP ?? 10);
const POLL_MS = Number(process.env.POLL_MS ?? 50);
const BACKEND = (process.env.BACKEND ?? 'sqlite') as Backend;
const COMPARE_REAL = process.env.REAL !== '0';
const TARGET_RATIO = 10;
const PROVISION_CLASS = 'bench-provision';

interface Latencies {
  readonly p50: number;
  readonly p99: number;
  readonly samples: number;
  /** 5xx answers met (and retried) during the figure. */
  errors?: number;
  /** CPU ms per request of the API process (Baton's only: the real one forks). */
  apiCpuMs?: number;
  /** CPU ms per request of both conductors together (Baton's only). */
  conductorCpuMs?: number;
}

interface Provisioning {
  readonly perSecond: number;
  /** Nodes that ended in a failed state instead of `active` (not counted in perSecond). */
  readonly failed: number;
  readonly errors: number;
  /** Time of one node from its `manage` to `active`. */
  readonly node: Latencies;
}

interface Figures {
  readonly patch: Latencies;
  readonly portCreate: Latencies;
  readonly provisioning: Provisioning;
}

function summarize(times: number[]): Latencies {
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99), samples: times.length };
}

/**
 * `warmup` untimed and then SAMPLES timed calls of `operation`, from CLIENTS clients at once;
 * `operation(i, client)` gets a number unique in the run and the client's index.
 */
async function measure(
  http: IronicHttp,
  meters: Meters,
  operation: (i: number, client: number) => Promise<unknown>,
  warmup = WARMUP,
  samples = SAMPLES,
): Promise<Latencies> {
  let next = 0;
  let errorsBefore = 0;
  const unmetered = () => ({ serverMs: undefined, databaseMs: undefined });
  let cpu: () => CpuSpent = unmetered;
  let conductorCpu: () => CpuSpent[] = () => [unmetered()];
  const times: number[] = [];
  const total = warmup + samples;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let i = next++; i < total; i = next++) {
        if (i === warmup) {
          errorsBefore = http.serverErrors;
          meters.api.start();
          for (const meter of meters.conductors) meter.start();
          cpu = () => meters.api.stop();
          conductorCpu = () => meters.conductors.map((meter) => meter.stop());
        }
        const started = performance.now();
        await operation(i, client);
        if (i >= warmup) times.push(performance.now() - started);
      }
    }),
  );
  const spent = cpu().serverMs;
  const conductorsSpent = conductorCpu().map((c) => c.serverMs);
  const conductorMs =
    conductorsSpent.length === 0 || conductorsSpent.some((ms) => ms === undefined)
      ? undefined
      : (conductorsSpent as number[]).reduce((sum, ms) => sum + ms, 0);
  return {
    ...summarize(times),
    errors: http.serverErrors - errorsBefore,
    ...(spent === undefined ? {} : { apiCpuMs: spent / samples }),
    ...(conductorMs === undefined ? {} : { conductorCpuMs: conductorMs / samples }),
  };
}

/** The CPU meters of Baton's processes: its API's, and one per conductor. */
interface Meters {
  readonly api: CpuMeter;
  readonly conductors: readonly CpuMeter[];
}

/** Enrolls `count` nodes, 8 at a time; their UUIDs in creation order. */
async function enroll(
  http: IronicHttp,
  count: number,
  extra: Record<string, unknown>,
): Promise<string[]> {
  const uuids = Array.from({ length: count }, () => randomUUID());
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let i = next++; i < count; i = next++) {
        await http.expect([201], 'POST', '/v1/nodes', {
          uuid: uuids[i],
          driver: 'fake-hardware',
          extra: { x: '0' },
          ...extra,
        });
      }
    }),
  );
  return uuids;
}

/** A MAC address of its own for each `i` (locally administered). */
function mac(i: number): string {
  const hex = i.toString(16).padStart(8, '0');
  return `02:00:${hex.slice(0, 2)}:${hex.slice(2, 4)}:${hex.slice(4, 6)}:${hex.slice(6, 8)}`;
}

/** The verbs of one node's way from `enroll` to `active`, and the state each ends in. */
const STAGES = [
  { verb: 'manage', reaches: 'manageable' },
  { verb: 'provide', reaches: 'available' },
  { verb: 'active', reaches: 'active' },
] as const;

/** A node not `active` this long after its `manage` counts as failed (NODE_TIMEOUT_S). */
const NODE_TIMEOUT_MS = Number(process.env.NODE_TIMEOUT_S ?? 300) * 1000;
const FAILED_STATES = new Set(['error', 'deploy failed', 'clean failed', 'inspect failed']);

/** Nodes from `enroll` to `active`, IN_FLIGHT at a time; nodes per second. */
async function provision(
  http: IronicHttp,
  uuids: readonly string[],
  resourceClass: string,
): Promise<Provisioning> {
  const pending = [...uuids];
  /** Nodes on their way: the stage reached, and whether a verb is being sent to it now. */
  const inFlight = new Map<string, { stage: number; started: number; sending: boolean }>();
  const nodeTimes: number[] = [];
  let failed = 0;
  let refused: unknown;
  const errorsBefore = http.serverErrors;
  // Verbs go out without the poller waiting for their answers (a 202 can take a while when the
  // conductor is busy); a node gets no other verb until its answer is in.
  const act = (uuid: string, verb: string) => {
    const flight = inFlight.get(uuid) as { sending: boolean };
    flight.sending = true;
    http.expect([202], 'PUT', `/v1/nodes/${uuid}/states/provision`, { target: verb }).then(
      () => {
        flight.sending = false;
      },
      (error) => {
        refused ??= error;
      },
    );
  };
  const started = performance.now();
  while (nodeTimes.length + failed < uuids.length) {
    if (refused !== undefined) throw refused;
    while (inFlight.size < IN_FLIGHT && pending.length > 0) {
      const uuid = pending.shift() as string;
      inFlight.set(uuid, { stage: 0, started: performance.now(), sending: false });
      act(uuid, 'manage');
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const listed = await http.expect(
      [200],
      'GET',
      `/v1/nodes?resource_class=${resourceClass}&limit=1000&fields=uuid,provision_state,target_provision_state,last_error,reservation`,
    );
    for (const node of listed.body.nodes as Record<string, string | null>[]) {
      const uuid = node.uuid as string;
      const flight = inFlight.get(uuid);
      if (flight === undefined || flight.sending) continue;
      const stage = STAGES[flight.stage] as (typeof STAGES)[number];
      const state = node.provision_state as string;
      // The next verb waits for the lock to be released too: sent while the conductor still
      // holds it, it would wait out node_locked_retry_interval (1 s) on either service.
      const idle = node.target_provision_state === null && node.reservation === null;
      // A node that got where it was going goes on (a client would), even with a last_error
      // (the real one sets one when a write after the state change meets a locked database).
      if (!(idle && state === stage.reaches)) {
        const stuck = performance.now() - flight.started > NODE_TIMEOUT_MS;
        if (FAILED_STATES.has(state) || (idle && node.last_error) || stuck) {
          const why = stuck ? 'no progress in time' : node.last_error?.split('\n')[0];
          console.log(`  node ${uuid} failed in ${state}: ${why}`);
          inFlight.delete(uuid);
          failed++;
        }
        continue;
      }
      flight.stage++;
      const following = STAGES[flight.stage];
      if (following === undefined) {
        inFlight.delete(uuid);
        nodeTimes.push(performance.now() - flight.started);
      } else {
        act(uuid, following.verb);
      }
    }
  }
  const elapsed = performance.now() - started;
  return {
    perSecond: (nodeTimes.length * 1000) / elapsed,
    failed,
    errors: http.serverErrors - errorsBefore,
    node: summarize(nodeTimes),
  };
}

/** A service started, with its nodes enrolled, kept for every figure. */
interface Side {
  readonly served: ServedBaremetal;
  readonly http: IronicHttp;
  readonly meters: Meters;
  readonly nodes: string[];
  readonly close: () => Promise<void>;
}

async function prepare(start: (databaseUrl?: string) => Promise<ServedBaremetal>): Promise<Side> {
  const scratch = BACKEND === 'sqlite' ? undefined : await createScratchDatabase(BACKEND);
  const served = await start(scratch?.url);
  const http = new IronicHttp(served.url, { version: VERSION, sockets: CLIENTS + IN_FLIGHT });
  const meters: Meters = {
    api: new CpuMeter(served.name === 'baton' ? served.apiPid : undefined, undefined),
    conductors: served.conductorPids.map((pid) => new CpuMeter(pid, undefined)),
  };
  const close = async () => {
    http.close();
    await served.stop();
    await scratch?.drop();
  };
  try {
    const setupStarted = performance.now();
    const nodes = await enroll(http, NODES, {});
    console.log(
      `  ${served.name}: ${NODES} nodes enrolled in ${((performance.now() - setupStarted) / 1000).toFixed(1)} s`,
    );
    return { served, http, meters, nodes, close };
  } catch (error) {
    await close();
    throw error;
  }
}

const randomNode = (side: Side) =>
  side.nodes[Math.floor(Math.random() * side.nodes.length)] as string;

interface ReadRound {
  readonly list: Latencies;
  readonly show: Latencies;
}

/** One round of the read figures on one service: list detail, then show. */
async function readRound(side: Side, round: number): Promise<ReadRound> {
  const { http, meters } = side;
  const warmup = round === 0 ? WARMUP : ROUND_WARMUP;
  const list = await measure(
    http,
    meters,
    () => http.expect([200], 'GET', '/v1/nodes/detail?limit=100'),
    warmup,
  );
  const show = await measure(
    http,
    meters,
    () => http.expect([200], 'GET', `/v1/nodes/${randomNode(side)}`),
    warmup,
  );
  return { list, show };
}

/** The write figures and provisioning, on one service. */
async function writeFigures(side: Side): Promise<Figures> {
  const { served, http, meters, nodes } = side;
  const line = (label: string, l: Latencies) => {
    printLatencies(served.name, label, l);
    return l;
  };
  // Each client patches nodes of its own, so two clients never race for a node's lock.
  const patch = line(
    'patch',
    await measure(
      http,
      meters,
      (i, client) =>
        http.expect([200], 'PATCH', `/v1/nodes/${nodes[(i * CLIENTS + client) % nodes.length]}`, [
          { op: 'replace', path: '/extra/x', value: String(i) },
        ]),
      WARMUP,
      WRITE_SAMPLES,
    ),
  );
  const portCreate = line(
    'port create',
    await measure(
      http,
      meters,
      (i) =>
        http.expect([201], 'POST', '/v1/ports', { node_uuid: randomNode(side), address: mac(i) }),
      WARMUP,
      WRITE_SAMPLES,
    ),
  );
  // A few nodes first, untimed: the first walks load and compile the conductors' code.
  const warmupClass = `${PROVISION_CLASS}-warmup`;
  await provision(
    http,
    await enroll(http, PROVISION_WARMUP, { resource_class: warmupClass }),
    warmupClass,
  );
  const provisionNodes = await enroll(http, PROVISION_NODES, {
    resource_class: PROVISION_CLASS,
  });
  const provisioning = await provision(http, provisionNodes, PROVISION_CLASS);
  const p = provisioning;
  console.log(
    `  ${served.name.padEnd(12)} ${'provisioning'.padEnd(13)} ${p.perSecond.toFixed(2)} nodes/s; per node p50 ${ms(p.node.p50)}  p99 ${ms(p.node.p99)} (${p.failed} failed, ${p.errors} 5xx retried)`,
  );
  return { patch, portCreate, provisioning };
}

/** The rounds' read figures: p50 and p99 of each service, median (min–max), and the ratio. */
function printReadRounds(names: readonly string[], results: ReadRound[][]): RoundsFigure[] {
  console.log(
    `\nreads over ${results.length} interleaved rounds of ${SAMPLES} samples: median (min–max) of the rounds${names.length > 1 ? '; ratio real/baton per round' : ''}`,
  );
  const p50s: RoundsFigure[] = [];
  for (const figure of ['list', 'show'] as const) {
    for (const at of ['p50', 'p99'] as const) {
      const summary = summarizeRounds(results, (r) => r[figure][at], lowerIsBetter);
      if (at === 'p50') p50s.push(summary);
      const sides = summary.contenders.map((c, i) => `${names[i]} ${formatSpread(c, 2, ' ms')}`);
      const ratio = summary.ratio ? `  ratio ${formatSpread(summary.ratio, 1, 'x')}` : '';
      console.log(
        `${`${figure === 'list' ? 'list detail' : 'show'} ${at}`.padEnd(16)} ${sides.join('  ')}${ratio}`,
      );
    }
  }
  return p50s;
}

const ms = (n: number) => `${n.toFixed(2)} ms`;

function printLatencies(name: string, label: string, l: Latencies): void {
  console.log(
    `  ${name.padEnd(12)} ${label.padEnd(13)} p50 ${ms(l.p50)}  p99 ${ms(l.p99)}  (${l.samples} samples, ${l.errors} 5xx retried${l.apiCpuMs === undefined ? '' : `, API CPU ${l.apiCpuMs.toFixed(2)} ms/request`}${l.conductorCpuMs === undefined ? '' : `, conductors ${l.conductorCpuMs.toFixed(2)}`})`,
  );
}

function compare(baton: Figures, real: Figures, readRatios: readonly number[]): boolean {
  let met = readRatios.every((ratio) => ratio >= TARGET_RATIO);
  const verdict = (ratio: number) => {
    met &&= ratio >= TARGET_RATIO;
    return ratio >= TARGET_RATIO ? 'met' : 'NOT met';
  };
  console.log(
    `\n${'figure'.padEnd(14)} ${'baton p50'.padStart(10)} ${'real p50'.padStart(10)} ${'ratio'.padStart(7)} ${'baton p99'.padStart(10)} ${'real p99'.padStart(10)} ${'ratio'.padStart(7)}  target ${TARGET_RATIO}x (p50)`,
  );
  const row = (label: string, b: Latencies, r: Latencies) => {
    const ratio = r.p50 / b.p50;
    console.log(
      `${label.padEnd(14)} ${b.p50.toFixed(2).padStart(10)} ${r.p50.toFixed(2).padStart(10)} ${`${ratio.toFixed(1)}x`.padStart(7)} ${b.p99.toFixed(2).padStart(10)} ${r.p99.toFixed(2).padStart(10)} ${`${(r.p99 / b.p99).toFixed(1)}x`.padStart(7)}  ${verdict(ratio)}`,
    );
  };
  row('patch', baton.patch, real.patch);
  row('port create', baton.portCreate, real.portCreate);
  const b = baton.provisioning;
  const r = real.provisioning;
  const ratio = b.perSecond / r.perSecond;
  console.log(
    `${'provisioning'.padEnd(14)} ${`${b.perSecond.toFixed(1)}/s`.padStart(10)} ${`${r.perSecond.toFixed(1)}/s`.padStart(10)} ${`${ratio.toFixed(1)}x`.padStart(7)} ${'per node:'.padStart(10)} ${(b.node.p99 / 1000).toFixed(2).padStart(9)}s ${(r.node.p99 / 1000).toFixed(2).padStart(9)}s (p99)  ${verdict(ratio)}`,
  );
  return met;
}

const settings = Object.entries(BENCH_SETTINGS)
  .flatMap(([section, options]) =>
    Object.entries(options).map(([key, value]) => `[${section}] ${key}=${value}`),
  )
  .join(', ');
console.log(
  `baremetal bench: microversion ${VERSION}, ${CLIENTS} client(s), list and show in ${ROUNDS} rounds of ${SAMPLES} samples (${WARMUP} warm-up, then ${ROUND_WARMUP} per round), patch and port create ${WARMUP} warm-up + ${WRITE_SAMPLES} samples, ${NODES} nodes listed, ${PROVISION_NODES} provisioned after ${PROVISION_WARMUP} untimed (${IN_FLIGHT} in flight, poll every ${POLL_MS} ms), load ${loadAverage()}`,
);
console.log(
  `both services: ${BACKEND === 'sqlite' ? 'SQLite' : `${BACKEND} (scratch database each)`}, ${BENCH_CONDUCTORS} conductors, RPC over HTTP (Baton http, real json-rpc), fake-hardware, noauth, ${settings}; the rest at the real defaults`,
);
const missing = realIronicMissing();
const sides: Side[] = [];
try {
  sides.push(await prepare(startBatonBaremetal));
  if (COMPARE_REAL && !missing) sides.push(await prepare(startRealBaremetal));
  else console.log(`the real Ironic is not measured${missing ? `: ${missing}` : ' (REAL=0)'}`);
  const reads = await interleave(ROUNDS, sides, readRound);
  const p50s = printReadRounds(
    sides.map((side) => side.served.name),
    reads,
  );
  console.log('');
  const figures: Figures[] = [];
  for (const side of sides) figures.push(await writeFigures(side));
  const [baton, real] = figures;
  if (baton !== undefined && real !== undefined) {
    const readRatios = p50s.map((p50) => p50.ratio?.median ?? 0);
    const met = compare(baton, real, readRatios);
    console.log(
      `list detail and show (p50, median of per-round ratios): ${readRatios.map((r) => `${r.toFixed(1)}x`).join(', ')}`,
    );
    console.log(`\ntarget ${TARGET_RATIO}x on every figure: ${met ? 'met' : 'NOT met'}`);
  }
} finally {
  for (const side of sides) await side.close();
}
console.log(`load average at the end: ${loadAverage()}`);
