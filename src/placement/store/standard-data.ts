/**
 * The standard resource classes (os-resource-classes) and traits (os-traits) that every
 * Placement database holds. Standard classes keep their fixed ids (their index in the list);
 * custom classes are numbered from CUSTOM_RESOURCE_CLASS_MIN_ID, as in the real service.
 */
import { createRequire } from 'node:module';
import { type Database, insertOrIgnore, withExplicitZeroIds } from '../../db/index.ts';
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
  const { caps } = database;
  // VCPU's id is 0: written as 0, not as "the next id".
  await withExplicitZeroIds(database, async (db) => {
    const haveClasses = new Set(
      (await db.selectFrom('resource_classes').select('name').execute()).map((r) => r.name),
    );
    const classes = STANDARD_RESOURCE_CLASSES.map((name, id) => ({
      id,
      name,
      created_at: now,
    })).filter((row) => !haveClasses.has(row.name));
    // Another process may be inserting the same rows: they clash on the fixed id and the name.
    await insertOrIgnore(db, caps, 'resource_classes', classes, 'any');
    const haveTraits = new Set(
      (await db.selectFrom('traits').select('name').execute()).map((r) => r.name),
    );
    const missing = STANDARD_TRAITS.filter((name) => !haveTraits.has(name));
    for (let i = 0; i < missing.length; i += 100) {
      const rows = missing.slice(i, i + 100).map((name) => ({ name, created_at: now }));
      await insertOrIgnore(db, caps, 'traits', rows, ['name']);
    }
  });
}
