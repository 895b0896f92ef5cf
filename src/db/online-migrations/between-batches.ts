/**
 * What the runner does between two batches so that the other processes
 * writing to the database get their turn.
 *
 * Nothing on PostgreSQL and MariaDB: their writers wait for row locks only.
 * On a single-writer backend (SQLite) two things, measured with
 * bench:online-migrations:
 *
 * - A short pause with the write lock free. Another process's writer retries
 *   every millisecond (sqlite-busy-wait.ts) and takes the lock during
 *   it; back to back, the lock would be free for microseconds only.
 * - A RESTART checkpoint of the write-ahead log, which holds the write lock
 *   while it copies. SQLite's automatic checkpoint runs after the commit,
 *   lock released: the writer let in at that moment adds frames the
 *   checkpoint does not copy, the log is never fully copied when the next
 *   batch starts, so it is never rewound and grows by every batch (76 MB for
 *   a million rows), which slows every read. Without readers in the log, the
 *   next writer rewinds it.
 */
import { sql } from 'kysely';
import type { Database } from '../connect.ts';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function betweenBatches(
  db: Database,
  pauseMs: number,
  wait: (ms: number) => Promise<void> = sleep,
): Promise<void> {
  if (db.caps.singleWriter) await sql`pragma wal_checkpoint(restart)`.execute(db.kysely);
  if (pauseMs > 0) await wait(pauseMs);
}
