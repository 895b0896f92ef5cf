/**
 * SQLite has one writer at a time. While the runner commits batches one
 * after the other, another process writing to the same file must get in
 * between them rather than wait for the whole run (between-batches.ts and
 * sqlite-busy-wait.ts). Counted, not timed: how many of the gaps between two
 * batches saw the other process's write.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { type Database, openDatabase } from '../../../src/db/index.ts';
import {
  createOnlineMigrationRegistry,
  InvalidBatchPauseError,
  type OnlineMigration,
  runOnlineMigrations,
} from '../../../src/db/online-migrations/index.ts';
import { createScratchDatabase } from '../support/backends.ts';
import { type LogWriter, startLogWriter } from '../support/log-writer.ts';

const ROWS = 100_000;
const BATCH = 2_500;
const BATCHES = ROWS / BATCH;

/** Marks rows done in id order; each batch counts what is left first, as real migrations do. */
const markDone: OnlineMigration = {
  name: 'mark_done',
  description: 'mark every item done',
  async run(ctx, maxCount) {
    const left = await sql<{ n: number }>`select count(*) as n from items where done = 0`.execute(
      ctx.db,
    );
    const total = Number(left.rows[0]?.n ?? 0);
    const result = await sql`update items set done = 1 where id in (
      select id from items where done = 0 order by id limit ${maxCount})`.execute(ctx.db);
    await sql`insert into log (who) values ('batch')`.execute(ctx.db);
    return { total, migrated: Number(result.numAffectedRows ?? 0) };
  },
};

const registry = createOnlineMigrationRegistry({
  service: 'items',
  migrations: [markDone],
  objectTables: [],
});

describe('SQLite: another process writes between the batches of an online migration', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let db: Database;
  let writer: LogWriter;
  before(async () => {
    scratch = await createScratchDatabase('sqlite');
    db = await openDatabase(scratch.url);
    await sql`create table log (seq integer primary key autoincrement, who text not null)`.execute(
      db.kysely,
    );
    await sql`create table items (id integer primary key, done integer not null)`.execute(
      db.kysely,
    );
    await sql`create index items_done on items (done, id)`.execute(db.kysely);
    await sql`with recursive g(n) as (select 1 union all select n + 1 from g where n < ${ROWS})
      insert into items (id, done) select n, 0 from g`.execute(db.kysely);
    writer = await startLogWriter(scratch.url);
  });
  after(async () => {
    await writer?.stop();
    await db?.close();
    await scratch?.drop();
  });

  test('most gaps between two batches see a write of the other process', async () => {
    const writes = writer.ask({ writeUntilDone: true });
    // Start once the other process is writing.
    for (;;) {
      const { rows } = await sql`select 1 from log where who = 'writer'`.execute(db.kysely);
      if (rows.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const report = await runOnlineMigrations(db, registry, { batchSize: BATCH });
    await sql`insert into log (who) values ('done')`.execute(db.kysely);
    assert.deepEqual([report.outcome, report.migrated], ['complete', ROWS]);
    assert.ok(((await writes) as { writes: number }).writes > 0);

    const { rows } = await sql<{ who: string }>`select who from log order by seq`.execute(
      db.kysely,
    );
    const sequence = rows.map((r) => r.who);
    const batchAt = sequence.flatMap((who, i) => (who === 'batch' ? [i] : []));
    assert.equal(batchAt.length, BATCHES);
    let gapsWithAWrite = 0;
    for (let b = 1; b < batchAt.length; b++) {
      const between = sequence.slice((batchAt[b - 1] ?? 0) + 1, batchAt[b]);
      if (between.includes('writer')) gapsWithAWrite++;
    }
    // Starved behind back-to-back batches it would see almost none; one a gap is the aim.
    assert.ok(
      gapsWithAWrite >= (BATCHES - 1) / 2,
      `the other process wrote in ${gapsWithAWrite} of ${BATCHES - 1} gaps between batches`,
    );
  });

  test('the pause between batches is a non-negative integer', async () => {
    for (const value of [-1, 1.5, Number.NaN]) {
      await assert.rejects(
        runOnlineMigrations(db, registry, { batchPauseMs: value }),
        (e: unknown) =>
          e instanceof InvalidBatchPauseError &&
          e.message === `batch-pause-ms must be a non-negative integer, got ${value}`,
      );
    }
    const report = await runOnlineMigrations(db, registry, { batchPauseMs: 0 });
    assert.equal(report.outcome, 'complete');
  });
});
