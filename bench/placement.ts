/**
 * Placement under load, over HTTP, against a server running in its own process
 * (`baton placement serve`), for PostgreSQL and SQLite (MariaDB with BACKENDS=mysql).
 *
 * Writes: CLIENTS concurrent clients create, replace and delete consumers' allocations with
 * consumer generations (microversion 1.39); a consumer whose allocations are emptied is
 * deleted. Each client owns its consumers, so what it believes live is exact; one write in
 * ten carries a stale generation (as a client that lost a race would), gets 409, and the
 * client re-reads the consumer and checks the generation it finds. Prints writes/s,
 * p50/p99 and the 409 count.
 * Reads: the same clients read providers' inventories and usages; prints reads/s, p50/p99.
 * At the end every provider's usages must equal the allocations the clients believe live
 * (the last successful write of each consumer, by generation); a mismatch fails the run.
 *
 * Targets (PostgreSQL, 8 clients, 2 cores): ≥ 350 writes/s and ≥ 3,000 reads/s, that is 10x
 * and 23x the real Placement 8.0.0 on this machine, which is also measured in the same run with
 * the same clients when it is installed (see real-placement.ts; REAL=0 skips it).
 *
 * PG_SOCKET=/var/run/postgresql makes the server use PostgreSQL's Unix socket.
 * SERVER_ARGS='--workers 2' passes flags to the server; SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the server process.
 * Each phase also prints CPU milliseconds per request of the server process, of the database's
 * PostgreSQL backends and of this client (Linux /proc): they move far less than requests/s when
 * other work shares the machine, so they are the figures to compare changes by.
 * SECONDS=10 CLIENTS=8 PROVIDERS=20 CONSUMERS=400 BACKENDS=postgresql,sqlite npm run bench:placement
 */
import { randomUUID } from 'node:crypto';
import { createScratchDatabase } from '../test/db/support/backends.ts';
import {
  expectStatus as expect,
  PlacementHttp as Http,
  percentile,
} from './support/placement-http.ts';
import { CpuMeter, type CpuSpent, loadAverage } from './support/process-cpu.ts';
import { realPlacementMissing } from './support/real-placement.ts';
import { type Served, startBaton, startReal } from './support/served-placement.ts';

const SECONDS = Number(process.env.SECONDS ?? 10);
const CLIENTS = Number(process.env.CLIENTS ?? 8);
const PROVIDERS = Number(process.env.PROVIDERS ?? 20);
const CONSUMERS = Number(process.env.CONSUMERS ?? 400);
type Backend = 'sqlite' | 'postgresql' | 'mysql';
const BACKENDS = (process.env.BACKENDS ?? 'postgresql,sqlite').split(',') as Backend[];
const TARGET_WRITES = 350;
const TARGET_READS = 3_000;
/**
 * The same targets as ratios: the issue set them against the real Placement 8.0.0 measured on
 * this machine (about 35 writes/s and 130 reads/s). This VM's speed moves by 2x from day to
 * day, so the real service is measured in the same run when it is installed
 * (bench/support/real-placement.ts; REAL=0 skips it, REAL_PROCESSES sets its uWSGI processes).
 */
const WRITE_RATIO = TARGET_WRITES / 35;
const READ_RATIO = Math.round(TARGET_READS / 130);
const COMPARE_REAL = process.env.REAL !== '0';
const REAL_PROCESSES = Number(process.env.REAL_PROCESSES ?? 2);

interface PhaseResult {
  operations: number;
  perSecond: number;
  p50: number;
  p99: number;
  cpu: CpuSpent & { clientMs: number };
}

/** Measures the CPU a phase costs: the server's, the database backends', this client's. */
function phaseMeter(meter: CpuMeter) {
  meter.start();
  const client = process.cpuUsage();
  return () => {
    const spent = process.cpuUsage(client);
    return { ...meter.stop(), clientMs: (spent.user + spent.system) / 1000 };
  };
}

function summarize(
  latencies: number[],
  elapsedMs: number,
  cpu: CpuSpent & { clientMs: number },
): PhaseResult {
  latencies.sort((a, b) => a - b);
  return {
    operations: latencies.length,
    perSecond: (latencies.length * 1000) / elapsedMs,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    cpu,
  };
}

/** CPU ms per request: server / database / client. */
function cpuPerRequest(result: PhaseResult): string {
  const per = (ms: number | undefined) =>
    ms === undefined ? 'n/a' : (ms / Math.max(1, result.operations)).toFixed(2);
  const { serverMs, databaseMs, clientMs } = result.cpu;
  return `CPU ms/request: server ${per(serverMs)}, database ${per(databaseMs)}, client ${per(clientMs)}`;
}

type Resources = Record<string, number>;

const CLASSES = ['VCPU', 'MEMORY_MB', 'DISK_GB'] as const;

async function setUp(http: Http): Promise<string[]> {
  const providers: string[] = [];
  for (let i = 0; i < PROVIDERS; i++) {
    const uuid = randomUUID();
    expect(
      await http.call('POST', '/resource_providers', { name: `bench-${uuid}`, uuid }),
      [200],
      'create provider',
    );
    expect(
      await http.call('PUT', `/resource_providers/${uuid}/inventories`, {
        resource_provider_generation: 0,
        inventories: {
          VCPU: { total: 1_000_000 },
          MEMORY_MB: { total: 100_000_000 },
          DISK_GB: { total: 10_000_000 },
        },
      }),
      [200],
      'set inventory',
    );
    providers.push(uuid);
  }
  return providers;
}

function randomAllocations(providers: string[]): Record<string, { resources: Resources }> {
  const first = providers[Math.floor(Math.random() * providers.length)] as string;
  const second = providers[Math.floor(Math.random() * providers.length)] as string;
  const out: Record<string, { resources: Resources }> = {
    [first]: { resources: { VCPU: 1 + Math.floor(Math.random() * 4), MEMORY_MB: 512 } },
  };
  if (second !== first)
    out[second] = { resources: { DISK_GB: 1 + Math.floor(Math.random() * 20) } };
  return out;
}

async function writePhase(http: Http, providers: string[], meter: CpuMeter) {
  const latencies: number[] = [];
  let conflicts = 0;
  const measured = phaseMeter(meter);
  const started = performance.now();
  const end = started + SECONDS * 1000;
  /** Every client owns its consumers, so what it believes live is exact. */
  const owned = Array.from({ length: CLIENTS }, () =>
    Array.from({ length: Math.ceil(CONSUMERS / CLIENTS) }, () => randomUUID()),
  );
  const beliefs = new Map<
    string,
    { generation: number | null; allocations: Record<string, Resources> }
  >();

  async function client(index: number): Promise<void> {
    const mine = owned[index] as string[];
    while (performance.now() < end) {
      const consumer = mine[Math.floor(Math.random() * mine.length)] as string;
      const belief = beliefs.get(consumer) ?? { generation: null, allocations: {} };
      const live = Object.keys(belief.allocations).length > 0;
      const deleting = live && Math.random() < 0.3;
      const allocations = deleting ? {} : randomAllocations(providers);
      // One write in ten sends a stale generation, as a client racing another would.
      const stale = live && Math.random() < 0.1;
      const sent = stale ? (belief.generation as number) - 1 : belief.generation;
      const t0 = performance.now();
      const reply = await http.call('PUT', `/allocations/${consumer}`, {
        allocations,
        consumer_generation: sent,
        project_id: 'bench-project',
        user_id: 'bench-user',
        consumer_type: 'INSTANCE',
      });
      latencies.push(performance.now() - t0);
      if (reply.status === 204 && !stale) {
        const stored: Record<string, Resources> = {};
        for (const [rp, entry] of Object.entries(allocations)) stored[rp] = entry.resources;
        // A consumer whose allocations become empty is removed: it starts again from null.
        beliefs.set(consumer, {
          generation: deleting ? null : (belief.generation ?? 0) + 1,
          allocations: stored,
        });
      } else if (reply.status === 409) {
        conflicts++;
        // Re-read, as a real client must; the server's generation must be the one we know.
        const fresh = expect(await http.call('GET', `/allocations/${consumer}`), [200], 're-read');
        const generation = fresh.body.consumer_generation ?? null;
        if (generation !== belief.generation) {
          throw new Error(
            `consumer ${consumer}: generation ${generation}, expected ${belief.generation}`,
          );
        }
      } else {
        throw new Error(`PUT allocations: HTTP ${reply.status} ${JSON.stringify(reply.body)}`);
      }
    }
  }

  await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));
  const elapsed = performance.now() - started;
  const result = summarize(latencies, elapsed, measured());
  return { ...result, conflicts, beliefs };
}

async function readPhase(http: Http, providers: string[], meter: CpuMeter) {
  const latencies: number[] = [];
  const measured = phaseMeter(meter);
  const started = performance.now();
  const end = started + SECONDS * 1000;
  async function client(index: number): Promise<void> {
    let i = index;
    while (performance.now() < end) {
      const provider = providers[i % providers.length] as string;
      const path =
        i % 2 === 0
          ? `/resource_providers/${provider}/inventories`
          : `/resource_providers/${provider}/usages`;
      const t0 = performance.now();
      expect(await http.call('GET', path), [200], 'read');
      latencies.push(performance.now() - t0);
      i++;
    }
  }
  await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(i)));
  const elapsed = performance.now() - started;
  return summarize(latencies, elapsed, measured());
}

/** Every provider's usages must equal the sum of the allocations the clients believe live. */
async function verify(
  http: Http,
  providers: string[],
  beliefs: Map<string, { allocations: Record<string, Resources> }>,
): Promise<string[]> {
  const expected = new Map<string, Resources>();
  for (const { allocations } of beliefs.values()) {
    for (const [rp, resources] of Object.entries(allocations)) {
      const sums = expected.get(rp) ?? {};
      for (const [rc, n] of Object.entries(resources)) sums[rc] = (sums[rc] ?? 0) + n;
      expected.set(rp, sums);
    }
  }
  const problems: string[] = [];
  for (const provider of providers) {
    const reply = expect(
      await http.call('GET', `/resource_providers/${provider}/usages`),
      [200],
      'usages',
    );
    const want = expected.get(provider) ?? {};
    for (const rc of CLASSES) {
      const have = reply.body.usages[rc] ?? 0;
      if (have !== (want[rc] ?? 0)) {
        problems.push(`${provider} ${rc}: usages ${have}, believed allocations ${want[rc] ?? 0}`);
      }
    }
  }
  return problems;
}

interface ServerResult {
  writes: PhaseResult;
  reads: PhaseResult;
  problems: string[];
}

/** Both phases and the consistency check against one server, on a fresh database. */
async function runServer(
  backend: Backend,
  start: (url: string) => Promise<Served>,
): Promise<ServerResult> {
  const scratch = await createScratchDatabase(backend);
  const served = await start(scratch.url);
  const http = new Http(served.port, { sockets: CLIENTS * 2 });
  const database = backend === 'postgresql' ? new URL(scratch.url).pathname.slice(1) : undefined;
  const meter = new CpuMeter(served.pid, database);
  try {
    const providers = await setUp(http);
    const writes = await writePhase(http, providers, meter);
    const reads = await readPhase(http, providers, meter);
    const problems = await verify(http, providers, writes.beliefs);
    const f = (n: number) => n.toFixed(1);
    const label = `${backend} ${served.name}`.padEnd(22);
    const pad = ''.padEnd(22);
    console.log(
      `${label} writes ${f(writes.perSecond)}/s (p50 ${f(writes.p50)} ms, p99 ${f(writes.p99)} ms, ${writes.operations} PUTs, ${writes.conflicts} 409s re-read)`,
    );
    console.log(`${pad}        ${cpuPerRequest(writes)}`);
    console.log(
      `${pad} reads  ${f(reads.perSecond)}/s (p50 ${f(reads.p50)} ms, p99 ${f(reads.p99)} ms, ${reads.operations} GETs)`,
    );
    console.log(`${pad}        ${cpuPerRequest(reads)}`);
    console.log(
      `${pad} consistency: ${problems.length === 0 ? 'usages equal live allocations' : `${problems.length} MISMATCHES`}`,
    );
    for (const problem of problems.slice(0, 10)) console.log(`  ${problem}`);
    return { writes, reads, problems };
  } finally {
    http.close();
    await served.stop();
    await scratch.drop();
  }
}

const verdict = (met: boolean) => (met ? 'met' : 'NOT met');

async function runBackend(backend: Backend): Promise<boolean> {
  const baton = await runServer(backend, startBaton);
  if (backend !== 'postgresql') return baton.problems.length === 0;
  const { writes, reads } = baton;
  const pad = ''.padEnd(22);
  console.log(
    `${pad} targets: writes ≥ ${TARGET_WRITES}/s ${verdict(writes.perSecond >= TARGET_WRITES)}, reads ≥ ${TARGET_READS}/s ${verdict(reads.perSecond >= TARGET_READS)}`,
  );
  const missing = realPlacementMissing();
  if (!COMPARE_REAL || missing) {
    console.log(
      `${pad} the real Placement is not measured${missing ? `: ${missing}` : ' (REAL=0)'}`,
    );
    return baton.problems.length === 0;
  }
  const real = await runServer(backend, (url) => startReal(url, REAL_PROCESSES));
  const writeRatio = writes.perSecond / real.writes.perSecond;
  const readRatio = reads.perSecond / real.reads.perSecond;
  console.log(
    `${pad} against the real one in this run: writes ${writeRatio.toFixed(1)}x (target ≥ ${WRITE_RATIO}x: ${verdict(writeRatio >= WRITE_RATIO)}), reads ${readRatio.toFixed(1)}x (target ≥ ${READ_RATIO}x: ${verdict(readRatio >= READ_RATIO)})`,
  );
  return baton.problems.length === 0 && real.problems.length === 0;
}

console.log(
  `placement bench: ${CLIENTS} clients, ${PROVIDERS} providers, ${CONSUMERS} consumers, ${SECONDS} s per phase, microversion 1.39, load ${loadAverage()}`,
);
let allGood = true;
for (const backend of BACKENDS) {
  allGood = (await runBackend(backend)) && allGood;
}
console.log(`load average at the end: ${loadAverage()}`);
process.exitCode = allGood ? 0 : 1;
