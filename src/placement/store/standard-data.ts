/**
 * The standard resource classes (os-resource-classes) and traits (os-traits) that every
 * Placement database holds. Standard classes keep their fixed ids (their index in the list);
 * custom classes are numbered from CUSTOM_RESOURCE_CLASS_MIN_ID, as in the real service.
 */
import { createRequire } from 'node:module';
import { sql } from 'kysely';
import type { Database } from '../../db/index.ts';
import { STANDARD_TRAITS } from '../../python-compat/os-traits.ts';
import type { PlacementTables } from './tables.ts';

const require = createRequire(import.meta.url);
const classesFile = require('../data/standard-resource-classes.json') as {
  resource_classes: string[];
};

export const STANDARD_RESOURCE_CLASSES: readonly string[] = classesFile.resource_classes;
export { STANDARD_TRAITS };
export const CUSTOM_RESOURCE_CLASS_MIN_ID = 10000;
export const CUSTOM_PREFIX = 'CUSTOM_';

const STANDARD_CLASS_SET = new Set(STANDARD_RESOURCE_CLASSES);
const STANDARD_TRAIT_SET = new Set(STANDARD_TRAITS);

export const isStandardResourceClass = (name: string) => STANDARD_CLASS_SET.has(name);
export const isStandardTrait = (name: string) => STANDARD_TRAIT_SET.has(name);

/** Inserts the standard classes and traits a database lacks; safe to run from several processes. */
export async function syncStandardData(database: Database<PlacementTables>): Promise<void> {
  const now = new Date();
  await database.kysely.connection().execute(async (db) => {
    if (database.url.backend === 'mysql') {
      // VCPU's id is 0; MySQL would otherwise treat an explicit 0 as "next id".
      await sql`SET SESSION sql_mode = CONCAT(@@sql_mode, ',NO_AUTO_VALUE_ON_ZERO')`.execute(db);
    }
    try {
      const haveClasses = new Set(
        (await db.selectFrom('resource_classes').select('name').execute()).map((r) => r.name),
      );
      const classes = STANDARD_RESOURCE_CLASSES.map((name, id) => ({
        id,
        name,
        created_at: now,
      })).filter((row) => !haveClasses.has(row.name));
      for (const row of classes) {
        await db.insertInto('resource_classes').values(row).execute().catch(ignoreDuplicate);
      }
      const haveTraits = new Set(
        (await db.selectFrom('traits').select('name').execute()).map((r) => r.name),
      );
      const missing = STANDARD_TRAITS.filter((name) => !haveTraits.has(name));
      for (let i = 0; i < missing.length; i += 100) {
        const rows = missing.slice(i, i + 100).map((name) => ({ name, created_at: now }));
        await db
          .insertInto('traits')
          .values(rows)
          .execute()
          .catch(async (error: unknown) => {
            // A batch raced with another process: fall back to one row at a time.
            ignoreDuplicate(error);
            for (const row of rows) {
              await db.insertInto('traits').values(row).execute().catch(ignoreDuplicate);
            }
          });
      }
    } finally {
      if (database.url.backend === 'mysql') {
        await sql`SET SESSION sql_mode = REPLACE(@@sql_mode, ',NO_AUTO_VALUE_ON_ZERO', '')`.execute(
          db,
        );
      }
    }
  });
}

/** Another process inserted the same standard row first: that is the outcome we wanted. */
function ignoreDuplicate(error: unknown): void {
  const text = String((error as { message?: unknown })?.message ?? error);
  if (/duplicate|unique/i.test(text)) return;
  throw error;
}
