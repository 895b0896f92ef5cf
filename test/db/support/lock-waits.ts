/**
 * Choreographing races: wait until some session of this database is blocked on a row lock
 * (a second writer waiting for the first one's uncommitted row), so a test knows the race
 * it stages is really taking place before it lets the first writer finish.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import type { Database } from '../../../src/db/index.ts';

/**
 * MariaDB refreshes INFORMATION_SCHEMA.INNODB_TRX only when it has not been read for 100 ms:
 * polled faster, it never changes.
 */
const POLL_MS = 150;

/** Sessions of this database waiting for a lock now (PostgreSQL, MariaDB). */
async function lockWaiters<DB>(observer: Database<DB>): Promise<number> {
  const query =
    observer.url.backend === 'postgresql'
      ? sql<{ n: number | string }>`select count(*) as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`
      : sql<{ n: number | string }>`select count(*) as n
          from information_schema.innodb_trx t
          join information_schema.processlist p on p.id = t.trx_mysql_thread_id
          where t.trx_state = 'LOCK WAIT' and p.db = database()`;
  const { rows } = await query.execute(observer.kysely);
  return Number(rows[0]?.n ?? 0);
}

/**
 * Resolves once `count` sessions wait for a lock. `observer` must be a handle with a free
 * connection (not one the waiting writers hold). SQLite has no row locks: its writers queue
 * for the one write lock (or the one connection of a handle), nothing to observe; it
 * resolves at once. Fails after `limitMs` so a race that never forms is a test failure.
 */
export async function untilLockWaiters<DB>(
  observer: Database<DB>,
  count = 1,
  limitMs = 20_000,
): Promise<void> {
  if (observer.url.backend === 'sqlite') return;
  const deadline = Date.now() + limitMs;
  while ((await lockWaiters(observer)) < count) {
    if (Date.now() > deadline) throw new Error(`no ${count} session(s) waiting for a lock`);
    await sleep(POLL_MS);
  }
}

/** A promise and the function that resolves it. */
export function gate(): { wait: Promise<void>; open: () => void } {
  let open = () => {};
  const wait = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { wait, open };
}
