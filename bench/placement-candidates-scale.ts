/**
 * GET /allocation_candidates over 1,000 and then 10,000 nested provider trees on PostgreSQL,
 * Baton's `placement serve` and the real Placement 8.0.0 side by side in the same run, on the
 * same data: req/s, p50 and p99 of each, and Baton's req/s over the real one's.
 *
 * A file of its own rather than a size of placement-candidates.ts: that bench builds its flat
 * providers through the API and holds targets for them; here the trees are loaded by SQL
 * (bench/support/nested-trees.ts), because 40,000 providers through the real service's API
 * at ~70 writes/s would take most of an hour. Both services first make their own schema and
 * the trait through the API; the same rows then go into both databases, and before anything
 * is timed each service must show through HTTP the provider count, the usage totals and a
 * sample of providers (generation, root, parent, usages, traits) the load implies.
 *
 * Trees: a compute node root (DISK_GB), two NUMA children (VCPU, MEMORY_MB), a NIC child
 * (SRIOV_NET_VF, trait CUSTOM_PHYSNET_BENCH on every other tree); every third tree partly
 * used, a fifth full (disk or memory). Queries (microversion 1.39; nested candidates need
 * 1.29+), both `limit=1000` as Nova's default max_placement_results:
 *   compute  resources=VCPU:1,MEMORY_MB:1024,DISK_GB:10
 *   trait    resources=VCPU:1,MEMORY_MB:1024,DISK_GB:10,SRIOV_NET_VF:1&required=CUSTOM_PHYSNET_BENCH
 * A fitting tree offers 4 candidates (VCPU and memory each from either NUMA node). Every
 * answer is checked: exactly the candidates the trees imply (or `limit`), and the summaries of
 * every provider of the trees used, a count between the fewest trees that hold `limit`
 * candidates and one tree per candidate, since which candidates are kept follows the real
 * service's string-hash set order, which Baton does not follow (docs/placement.md): at 10,000
 * trees Baton kept 1,000 candidates from 1,000 trees, the real one from 910-965 in three runs
 * (the printed range of summaries per answer shows it). Every FULL_CHECK_EVERY-th answer is parsed whole and its summaries must be exactly
 * the providers of the trees its candidates use. Once per size each service also answers the
 * query without a limit, checked in full. A wrong answer or a failed check exits with 1.
 *
 * Processes: the real service runs REAL_PROCESSES uWSGI workers (default 2, one thread each,
 * as placement-candidates.ts); Baton runs BATON_WORKERS `--workers` (default: the same number)
 * on the 2-core machine, its request log at `warn` (the real one's is off: --disable-logging).
 * Each request opens a connection of its own (KEEP_ALIVE below). CLIENTS concurrent clients
 * (default 8) send the same query for SECONDS seconds per service, Baton first at one size and
 * the real one first at the next.
 *
 * SECONDS=20 CLIENTS=8 SIZES=1000,10000 REAL_PROCESSES=2 BATON_WORKERS=2 FULL_CHECK_EVERY=25 \
 *   npm run bench:placement-candidates-scale
 */
import { loadavg } from 'node:os';
import { openDatabase } from '../src/db/index.ts';
import { createScratchDatabase } from '../test/db/support/backends.ts';
import { candidateCounts } from './support/candidate-counts.ts';
import { closedLoop } from './support/closed-loop.ts';
import {
  BENCH_PROJECT,
  BENCH_TRAIT,
  expectedAnswer,
  loadTrees,
  PROVIDERS_PER_TREE,
  ROLES,
  rootsByProvider,
  summariesMismatch,
  tree,
  usage,
} from './support/nested-trees.ts';
import { expectStatus, PlacementHttp } from './support/placement-http.ts';
import { realPlacementMissing } from './support/real-placement.ts';
import { type Served, startBaton, startReal } from './support/served-placement.ts';

const SECONDS = Number(process.env.SECONDS ?? 20);
const CLIENTS = Number(process.env.CLIENTS ?? 8);
const SIZES = (process.env.SIZES ?? '1000,10000').split(',').map(Number);
const FULL_CHECK_EVERY = Math.max(1, Number(process.env.FULL_CHECK_EVERY ?? 25));
const REAL_PROCESSES = Number(process.env.REAL_PROCESSES ?? 2);
const BATON_WORKERS = Number(process.env.BATON_WORKERS ?? REAL_PROCESSES);
const LIMIT = 1000;
/**
 * A connection per request by default, for both services: behind keep-alive connections the
 * real service's single-threaded uWSGI workers each hold one client's connection while the
 * others wait seconds (docs/placement.md: its p99 of 7-15 s in bench:placement). Connecting
 * costs well under a millisecond here, against requests of tens or hundreds. KEEP_ALIVE=1
 * keeps connections.
 */
const KEEP_ALIVE = process.env.KEEP_ALIVE === '1';
/** REAL=0 leaves the real service out: Baton alone, e.g. to profile it (SERVER_NODE_ARGS). */
const WITH_REAL = process.env.REAL !== '0';

interface Query {
  readonly name: string;
  readonly resources: Readonly<Record<string, number>>;
  readonly required: readonly string[];
}

const QUERIES: readonly Query[] = [
  { name: 'compute', resources: { VCPU: 1, MEMORY_MB: 1024, DISK_GB: 10 }, required: [] },
  {
    name: 'trait',
    resources: { VCPU: 1, MEMORY_MB: 1024, DISK_GB: 10, SRIOV_NET_VF: 1 },
    required: [BENCH_TRAIT],
  },
];

function path(query: Query, limit?: number): string {
  const resources = Object.entries(query.resources)
    .map(([rc, amount]) => `${rc}:${amount}`)
    .join(',');
  const required = query.required.length > 0 ? `&required=${query.required.join(',')}` : '';
  return `/allocation_candidates?resources=${resources}${required}${limit ? `&limit=${limit}` : ''}`;
}

interface Contender {
  readonly served: Served;
  readonly http: PlacementHttp;
  readonly dbUrl: string;
  readonly drop: () => Promise<void>;
}

async function contender(start: (url: string) => Promise<Served>): Promise<Contender> {
  const scratch = await createScratchDatabase('postgresql');
  try {
    const served = await start(scratch.url);
    const http = new PlacementHttp(served.port, { sockets: CLIENTS * 2, keepAlive: KEEP_ALIVE });
    expectStatus(await http.call('PUT', `/traits/${BENCH_TRAIT}`), [201, 204], 'trait');
    return { served, http, dbUrl: scratch.url, drop: scratch.drop };
  } catch (error) {
    await scratch.drop();
    throw error;
  }
}

async function load(target: Contender, from: number, to: number): Promise<void> {
  const db = await openDatabase(target.dbUrl, { poolSize: 1 });
  try {
    await loadTrees(db.kysely, from, to);
  } finally {
    await db.close();
  }
}

/**
 * What the service shows through HTTP of trees 0..trees-1: every provider, the project's
 * usage totals, and generation, root, parent, usages and traits of a sample of trees. Returns
 * the mismatches found.
 */
async function verify(target: Contender, trees: number): Promise<string[]> {
  const wrong: string[] = [];
  const { http } = target;
  const listed = expectStatus(await http.call('GET', '/resource_providers'), [200], 'list');
  const count = listed.body.resource_providers.length;
  if (count !== trees * PROVIDERS_PER_TREE) wrong.push(`${count} providers listed`);

  const totals: Record<string, number> = {};
  for (let i = 0; i < trees; i++) {
    const t = tree(i);
    for (const role of ROLES) {
      for (const [rc, used] of Object.entries(usage(t, role)))
        totals[rc] = (totals[rc] ?? 0) + used;
    }
  }
  // Asked at 1.37: from 1.38 the real 8.0.0 answers a project's usages on PostgreSQL with a
  // 500 (a GroupingError, docs/placement.md).
  const before138 = new PlacementHttp(target.served.port, { version: 'placement 1.37' });
  const project = await before138.call('GET', `/usages?project_id=${BENCH_PROJECT}`);
  before138.close();
  const shown = project.body?.usages ?? {};
  for (const [rc, used] of Object.entries(totals)) {
    if (used > 0 && shown[rc] !== used) {
      wrong.push(
        `project usage of ${rc} not ${used}: HTTP ${project.status} ${JSON.stringify(project.body)}`,
      );
    }
  }

  const sample = new Set([0, 1, 2, 3, 5, 15, 30, Math.floor(trees / 2), trees - 1]);
  for (const i of sample) {
    if (i >= trees) continue;
    const t = tree(i);
    const root = t.providers[0]?.uuid;
    for (const p of t.providers) {
      const got = (await http.call('GET', `/resource_providers/${p.uuid}`)).body ?? {};
      const parent = p.role === 'root' ? null : root;
      if (
        got.generation !== p.generation ||
        got.root_provider_uuid !== root ||
        got.parent_provider_uuid !== parent
      ) {
        wrong.push(`tree ${i} ${p.role}: ${JSON.stringify(got).slice(0, 200)}`);
      }
      const usages = (await http.call('GET', `/resource_providers/${p.uuid}/usages`)).body?.usages;
      if (JSON.stringify(usages) !== JSON.stringify(usage(t, p.role))) {
        wrong.push(`tree ${i} ${p.role} usages ${JSON.stringify(usages)}`);
      }
      const traits = (await http.call('GET', `/resource_providers/${p.uuid}/traits`)).body?.traits;
      if (JSON.stringify(traits) !== JSON.stringify(p.traits)) {
        wrong.push(`tree ${i} ${p.role} traits ${JSON.stringify(traits)}`);
      }
    }
  }
  return wrong;
}

/** Whether an answer is right: status, counts, and for a parsed one its summaries' trees. */
function answerMismatch(
  status: number,
  found: ReturnType<typeof candidateCounts>,
  expected: ReturnType<typeof expectedAnswer>,
  roots: ReadonlyMap<string, string>,
): string | undefined {
  const { min, max } = expected.summaries;
  if (status !== 200) return `HTTP ${status}`;
  if (
    found.requests !== expected.requests ||
    found.summaries < min ||
    found.summaries > max ||
    found.summaries % PROVIDERS_PER_TREE !== 0
  ) {
    return `${found.requests} candidates and ${found.summaries} summaries, not ${expected.requests} and ${min}-${max}`;
  }
  return found.body === undefined ? undefined : summariesMismatch(found.body, roots);
}

/** One answer without a limit, counted in full against the trees. */
async function checkWhole(
  target: Contender,
  query: Query,
  trees: number,
  roots: ReadonlyMap<string, string>,
): Promise<string[]> {
  const expected = expectedAnswer(trees, query.resources, query.required);
  const t0 = performance.now();
  const reply = await target.http.callText('GET', path(query));
  const ms = performance.now() - t0;
  const found = candidateCounts(reply.text, true);
  console.log(
    `  ${target.served.name.padEnd(10)} ${query.name} without limit: ${found.requests} candidates, ${found.summaries} summaries in ${ms.toFixed(0)} ms`,
  );
  const mismatch = answerMismatch(reply.status, found, expected, roots);
  return mismatch === undefined ? [] : [`${query.name} without limit: ${mismatch}`];
}

interface Measured {
  readonly requests: number;
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly wrong: number;
  /** The fewest and most summaries an answer held. */
  readonly summaries: readonly [number, number];
}

async function measure(
  http: PlacementHttp,
  query: Query,
  trees: number,
  roots: ReadonlyMap<string, string>,
): Promise<Measured> {
  const expected = expectedAnswer(trees, query.resources, query.required, LIMIT);
  const url = path(query, LIMIT);
  let wrong = 0;
  let answers = 0;
  const summaries: [number, number] = [Number.POSITIVE_INFINITY, 0];
  const figures = await closedLoop(
    CLIENTS,
    SECONDS,
    () => http.callText('GET', url),
    (reply) => {
      const found = candidateCounts(reply.text, answers++ % FULL_CHECK_EVERY === 0);
      const mismatch = answerMismatch(reply.status, found, expected, roots);
      summaries[0] = Math.min(summaries[0], found.summaries);
      summaries[1] = Math.max(summaries[1], found.summaries);
      if (mismatch !== undefined && wrong++ === 0) console.log(`  first wrong answer: ${mismatch}`);
    },
  );
  return { ...figures, wrong, summaries };
}

const f1 = (n: number) => n.toFixed(1);

async function main(): Promise<boolean> {
  const missing = WITH_REAL ? realPlacementMissing() : undefined;
  if (missing) {
    console.log(`the real Placement is needed for this bench: ${missing}`);
    return false;
  }
  console.log(
    `allocation candidates over nested trees, PostgreSQL: ${CLIENTS} clients, ${SECONDS} s per service and query, limit ${LIMIT}; baton --workers ${BATON_WORKERS}, real 8.0.0 uWSGI --processes ${REAL_PROCESSES}`,
  );
  const baton = await contender((url) =>
    startBaton(url, { args: ['--workers', String(BATON_WORKERS), '--log-level', 'warn'] }),
  );
  let real: Contender | undefined;
  let ok = true;
  try {
    if (WITH_REAL) real = await contender((url) => startReal(url, REAL_PROCESSES));
    let loaded = 0;
    for (const [round, trees] of SIZES.entries()) {
      const t0 = performance.now();
      await Promise.all([baton, real].map((t) => (t ? load(t, loaded, trees) : undefined)));
      loaded = trees;
      console.log(
        `${trees} trees (${trees * PROVIDERS_PER_TREE} providers) loaded by SQL in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );
      const contenders = real ? (round % 2 === 0 ? [baton, real] : [real, baton]) : [baton];
      const roots = rootsByProvider(trees);
      for (const target of contenders) {
        const wrong = await verify(target, trees);
        for (const query of QUERIES) {
          wrong.push(...(await checkWhole(target, query, trees, roots)));
        }
        for (const w of wrong) console.log(`  ${target.served.name} WRONG: ${w}`);
        if (wrong.length > 0) ok = false;
      }
      for (const query of QUERIES) {
        const expected = expectedAnswer(trees, query.resources, query.required, LIMIT);
        const results = new Map<Contender, Measured>();
        for (const target of contenders) {
          // One untimed request first so the timed ones do not pay for cold caches.
          await target.http.callText('GET', path(query, LIMIT));
          const result = await measure(target.http, query, trees, roots);
          results.set(target, result);
          if (result.wrong > 0) ok = false;
          console.log(
            `  ${target.served.name.padEnd(10)} ${String(trees).padStart(5)} trees ${query.name.padEnd(7)}: ${f1(result.perSecond).padStart(7)} req/s, p50 ${f1(result.p50)} ms, p99 ${f1(result.p99)} ms (${result.requests} requests, ${expected.requests} candidates each, ${result.summaries.join('-')} summaries (${expected.summaries.min}-${expected.summaries.max} allowed), ${result.wrong} wrong answers)`,
          );
        }
        const mine = results.get(baton) as Measured;
        const theirs = real && results.get(real);
        if (!theirs) continue;
        console.log(
          `  ${''.padEnd(10)} ${String(trees).padStart(5)} trees ${query.name.padEnd(7)}: baton/real ${f1(mine.perSecond / theirs.perSecond)}x req/s, p50 ${f1(theirs.p50 / mine.p50)}x lower`,
        );
      }
      console.log(
        `  load average: ${loadavg()
          .map((n) => n.toFixed(2))
          .join(' ')}`,
      );
    }
  } finally {
    for (const target of [baton, real]) {
      if (!target) continue;
      target.http.close();
      await target.served.stop();
      await target.drop();
    }
  }
  return ok;
}

process.exitCode = (await main()) ? 0 : 1;
