/**
 * One migration run at a time per database, chosen by `caps.lockKind`. The
 * run holds one connection throughout, so the lock and every statement share
 * a session:
 *
 * - advisory (PostgreSQL): a session advisory lock; each segment in its own
 *   transaction (CREATE INDEX CONCURRENTLY runs between them).
 * - named (MariaDB/MySQL): GET_LOCK on a name derived from the database
 *   (the names are server-wide); DDL commits implicitly, so no transactions.
 * - table (SQLite): the run is one BEGIN IMMEDIATE transaction (the write
 *   lock is the migration lock), each segment a savepoint. Foreign keys are
 *   off for the run, as SQLite's table-rebuild procedure requires, and checked
 *   in full before each savepoint is released.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../connect.ts';

// biome-ignore lint/suspicious/noExplicitAny: the runner's connection serves any schema
type AnyKysely = Kysely<any>;

export interface MigrationSession {
  /** The locked connection: every statement of the run goes through it. */
  readonly db: AnyKysely;
  /** Runs `work` all-or-nothing: a transaction, or a savepoint of the run's transaction. */
  atomically<T>(work: () => Promise<T>): Promise<T>;
}

interface Held {
  readonly session: MigrationSession;
  release(succeeded: boolean): Promise<void>;
}

/** 'batonmig' in ASCII, as a bigint: the PostgreSQL advisory lock key. */
const PG_LOCK_KEY = sql.raw('7089075310400727399');
/** GET_LOCK names are global to the server: one per database. */
const MYSQL_LOCK_NAME = sql`concat('baton_migrations:', md5(database()))`;
const POLL_MS = 50;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class LockTimeout extends Error {
  override name = 'LockTimeout';
}

function transactions(db: AnyKysely): MigrationSession {
  return {
    db,
    async atomically(work) {
      await sql`begin`.execute(db);
      try {
        const result = await work();
        await sql`commit`.execute(db);
        return result;
      } catch (error) {
        await sql`rollback`.execute(db).catch(() => {});
        throw error;
      }
    },
  };
}

async function advisory(db: AnyKysely, deadline: number): Promise<Held> {
  for (;;) {
    const { rows } = await sql<{
      locked: boolean;
    }>`select pg_try_advisory_lock(${PG_LOCK_KEY}) as locked`.execute(db);
    if (rows[0]?.locked) break;
    if (Date.now() >= deadline) throw new LockTimeout();
    await sleep(POLL_MS);
  }
  return {
    session: transactions(db),
    release: async () => {
      await sql`select pg_advisory_unlock(${PG_LOCK_KEY})`.execute(db);
    },
  };
}

async function named(db: AnyKysely, deadline: number): Promise<Held> {
  const seconds = Math.max(1, Math.ceil((deadline - Date.now()) / 1000));
  const { rows } = await sql<{
    locked: number | null;
  }>`select get_lock(${MYSQL_LOCK_NAME}, ${seconds}) as locked`.execute(db);
  if (Number(rows[0]?.locked) !== 1) throw new LockTimeout();
  return {
    session: transactions(db),
    release: async () => {
      await sql`select release_lock(${MYSQL_LOCK_NAME})`.execute(db);
    },
  };
}

async function pragma(db: AnyKysely, name: 'busy_timeout' | 'foreign_keys'): Promise<number> {
  const { rows } = await sql<Record<string, number>>`pragma ${sql.raw(name)}`.execute(db);
  const row = rows[0] ?? {};
  return Number(Object.values(row)[0] ?? 0);
}

async function foreignKeyCheck(db: AnyKysely): Promise<void> {
  const { rows } = await sql<{ table: string; parent: string }>`pragma foreign_key_check`.execute(
    db,
  );
  const first = rows[0];
  if (first) {
    throw new Error(
      `foreign key check failed: ${rows.length} row(s) break a foreign key (first: a row of ${first.table} references a missing row of ${first.parent})`,
    );
  }
}

async function writeLock(db: AnyKysely, deadline: number): Promise<Held> {
  const busyTimeout = await pragma(db, 'busy_timeout');
  const foreignKeys = await pragma(db, 'foreign_keys');
  // better-sqlite3 waits synchronously: wait here, asynchronously, instead.
  await sql`pragma busy_timeout = 0`.execute(db);
  await sql`pragma foreign_keys = off`.execute(db);
  const restoreBusyTimeout = () =>
    sql`pragma busy_timeout = ${sql.raw(String(busyTimeout))}`.execute(db);
  const restoreForeignKeys = () =>
    sql`pragma foreign_keys = ${sql.raw(String(foreignKeys))}`.execute(db);
  for (;;) {
    try {
      await sql`begin immediate`.execute(db);
      break;
    } catch (error) {
      const busy = (error as { code?: string }).code === 'SQLITE_BUSY';
      if (!busy || Date.now() >= deadline) {
        await restoreBusyTimeout();
        await restoreForeignKeys();
        throw busy ? new LockTimeout() : error;
      }
      await sleep(POLL_MS);
    }
  }
  // Holding the write lock, the run waits for no other writer.
  await restoreBusyTimeout();
  const session: MigrationSession = {
    db,
    async atomically(work) {
      await sql`savepoint baton_migration`.execute(db);
      try {
        const result = await work();
        await foreignKeyCheck(db);
        await sql`release baton_migration`.execute(db);
        return result;
      } catch (error) {
        await sql`rollback to baton_migration`.execute(db);
        await sql`release baton_migration`.execute(db);
        throw error;
      }
    },
  };
  return {
    session,
    release: async (succeeded) => {
      try {
        await sql.raw(succeeded ? 'commit' : 'rollback').execute(db);
      } finally {
        await restoreForeignKeys();
      }
    },
  };
}

/**
 * Runs `work` holding the database's migration lock on one connection.
 * Throws LockTimeout when another process holds it for longer than `timeoutMs`.
 */
export async function withMigrationLock<DB, T>(
  database: Database<DB>,
  timeoutMs: number,
  work: (session: MigrationSession) => Promise<T>,
): Promise<T> {
  const acquire = { advisory, named, table: writeLock }[database.caps.lockKind];
  const kysely = database.kysely as unknown as AnyKysely;
  return kysely.connection().execute(async (connection) => {
    const held = await acquire(connection, Date.now() + timeoutMs);
    let succeeded = false;
    try {
      const result = await work(held.session);
      succeeded = true;
      return result;
    } finally {
      await held.release(succeeded);
    }
  });
}
