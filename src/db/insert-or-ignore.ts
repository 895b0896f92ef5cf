/**
 * Insert-or-ignore: rows whose unique key another row already holds are skipped, without an
 * error, also when that row is a concurrent writer's (the insert waits for it to commit, then
 * skips; it is inserted if the other writer rolls back). Every other error stays an error.
 *
 * - PostgreSQL, SQLite: `INSERT … ON CONFLICT (key) DO NOTHING`. Only a duplicate of `key`
 *   is skipped; a duplicate of another unique key still fails. Not SQLite's
 *   `INSERT OR IGNORE`, which also drops rows breaking NOT NULL or CHECK constraints.
 * - MySQL/MariaDB: `INSERT … ON DUPLICATE KEY UPDATE key = key`, a no-op update of the row
 *   that is there (of any unique key: MySQL cannot name one). Not `INSERT IGNORE`: IGNORE
 *   downgrades other errors to warnings, so a NULL in a NOT NULL column is stored as the
 *   column's implicit default (0, '') and a row breaking a foreign key vanishes silently.
 *
 * The price on MariaDB: the skipped row is locked exclusively (IGNORE takes a shared lock)
 * until the transaction ends. So callers insert only the rows they found missing, leaving
 * the skipping to races.
 */
import { type Kysely, sql } from 'kysely';
import type { Capabilities } from './capabilities.ts';

/** One row to insert: column names to values. */
export type InsertRow = Readonly<Record<string, unknown>>;

/**
 * The unique key whose duplicates are skipped: its columns, or `any` for a duplicate of any
 * unique key (rows with several fixed unique values, such as a fixed id and a name).
 */
export type UniqueKey = readonly [string, ...string[]] | 'any';

// biome-ignore lint/suspicious/noExplicitAny: the helper serves every service's tables
type AnyDb = Kysely<any>;

function insertSkippingDuplicates(
  db: AnyDb,
  caps: Capabilities,
  table: string,
  rows: readonly InsertRow[],
  key: UniqueKey,
) {
  const insert = db.insertInto(table).values([...rows]);
  if (caps.skipDuplicate === 'on-conflict') {
    return insert.onConflict((oc) => (key === 'any' ? oc : oc.columns([...key])).doNothing());
  }
  // Any column set to itself changes nothing; a key column reads best.
  const column = key === 'any' ? Object.keys(rows[0] ?? {})[0] : key[0];
  if (column === undefined) throw new Error(`insert into ${table}: a row without columns`);
  return insert.onDuplicateKeyUpdate({ [column]: sql.ref(column) });
}

/** Inserts `rows` in one statement, skipping those whose `key` another row holds. */
export async function insertOrIgnore(
  db: AnyDb,
  caps: Capabilities,
  table: string,
  rows: readonly InsertRow[],
  key: UniqueKey,
): Promise<void> {
  if (rows.length === 0) return;
  await insertSkippingDuplicates(db, caps, table, rows, key).execute();
}

/**
 * Inserts one row unless its `key` is taken; true when this call inserted it.
 *
 * MySQL/MariaDB counts the skipped duplicate as an affected row (the driver asks for found
 * rows, so that UPDATEs count matched rows as the other backends do); what tells the two
 * outcomes apart there is the generated id, which the server reports only for an inserted
 * row. So on MySQL/MariaDB the table must have an AUTO_INCREMENT key that `row` leaves to
 * the server.
 */
export async function insertOneOrIgnore(
  db: AnyDb,
  caps: Capabilities,
  table: string,
  row: InsertRow,
  key: UniqueKey,
): Promise<boolean> {
  const result = await insertSkippingDuplicates(db, caps, table, [row], key).executeTakeFirst();
  if (caps.skipDuplicate === 'on-conflict') {
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }
  return result.insertId !== undefined;
}
