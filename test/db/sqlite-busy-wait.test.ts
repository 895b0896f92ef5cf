import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { type Database, DatabaseBusyError, openDatabase } from '../../src/db/index.ts';
import { createScratchDatabase } from './support/backends.ts';
import { type LogWriter, startLogWriter } from './support/log-writer.ts';

const whoWrote = async (db: Database) =>
  (await sql<{ who: string }>`select who from log order by seq`.execute(db.kysely)).rows.map(
    (r) => r.who,
  );

describe('SQLite: waiting for another process holding the write lock', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let writer: LogWriter;
  before(async () => {
    scratch = await createScratchDatabase('sqlite');
    const db = await openDatabase(scratch.url);
    await sql`create table log (seq integer primary key autoincrement, who text not null)`.execute(
      db.kysely,
    );
    await db.close();
    writer = await startLogWriter(scratch.url);
  });
  after(async () => {
    await writer?.stop();
    await scratch?.drop();
  });

  test('a write waits for the lock and goes in once the other process commits', async () => {
    const db = await openDatabase(scratch.url, { busyTimeoutMs: 30_000 });
    try {
      await sql`delete from log`.execute(db.kysely);
      assert.equal(await writer.ask({ hold: true, forMs: 200 }), 'held');
      await sql`insert into log (who) values ('waiter')`.execute(db.kysely);
      assert.deepEqual(await whoWrote(db), ['holder', 'waiter']);
    } finally {
      await db.close();
    }
  });

  test('BEGIN IMMEDIATE waits the same way', async () => {
    const db = await openDatabase(scratch.url, { busyTimeoutMs: 30_000 });
    try {
      await sql`delete from log`.execute(db.kysely);
      assert.equal(await writer.ask({ hold: true, forMs: 200 }), 'held');
      await db.kysely.connection().execute(async (connection) => {
        await sql`begin immediate`.execute(connection);
        await sql`insert into log (who) values ('waiter')`.execute(connection);
        await sql`commit`.execute(connection);
      });
      assert.deepEqual(await whoWrote(db), ['holder', 'waiter']);
    } finally {
      await db.close();
    }
  });

  test('past the busy timeout the write fails with a clear error, and nothing is written', async () => {
    const db = await openDatabase(scratch.url, { busyTimeoutMs: 50 });
    try {
      await sql`delete from log`.execute(db.kysely);
      assert.equal(await writer.ask({ hold: true }), 'held');
      await assert.rejects(sql`insert into log (who) values ('waiter')`.execute(db.kysely), (e) => {
        assert.ok(e instanceof DatabaseBusyError);
        assert.equal(e.code, 'SQLITE_BUSY');
        assert.equal(e.timeoutMs, 50);
        assert.match(
          e.message,
          /^database .*test\.sqlite is locked: another connection kept its write lock for more than the busy timeout \(50 ms\)$/,
        );
        return true;
      });
      writer.child.send({ release: true });
      // Read after the holder's commit (sent in order on the same channel).
      assert.equal(await writer.ask({ hold: true, forMs: 0 }), 'held');
      await sql`insert into log (who) values ('after')`.execute(db.kysely);
      assert.deepEqual(await whoWrote(db), ['holder', 'holder', 'after']);
    } finally {
      await db.close();
    }
  });

  test('pragma busy_timeout reads and sets the wait; 0 fails at once', async () => {
    const db = await openDatabase(scratch.url, { busyTimeoutMs: 30_000 });
    try {
      const timeout = async () =>
        (await sql<{ timeout: number }>`pragma busy_timeout`.execute(db.kysely)).rows[0]?.timeout;
      assert.equal(await timeout(), 30_000);
      await sql`pragma busy_timeout = 0`.execute(db.kysely);
      assert.equal(await timeout(), 0);
      assert.equal(await writer.ask({ hold: true }), 'held');
      // With 30 s it would wait for the holder, which only commits when told below.
      await assert.rejects(
        sql`insert into log (who) values ('waiter')`.execute(db.kysely),
        (e) => e instanceof DatabaseBusyError && e.timeoutMs === 0,
      );
      writer.child.send({ release: true });
    } finally {
      await db.close();
    }
  });

  test('a deferred transaction whose first statement writes waits, as SQLite does', async () => {
    const db = await openDatabase(scratch.url, { busyTimeoutMs: 30_000 });
    try {
      await sql`delete from log`.execute(db.kysely);
      assert.equal(await writer.ask({ hold: true, forMs: 200 }), 'held');
      await db.kysely.transaction().execute(async (trx) => {
        await sql`insert into log (who) values ('waiter')`.execute(trx);
        await sql`insert into log (who) values ('waiter')`.execute(trx);
      });
      assert.deepEqual(await whoWrote(db), ['holder', 'waiter', 'waiter']);
    } finally {
      await db.close();
    }
  });

  test('later in a deferred transaction SQLITE_BUSY comes back at once, as SQLite has it', async () => {
    const db = await openDatabase(scratch.url, { busyTimeoutMs: 30_000 });
    try {
      await db.kysely.connection().execute(async (connection) => {
        await sql`begin`.execute(connection);
        await sql`select count(*) from log`.execute(connection);
        assert.equal(await writer.ask({ hold: true }), 'held');
        // SQLite does not wait here: once the holder commits, this read snapshot is stale.
        await assert.rejects(
          sql`insert into log (who) values ('waiter')`.execute(connection),
          (e: unknown) =>
            !(e instanceof DatabaseBusyError) &&
            String((e as { code?: unknown }).code).startsWith('SQLITE_BUSY'),
        );
        await sql`rollback`.execute(connection);
      });
      writer.child.send({ release: true });
    } finally {
      await db.close();
    }
  });
});
