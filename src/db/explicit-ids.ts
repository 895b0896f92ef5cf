/**
 * Rows written with fixed ids, 0 included (Placement's standard resource classes: VCPU is 0).
 * Where an explicit 0 in an AUTO_INCREMENT column means "the next id" (`zeroIdMeansNextId`:
 * MySQL/MariaDB), the connection's session sets NO_AUTO_VALUE_ON_ZERO while the work runs.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from './connect.ts';

/** Runs `work` on one connection where an explicit id 0 is stored as 0. */
export async function withExplicitZeroIds<DB, T>(
  database: Database<DB>,
  work: (db: Kysely<DB>) => Promise<T>,
): Promise<T> {
  return database.kysely.connection().execute(async (db) => {
    if (!database.caps.zeroIdMeansNextId) return work(db);
    await sql`SET SESSION sql_mode = CONCAT(@@sql_mode, ',NO_AUTO_VALUE_ON_ZERO')`.execute(db);
    try {
      return await work(db);
    } finally {
      await sql`SET SESSION sql_mode = REPLACE(@@sql_mode, ',NO_AUTO_VALUE_ON_ZERO', '')`.execute(
        db,
      );
    }
  });
}
