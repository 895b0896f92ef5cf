/**
 * Resource class rows: listing, lookup by name, creating custom classes (ids from
 * CUSTOM_RESOURCE_CLASS_MIN_ID, one above the highest id in use), renaming and deleting them.
 * Standard classes (ids below the custom minimum) are never renamed or deleted.
 */
import type { Kysely } from 'kysely';
import { type Database, inTransaction, isDuplicateKeyError } from '../../db/index.ts';
import { CUSTOM_RESOURCE_CLASS_MIN_ID } from './standard-data.ts';
import type { PlacementTables } from './tables.ts';

export interface ResourceClassRow {
  readonly id: number;
  readonly name: string;
  readonly created_at: Date | string | null;
  readonly updated_at: Date | string | null;
}

/** Creating a class races on its id with other creators; this many tries, as the real service. */
const CREATE_ATTEMPTS = 100;

const COLUMNS = ['id', 'name', 'created_at', 'updated_at'] as const;

function toRow(row: {
  id: number | string;
  name: string;
  created_at: Date | string | null;
  updated_at: Date | string | null;
}): ResourceClassRow {
  return { ...row, id: Number(row.id) };
}

export function isStandardClassId(id: number): boolean {
  return id < CUSTOM_RESOURCE_CLASS_MIN_ID;
}

/** Every class, standard ones first (in id order). */
export async function listResourceClasses(
  db: Kysely<PlacementTables>,
): Promise<ResourceClassRow[]> {
  const rows = await db.selectFrom('resource_classes').select(COLUMNS).orderBy('id').execute();
  return rows.map(toRow);
}

export async function findResourceClass(
  db: Kysely<PlacementTables>,
  name: string,
): Promise<ResourceClassRow | undefined> {
  // No name holds a NUL, and PostgreSQL refuses one in a parameter.
  if (name.includes('\0')) return undefined;
  const row = await db
    .selectFrom('resource_classes')
    .select(COLUMNS)
    .where('name', '=', name)
    .executeTakeFirst();
  return row === undefined ? undefined : toRow(row);
}

export type CreateResult =
  | { readonly outcome: 'created'; readonly row: ResourceClassRow }
  | { readonly outcome: 'exists' }
  | { readonly outcome: 'retries-exhausted' };

/** Inserts a custom class under the next free custom id. */
export async function createResourceClass(
  database: Database<PlacementTables>,
  name: string,
): Promise<CreateResult> {
  for (let attempt = 0; attempt < CREATE_ATTEMPTS; attempt++) {
    const now = new Date();
    try {
      const id = await inTransaction(database, async (trx) => {
        const { highest } = await trx
          .selectFrom('resource_classes')
          .select((eb) => eb.fn.max('id').as('highest'))
          .executeTakeFirstOrThrow();
        const next =
          highest === null || Number(highest) < CUSTOM_RESOURCE_CLASS_MIN_ID
            ? CUSTOM_RESOURCE_CLASS_MIN_ID
            : Number(highest) + 1;
        await trx
          .insertInto('resource_classes')
          .values({ id: next, name, created_at: now, updated_at: null })
          .execute();
        return next;
      });
      return { outcome: 'created', row: { id, name, created_at: now, updated_at: null } };
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      // Either the name is taken, or another creator took the same id: only the latter retries.
      if ((await findResourceClass(database.kysely, name)) !== undefined) {
        return { outcome: 'exists' };
      }
    }
  }
  return { outcome: 'retries-exhausted' };
}

/** Renames a custom class; false when another class already has the new name. */
export async function renameResourceClass(
  db: Kysely<PlacementTables>,
  id: number,
  name: string,
): Promise<boolean> {
  try {
    await db
      .updateTable('resource_classes')
      .set({ name, updated_at: new Date() })
      .where('id', '=', id)
      .execute();
    return true;
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
}

export type DeleteResult = 'deleted' | 'in-use' | 'missing';

/** Deletes a custom class unless an inventory still uses it. */
export async function deleteResourceClass(
  database: Database<PlacementTables>,
  id: number,
): Promise<DeleteResult> {
  return inTransaction(database, async (trx) => {
    const used = await trx
      .selectFrom('inventories')
      .select('id')
      .where('resource_class_id', '=', id)
      .limit(1)
      .executeTakeFirst();
    if (used !== undefined) return 'in-use';
    const result = await trx.deleteFrom('resource_classes').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) === 0 ? 'missing' : 'deleted';
  });
}
