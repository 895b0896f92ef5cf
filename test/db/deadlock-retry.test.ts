/**
 * inRetriedTransaction against a real deadlock on PostgreSQL and MariaDB: the work locks row
 * 1 and waits for row 2, held by another transaction that then asks for row 1. The database
 * breaks the cycle by aborting the work (PostgreSQL: the first waiter finds the cycle;
 * MariaDB: the transaction that changed fewer rows), which is run again from the start and
 * succeeds; with one attempt only, the same schedule fails with the deadlock.
 *
 * The work asks for row 2 only once the other transaction waits for row 1, and on PostgreSQL
 * the other one looks for deadlocks after 10 s instead of 1 s: so the work is always the one
 * that finds the cycle and is aborted. (Timed with a sleep instead, a loaded machine once let
 * the other transaction start waiting after the work's only check: the other one was aborted
 * and the work committed.) Setting deadlock_timeout needs a superuser, as the test URL is.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import {
  type Backend,
  type Database,
  inRetriedTransaction,
  isDeadlock,
  openDatabase,
} from '../../src/db/index.ts';
import { backendAvailable, createScratchDatabase } from './support/backends.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const backend of ['postgresql', 'mysql'] as Backend[]) {
  describe(`inRetriedTransaction on a real deadlock [${backend}]`, async () => {
    const unavailable = await backendAvailable(backend);
    let scratch: { url: string; drop: () => Promise<void> };
    let ours: Database;
    let theirs: Database;

    before(async () => {
      if (unavailable) return;
      scratch = await createScratchDatabase(backend);
      ours = await openDatabase(scratch.url, { poolSize: 2 });
      theirs = await openDatabase(scratch.url, { poolSize: 1 });
      await sql`create table t (id integer primary key, v integer not null)`.execute(ours.kysely);
    });
    after(async () => {
      await ours?.close();
      await theirs?.close();
      await scratch?.drop();
    });

    /** Whether a transaction of this database waits for a row lock now. */
    async function someoneWaits(): Promise<boolean> {
      const query =
        backend === 'postgresql'
          ? sql<{ n: number | string }>`select count(*) as n from pg_stat_activity
              where wait_event_type = 'Lock' and datname = current_database()`
          : sql<{ n: number | string }>`select count(*) as n from information_schema.innodb_trx
              where trx_state = 'LOCK WAIT'`;
      const { rows } = await query.execute(ours.kysely);
      return Number(rows[0]?.n ?? 0) > 0;
    }

    async function untilSomeoneWaits(): Promise<void> {
      const deadline = Date.now() + 30_000;
      while (!(await someoneWaits())) {
        if (Date.now() > deadline) throw new Error('the other transaction never waited');
        await sleep(20);
      }
    }

    /** Runs the deadlocking schedule; returns how many times the work ran, or its error. */
    async function deadlock(attempts: number) {
      await sql`delete from t`.execute(ours.kysely);
      await sql`insert into t (id, v) values (1, 0), (2, 0), (3, 0)`.execute(ours.kysely);
      let runs = 0;
      let holdingRowOne: () => void = () => {};
      const holding = new Promise<void>((resolve) => {
        holdingRowOne = resolve;
      });
      const retries: unknown[] = [];
      // The other transaction holds rows 2 and 3 (two rows changed: MariaDB's heavier one).
      const other = theirs.kysely.connection().execute(async (conn) => {
        await sql`begin`.execute(conn);
        if (backend === 'postgresql') await sql`set local deadlock_timeout = '10s'`.execute(conn);
        await sql`update t set v = v + 1 where id in (2, 3)`.execute(conn);
        await holding;
        await sql`update t set v = v + 1 where id = 1`.execute(conn);
        await sql`commit`.execute(conn);
      });
      const work = inRetriedTransaction(
        ours,
        async (trx) => {
          runs += 1;
          await sql`update t set v = v + 10 where id = 1`.execute(trx);
          holdingRowOne();
          // The first run closes the cycle, the other transaction waiting already.
          if (runs === 1) await untilSomeoneWaits();
          await sql`update t set v = v + 10 where id = 2`.execute(trx);
        },
        { attempts, onRetry: (_, error) => retries.push(error) },
      ).then(
        () => undefined,
        (error: unknown) => error,
      );
      const [failure] = await Promise.all([work, other]);
      const rows = await sql<{ id: number; v: number }>`select id, v from t order by id`.execute(
        ours.kysely,
      );
      return { runs, failure, retries, values: rows.rows.map((row) => Number(row.v)) };
    }

    it('runs the work again after the database aborted it, and it commits', {
      skip: unavailable,
    }, async () => {
      const outcome = await deadlock(6);
      assert.equal(outcome.failure, undefined, String(outcome.failure));
      assert.equal(outcome.runs, 2, 'aborted once, then committed');
      assert.equal(outcome.retries.length, 1);
      assert.ok(isDeadlock(outcome.retries[0]), String(outcome.retries[0]));
      assert.deepEqual(outcome.values, [11, 11, 1], 'both transactions committed, ours once');
    });

    it('without retries the same schedule fails with the deadlock', {
      skip: unavailable,
    }, async () => {
      const outcome = await deadlock(1);
      assert.ok(isDeadlock(outcome.failure), String(outcome.failure));
      assert.equal(outcome.runs, 1);
      assert.deepEqual(outcome.values, [1, 1, 1], 'only the other transaction committed');
    });
  });
}
