/**
 * How close Baton's Placement is to the floor of its own stack, on PostgreSQL, with CLIENTS
 * concurrent clients, in ROUNDS interleaved rounds of ROUND_SECONDS (median and min–max):
 *
 * - usage reads: `GET /resource_providers/{uuid}/usages` on `baton placement serve`, against
 *   (a) the same SQL the handler runs (providerUsagesQuery, compiled once) sent through the same
 *   driver (pg, a pool of CLIENTS connections) in a tight loop, no HTTP and no framework; and
 *   (b) an empty Fastify route in its own process, loaded with the same HTTP client;
 * - allocation writes: `PUT /allocations/{consumer}` of new consumers (two providers each, as
 *   bench:placement writes), against pgbench's TPC-B (`pgbench -c CLIENTS -j 2 -T ROUND_SECONDS`)
 *   on a scratch database of the same PostgreSQL (pgbench -i at scale 1).
 *
 * Prints each figure with its p50 and p99 and Baton's share of each floor (per round, then the
 * median and range of the rounds). Baton batches the usage reads of one turn into one query
 * (read-batcher.ts), so with several clients its server may send fewer queries than the bare
 * loop, which sends one per read.
 *
 * ROUNDS=5 ROUND_SECONDS=3 CLIENTS=8 PROVIDERS=20 npm run bench:floor
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { PlacementTables } from '../src/placement/store/tables.ts';
import { providerUsagesQuery } from '../src/placement/store/usages.ts';
import { createScratchDatabase } from '../test/db/support/backends.ts';
import {
  expectStatus as expect,
  PlacementHttp as Http,
  percentile,
} from './support/placement-http.ts';
import { loadAverage } from './support/process-cpu.ts';
import {
  formatSpread,
  higherIsBetter,
  interleave,
  type RoundsFigure,
  summarizeRounds,
} from './support/rounds.ts';
import { startBaton } from './support/served-placement.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const ROUND_SECONDS = Number(process.env.ROUND_SECONDS ?? 3);
const CLIENTS = Number(process.env.CLIENTS ?? 8);
const PROVIDERS = Number(process.env.PROVIDERS ?? 20);
/** Baton's reads should reach at least this share of the bare SQL floor (issue 26). */
const READ_SHARE_TARGET = 0.5;

interface Figure {
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
}

/** CLIENTS loops calling `operation` for ROUND_SECONDS; operations/s, p50, p99 in ms. */
async function load(operation: (client: number, i: number) => Promise<unknown>): Promise<Figure> {
  const latencies: number[] = [];
  const started = performance.now();
  const end = started + ROUND_SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let i = client; performance.now() < end; i += CLIENTS) {
        const t0 = performance.now();
        await operation(client, i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = performance.now() - started;
  latencies.sort((a, b) => a - b);
  return {
    perSecond: (latencies.length * 1000) / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

async function setUpProviders(http: Http): Promise<string[]> {
  const providers: string[] = [];
  for (let i = 0; i < PROVIDERS; i++) {
    const uuid = randomUUID();
    expect(
      await http.call('POST', '/resource_providers', { name: `floor-${uuid}`, uuid }),
      [200],
      'provider',
    );
    expect(
      await http.call('PUT', `/resource_providers/${uuid}/inventories`, {
        resource_provider_generation: 0,
        inventories: { VCPU: { total: 1_000_000 }, DISK_GB: { total: 10_000_000 } },
      }),
      [200],
      'inventory',
    );
    providers.push(uuid);
  }
  return providers;
}

async function startEmptyFastify(): Promise<{ port: number; child: ChildProcess }> {
  const script = fileURLToPath(new URL('./support/empty-fastify.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [chunk] = (await once(child.stdout as NodeJS.ReadableStream, 'data')) as [Buffer];
  return { port: Number(chunk.toString().trim()), child };
}

/**
 * pgbench's TPC-B on `url` for ROUND_SECONDS with CLIENTS clients: transactions/s, and p50/p99
 * from its per-transaction log (the third field: the transaction's time in microseconds).
 */
function pgbench(url: string): Figure {
  const logs = mkdtempSync(join(tmpdir(), 'bench-pgbench-'));
  try {
    const out = execFileSync(
      'pgbench',
      ['-c', String(CLIENTS), '-j', '2', '-T', String(ROUND_SECONDS), '--log', url],
      { cwd: logs, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(out)?.[1];
    if (tps === undefined) throw new Error(`pgbench printed no tps:\n${out}`);
    const latencies = readdirSync(logs)
      .flatMap((file) => readFileSync(join(logs, file), 'utf8').split('\n'))
      .filter((line) => line !== '')
      .map((line) => Number(line.split(' ')[2]) / 1000)
      .sort((a, b) => a - b);
    return {
      perSecond: Number(tps),
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
    };
  } finally {
    rmSync(logs, { recursive: true, force: true });
  }
}

function printFigure(label: string, names: readonly string[], figure: RoundsFigure, unit: string) {
  const sides = figure.contenders.map((s, i) => `${names[i]} ${formatSpread(s, 1, unit)}`);
  console.log(`  ${label.padEnd(12)} ${sides.join('  ')}`);
}

console.log(
  `floor bench: PostgreSQL, ${CLIENTS} clients, ${PROVIDERS} providers, ${ROUNDS} rounds of ${ROUND_SECONDS} s, load ${loadAverage()}`,
);
const placementDb = await createScratchDatabase('postgresql');
const benchDb = await createScratchDatabase('postgresql');
const served = await startBaton(placementDb.url, { args: ['--log-level', 'silent'] });
const http = new Http(served.port, { sockets: CLIENTS * 2 });
const empty = await startEmptyFastify();
const emptyHttp = new Http(empty.port, { sockets: CLIENTS * 2 });
const pool = new pg.Pool({ connectionString: placementDb.url, max: CLIENTS });
try {
  execFileSync('pgbench', ['-i', '-s', '1', '-q', benchDb.url], { stdio: 'ignore' });
  const providers = await setUpProviders(http);
  // The SQL of one provider's usages, as Baton's store builds it; compiling needs no connection.
  const compiler = new Kysely<PlacementTables>({ dialect: new PostgresDialect({ pool }) });
  const usageSql = providerUsagesQuery(compiler, [providers[0] as string]).compile().sql;
  const provider = (i: number) => providers[i % providers.length] as string;
  const allocate = (i: number) => {
    const first = provider(i);
    const second = provider(i + 1);
    return {
      allocations: {
        [first]: { resources: { VCPU: 1 } },
        [second]: { resources: { DISK_GB: 1 } },
      },
      consumer_generation: null,
      project_id: 'floor-project',
      user_id: 'floor-user',
      consumer_type: 'INSTANCE',
    };
  };
  // Some allocations first, so that the usage sums have rows to add.
  await load(async (_, i) =>
    expect(
      await http.call('PUT', `/allocations/${randomUUID()}`, allocate(i)),
      [204],
      'warm-up write',
    ),
  );
  type Contender = 'baton reads' | 'bare SQL' | 'empty Fastify' | 'baton writes' | 'pgbench';
  const contenders: Contender[] = [
    'baton reads',
    'bare SQL',
    'empty Fastify',
    'baton writes',
    'pgbench',
  ];
  const run: Record<Contender, () => Promise<Figure>> = {
    'baton reads': () =>
      load(async (_, i) =>
        expect(
          await http.call('GET', `/resource_providers/${provider(i)}/usages`),
          [200],
          'usages',
        ),
      ),
    'bare SQL': () => load((_, i) => pool.query(usageSql, [provider(i)])),
    'empty Fastify': () =>
      load(async () => expect(await emptyHttp.call('GET', '/empty'), [200], 'empty')),
    'baton writes': () =>
      load(async (_, i) =>
        expect(await http.call('PUT', `/allocations/${randomUUID()}`, allocate(i)), [204], 'write'),
      ),
    pgbench: async () => pgbench(benchDb.url),
  };
  const results = await interleave(ROUNDS, contenders, (c) => run[c]());
  const column = (name: Contender) => results.map((row) => row[contenders.indexOf(name)] as Figure);
  const pair = (a: Contender, b: Contender) => {
    const [first, second] = [column(a), column(b)];
    return first.map((f, i) => [f, second[i] as Figure]);
  };
  console.log(`median (min–max) of ${ROUNDS} rounds:`);
  for (const at of ['perSecond', 'p50', 'p99'] as const) {
    const figure = summarizeRounds(results, (r) => r[at], higherIsBetter);
    printFigure(at === 'perSecond' ? 'per second' : `${at} ms`, contenders, figure, '');
  }
  console.log("Baton as a share of each floor (per round, requests/s over the floor's):");
  const shares: [string, Contender, Contender][] = [
    ['usage reads / bare SQL', 'baton reads', 'bare SQL'],
    ['usage reads / empty Fastify route', 'baton reads', 'empty Fastify'],
    ['allocation writes / pgbench TPC-B', 'baton writes', 'pgbench'],
  ];
  for (const [label, a, b] of shares) {
    const share = summarizeRounds(pair(a, b), (f) => f.perSecond, higherIsBetter).ratio;
    const verdict =
      b === 'bare SQL'
        ? ` (target ≥ ${READ_SHARE_TARGET}: ${(share?.median ?? 0) >= READ_SHARE_TARGET ? 'met' : 'NOT met'})`
        : '';
    console.log(`  ${label.padEnd(36)} ${share ? formatSpread(share, 2) : 'n/a'}${verdict}`);
  }
} finally {
  await pool.end();
  http.close();
  emptyHttp.close();
  empty.child.kill('SIGTERM');
  await served.stop();
  await placementDb.drop();
  await benchDb.drop();
}
console.log(`load average at the end: ${loadAverage()}`);
