/**
 * GET /allocation_candidates under load, over HTTP, against `baton placement serve` in its
 * own process: compute nodes with VCPU / MEMORY_MB / DISK_GB inventory, every third one
 * partly used (still fits), every tenth one with its memory nearly gone (does not fit). For
 * 100 and then 1,000 providers, CLIENTS concurrent clients ask
 * `resources=VCPU:1,MEMORY_MB:1024,DISK_GB:10` for SECONDS seconds; every answer must hold
 * exactly the candidates the setup implies. Prints req/s and p50/p99.
 *
 * Targets (PostgreSQL, 8 clients, 2 cores): ≥ 300 req/s at 100 providers; p99 < 100 ms at
 * 1,000 providers; at 1,000 providers at least 10x the req/s of the real Placement 8.0.0,
 * measured in the same run with the same load when it is installed
 * (bench/support/real-placement.ts; 2 uWSGI processes, REAL_PROCESSES to change; REAL=0 skips).
 *
 * Every answer's candidate and summary counts are checked (counted in the text; every
 * FULL_CHECK_EVERY-th answer, default 25, is also parsed whole and must agree).
 *
 * SECONDS=10 CLIENTS=8 SIZES=100,1000 BACKENDS=postgresql FULL_CHECK_EVERY=25 \
 *   npm run bench:placement-candidates
 */
import { randomUUID } from 'node:crypto';
import { createScratchDatabase } from '../test/db/support/backends.ts';
import { candidateCounts } from './support/candidate-counts.ts';
import { closedLoop } from './support/closed-loop.ts';
import { expectStatus, PlacementHttp } from './support/placement-http.ts';
import { realPlacementMissing } from './support/real-placement.ts';
import { type Served, startBaton, startReal } from './support/served-placement.ts';

const SECONDS = Number(process.env.SECONDS ?? 10);
const CLIENTS = Number(process.env.CLIENTS ?? 8);
const SIZES = (process.env.SIZES ?? '100,1000').split(',').map(Number);
const BACKENDS = (process.env.BACKENDS ?? 'postgresql').split(',') as Backend[];
const QUERY = '/allocation_candidates?resources=VCPU:1,MEMORY_MB:1024,DISK_GB:10';
const FULL_CHECK_EVERY = Math.max(1, Number(process.env.FULL_CHECK_EVERY ?? 25));
const TARGET_RATE_100 = 300;
const TARGET_P99_1000 = 100;
const TARGET_RATIO_1000 = 10;
/** REAL=0 skips the real Placement (measured on PostgreSQL when it is installed). */
const COMPARE_REAL = process.env.REAL !== '0';
const REAL_PROCESSES = Number(process.env.REAL_PROCESSES ?? 2);
type Backend = 'sqlite' | 'postgresql' | 'mysql';

/** Runs `work` over `items` with `width` in flight. */
async function inParallel<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

/** Adds compute nodes numbered from..to-1; returns how many of them fit the query. */
async function addProviders(http: PlacementHttp, from: number, to: number): Promise<number> {
  const indexes = Array.from({ length: to - from }, (_, i) => from + i);
  let fitting = 0;
  await inParallel(indexes, 8, async (i) => {
    const uuid = randomUUID();
    expectStatus(
      await http.call('POST', '/resource_providers', { name: `cn-${i}`, uuid }),
      [200],
      'create provider',
    );
    expectStatus(
      await http.call('PUT', `/resource_providers/${uuid}/inventories`, {
        resource_provider_generation: 0,
        inventories: {
          VCPU: { total: 16, allocation_ratio: 4 },
          MEMORY_MB: { total: 32768 },
          DISK_GB: { total: 500 },
        },
      }),
      [200],
      'inventory',
    );
    const allocate = async (resources: Record<string, number>) =>
      expectStatus(
        await http.call('PUT', `/allocations/${randomUUID()}`, {
          allocations: { [uuid]: { resources } },
          project_id: randomUUID(),
          user_id: randomUUID(),
          consumer_generation: null,
          consumer_type: 'INSTANCE',
        }),
        [204],
        'allocate',
      );
    if (i % 3 === 0) await allocate({ VCPU: 4, MEMORY_MB: 8192, DISK_GB: 100 });
    if (i % 10 === 0) await allocate({ MEMORY_MB: i % 3 === 0 ? 24000 : 32000 });
    else fitting++;
  });
  return fitting;
}

async function measure(http: PlacementHttp, expected: number) {
  let wrong = 0;
  let answers = 0;
  const figures = await closedLoop(
    CLIENTS,
    SECONDS,
    () => http.callText('GET', QUERY),
    (reply) => {
      const found = candidateCounts(reply.text, answers++ % FULL_CHECK_EVERY === 0);
      if (reply.status !== 200 || found.requests !== expected || found.summaries !== expected) {
        wrong++;
      }
    },
  );
  return { ...figures, wrong };
}

/** Runs the sizes against one server on a fresh database; returns req/s, p99 by size. */
async function runServer(
  backend: Backend,
  start: (url: string) => Promise<Served>,
): Promise<Map<number, { perSecond: number; p99: number; wrong: number }>> {
  const scratch = await createScratchDatabase(backend);
  const served = await start(scratch.url);
  const http = new PlacementHttp(served.port, { sockets: CLIENTS * 2 });
  const results = new Map<number, { perSecond: number; p99: number; wrong: number }>();
  try {
    let providers = 0;
    let fitting = 0;
    for (const size of SIZES) {
      fitting += await addProviders(http, providers, size);
      providers = size;
      // One warm-up pass so the first timed requests do not pay for cold caches.
      await http.call('GET', QUERY);
      const result = await measure(http, fitting);
      const f = (n: number) => n.toFixed(1);
      console.log(
        `${backend.padEnd(10)} ${served.name.padEnd(10)} ${String(size).padStart(5)} providers: ${f(result.perSecond)} req/s, p50 ${f(result.p50)} ms, p99 ${f(result.p99)} ms (${result.requests} requests, ${fitting} candidates each, ${result.wrong} wrong answers)`,
      );
      results.set(size, result);
    }
  } finally {
    http.close();
    await served.stop();
    await scratch.drop();
  }
  return results;
}

function verdict(what: string, met: boolean): boolean {
  console.log(`${''.padEnd(10)} target ${what}: ${met ? 'met' : 'NOT met'}`);
  return met;
}

async function runBackend(backend: Backend): Promise<boolean> {
  const baton = await runServer(backend, startBaton);
  let ok = [...baton.values()].every((r) => r.wrong === 0);
  if (backend !== 'postgresql') return ok;
  const at100 = baton.get(100);
  const at1000 = baton.get(1000);
  if (at100)
    ok = verdict(`≥ ${TARGET_RATE_100} req/s at 100`, at100.perSecond >= TARGET_RATE_100) && ok;
  if (at1000)
    ok = verdict(`p99 < ${TARGET_P99_1000} ms at 1,000`, at1000.p99 < TARGET_P99_1000) && ok;
  const missing = realPlacementMissing();
  if (!COMPARE_REAL || missing) {
    console.log(
      `${''.padEnd(10)} the real Placement is not measured${missing ? `: ${missing}` : ' (REAL=0)'}`,
    );
    return ok;
  }
  const real = await runServer(backend, (url) => startReal(url, REAL_PROCESSES));
  for (const [size, mine] of baton) {
    const theirs = real.get(size);
    if (!theirs) continue;
    const ratio = mine.perSecond / theirs.perSecond;
    console.log(`${''.padEnd(10)} ${size} providers: ${ratio.toFixed(1)}x the real one's req/s`);
    if (size === 1000)
      ok =
        verdict(`≥ ${TARGET_RATIO_1000}x the real one at 1,000`, ratio >= TARGET_RATIO_1000) && ok;
  }
  return ok;
}

console.log(`allocation candidates bench: ${CLIENTS} clients, ${SECONDS} s per size, ${QUERY}`);
let allGood = true;
for (const backend of BACKENDS) allGood = (await runBackend(backend)) && allGood;
process.exitCode = allGood ? 0 : 1;
