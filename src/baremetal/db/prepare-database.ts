/**
 * Opens the bare metal database for a process: an empty database gets the schema when asked
 * (the embedded default), an outdated one is refused with the command that upgrades it.
 */
import { assertSchemaCurrent, type Database, openDatabase } from '../../db/index.ts';
import { BAREMETAL_MIGRATIONS } from '../migrations/index.ts';
import type { BaremetalTables } from './tables.ts';

export interface PrepareOptions {
  /** Create the schema on an empty database (the embedded SQLite default). */
  readonly createIfEmpty?: boolean;
  readonly poolSize?: number;
}

export async function prepareBaremetalDatabase(
  url: string,
  options: PrepareOptions = {},
): Promise<Database<BaremetalTables>> {
  const database = await openDatabase<BaremetalTables>(url, {
    poolSize: options.poolSize,
    preparedStatements: true,
  });
  try {
    await assertSchemaCurrent(database, BAREMETAL_MIGRATIONS, {
      createIfEmpty: options.createIfEmpty ?? false,
    });
    return database;
  } catch (error) {
    await database.close();
    throw error;
  }
}
