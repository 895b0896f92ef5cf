/**
 * A rehearsal creates the previous release's schema itself and checks every row it wrote at the
 * end, so it needs a database with nothing in it: on one that holds tables, the previous
 * release's `db upgrade` would meet a schema of another age, and the data check rows it did
 * not write. Refused before anything starts, naming what is there.
 */
import { openDatabase, redactUrl } from '../db/index.ts';

/** The database given to a rehearsal holds tables; the message names some of them. */
export class DatabaseNotEmptyError extends Error {
  override name = 'DatabaseNotEmptyError';
}

/** Resolves when the database at `url` has no table; throws DatabaseNotEmptyError naming some. */
export async function assertEmptyDatabase(url: string): Promise<void> {
  const db = await openDatabase(url, { poolSize: 1 });
  try {
    const tables = (await db.kysely.introspection.getTables()).map((table) => table.name).sort();
    if (tables.length === 0) return;
    const shown = tables.slice(0, 5).join(', ');
    const more = tables.length > 5 ? ` and ${tables.length - 5} more` : '';
    throw new DatabaseNotEmptyError(
      `${redactUrl(url)} holds ${tables.length} table${tables.length === 1 ? '' : 's'} (${shown}${more}): a rehearsal needs an empty database, as it creates the previous release's schema and checks every row it wrote; give an empty one, or leave --db out for a SQLite file of its own`,
    );
  } finally {
    await db.close();
  }
}
