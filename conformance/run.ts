/**
 * Differential conformance check: runs every scenario against Baton's Placement and the real
 * OpenStack Placement 8.0.0 (Debian's python3-placement, see bench/support/real-placement.ts),
 * each on a fresh PostgreSQL database, and prints every difference between their answers.
 * Exit 0 when none, 1 when some, 2 when the servers could not be started.
 *
 *   npm run conformance                    # every scenario
 *   npm run conformance -- traits usages   # scenarios whose name contains one of these words
 *   CONFORMANCE_DUMP=steps.jsonl npm run conformance   # also write every answer of both
 *   CONFORMANCE_SUMMARY=summary.json npm run conformance  # what differed, for a program to read
 *
 * test/conformance/real-placement.test.ts runs all of it in `npm test` and allows only the
 * differences conformance/known-differences.ts names, each with its reason.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { sql } from 'kysely';
import {
  freePort,
  startPlacementServer,
  stopPlacementServer,
} from '../bench/support/placement-http.ts';
import {
  realPlacementMissing,
  startRealPlacement,
  syncRealPlacementSchema,
} from '../bench/support/real-placement.ts';
import { openDatabase } from '../src/db/index.ts';
import { createScratchDatabase } from '../test/db/support/backends.ts';
import type { ConformanceSummary } from './known-differences.ts';
import { Pair } from './pair.ts';
import { SCENARIOS } from './scenarios/index.ts';

const filters = process.argv.slice(2);
const chosen = SCENARIOS.filter(
  (s) => filters.length === 0 || filters.some((f) => s.name.includes(f)),
);
const missing = realPlacementMissing();
if (missing) {
  console.error(`conformance: cannot run the real Placement: ${missing}`);
  process.exit(2);
}

/** A database's traits with their ids. */
async function traitsOf(url: string): Promise<{ id: number; name: string }[]> {
  const db = await openDatabase(url, { poolSize: 1 });
  try {
    const rows = await sql<{
      id: number | string;
      name: string;
    }>`select id, name from traits`.execute(db.kysely);
    return rows.rows.map((row) => ({ id: Number(row.id), name: row.name }));
  } finally {
    await db.close();
  }
}

const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
let differing = 0;
let steps = 0;
const summary: ConformanceSummary = { scenarios: [] };
// The real service's schema is synced once; each scenario's database is a copy of it.
const realSchema = await createScratchDatabase('postgresql');
await syncRealPlacementSchema(realSchema.url);
const realTemplate = new URL(realSchema.url).pathname.slice(1);
for (const scenario of chosen) {
  let failure: string | undefined;
  const batonDb = await createScratchDatabase('postgresql');
  const realDb = await createScratchDatabase('postgresql', { template: realTemplate });
  const batonPort = await freePort();
  const batonServer = await startPlacementServer(batonDb.url, batonPort);
  // The real service's standard traits get Baton's ids (it would number them at random).
  const real = await startRealPlacement(realDb.url, await freePort(), {
    processes: 1,
    traits: await traitsOf(batonDb.url),
    schemaSynced: true,
  });
  const pair = new Pair(`http://127.0.0.1:${batonPort}`, real.url, [batonDb.url, realDb.url]);
  try {
    await scenario.run(pair);
  } catch (error) {
    const cause = (error as Error).cause;
    failure = `scenario failed at step ${pair.steps.length + 1}: ${(error as Error).message}${cause ? ` (${String(cause)})` : ''}`;
    console.log(`✖ ${scenario.name}: ${failure}`);
    differing++;
  } finally {
    await stopPlacementServer(batonServer);
    await real.stop();
    await batonDb.drop();
    await realDb.drop();
  }
  if (process.env.CONFORMANCE_DUMP) {
    // Every step's two answers, for reading what a difference came from.
    appendFileSync(
      process.env.CONFORMANCE_DUMP,
      `${JSON.stringify({ scenario: scenario.name, steps: pair.steps })}\n`,
    );
  }
  const bad = pair.steps.filter((s) => s.differences.length > 0);
  summary.scenarios.push({
    name: scenario.name,
    requests: pair.steps.length,
    ...(failure === undefined ? {} : { failure }),
    differing: bad.map((step) => ({
      title: step.title,
      request: `${step.request.method} ${step.request.path}${step.request.version ? ` @${step.request.version}` : ''}`,
      where: step.differences.map((d) => d.where),
    })),
  });
  steps += pair.steps.length;
  differing += bad.length;
  console.log(
    `${bad.length === 0 ? '✔' : '✖'} ${scenario.name}: ${pair.steps.length} requests, ${bad.length} differ`,
  );
  for (const step of bad) {
    const r = step.request;
    console.log(`  - ${step.title}: ${r.method} ${r.path}${r.version ? ` @${r.version}` : ''}`);
    for (const d of step.differences)
      console.log(`      ${d.where}: baton ${show(d.baton)} | real ${show(d.real)}`);
  }
}
await realSchema.drop();
console.log(`\n${steps} requests in ${chosen.length} scenarios; ${differing} differ`);
if (process.env.CONFORMANCE_SUMMARY) {
  writeFileSync(process.env.CONFORMANCE_SUMMARY, `${JSON.stringify(summary, null, 1)}\n`);
}
process.exit(differing === 0 ? 0 : 1);
