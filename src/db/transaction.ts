/**
 * Transactions with the isolation the optimistic-concurrency pattern needs.
 *
 * - PostgreSQL and MariaDB/MySQL run READ COMMITTED: an `UPDATE … WHERE
 *   generation = g` waits for a concurrent writer of the row, then re-reads
 *   it, so it matches nothing when the other writer won.
 * - SQLite has one writer at a time; a transaction takes the write lock up
 *   front (BEGIN IMMEDIATE) so two readers never deadlock upgrading to writers.
 */
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from './connect.ts';

/** Where a query runs: the database itself or a transaction on it. */
export type Executor<DB> = Kysely<DB> | Transaction<DB>;

/** Runs `work` in a transaction, committed when it returns and rolled back when it throws. */
export async function inTransaction<DB, T>(
  database: Database<DB>,
  work: (trx: Kysely<DB>) => Promise<T>,
): Promise<T> {
  if (database.caps.singleWriter) {
    return database.kysely.connection().execute(async (connection) => {
      await sql`begin immediate`.execute(connection);
      try {
        const result = await work(connection);
        await sql`commit`.execute(connection);
        return result;
      } catch (error) {
        await sql`rollback`.execute(connection).catch(() => {});
        throw error;
      }
    });
  }
  return database.kysely.transaction().setIsolationLevel('read committed').execute(work);
}
