/**
 * Opens Placement's database for serving: an empty database gets the schema; an outdated
 * schema is refused with the command that upgrades it; the standard resource classes and
 * traits are made present.
 */
import { assertSchemaCurrent, type Database, openDatabase } from '../../db/index.ts';
import { PLACEMENT_MIGRATIONS } from '../migrations/index.ts';
import { syncStandardData } from './standard-data.ts';
import type { PlacementTables } from './tables.ts';

export interface PrepareOptions {
  /** Create the schema on an empty database (default true: the embedded default just works). */
  readonly createIfEmpty?: boolean;
  readonly poolSize?: number;
}

export async function preparePlacementDatabase(
  url: string,
  options: PrepareOptions = {},
): Promise<Database<PlacementTables>> {
  // The service repeats a few query shapes all day: PostgreSQL parses and plans them once.
  const database = await openDatabase<PlacementTables>(url, {
    poolSize: options.poolSize,
    preparedStatements: true,
  });
  try {
    await assertSchemaCurrent(database, PLACEMENT_MIGRATIONS, {
      createIfEmpty: options.createIfEmpty ?? true,
    });
    await syncStandardData(database);
    return database;
  } catch (error) {
    await database.close();
    throw error;
  }
}
