/**
 * Get-or-create of rows named by a unique text column (projects and users by external id,
 * consumer types by name), safe against concurrent creators, with a per-database cache of
 * committed ids: these rows are never deleted, so an id once seen stays valid.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/index.ts';
import type { PlacementTables } from './tables.ts';

export type KeyedTable = 'projects' | 'users' | 'consumer_types';

const KEY_COLUMN: Record<KeyedTable, 'external_id' | 'name'> = {
  projects: 'external_id',
  users: 'external_id',
  consumer_types: 'name',
};

type Caches = Record<KeyedTable, { byKey: Map<string, number>; byId: Map<number, string> }>;
const caches = new WeakMap<object, Caches>();

function cacheOf(database: Database<PlacementTables>, table: KeyedTable) {
  let all = caches.get(database);
  if (all === undefined) {
    all = {
      projects: { byKey: new Map(), byId: new Map() },
      users: { byKey: new Map(), byId: new Map() },
      consumer_types: { byKey: new Map(), byId: new Map() },
    };
    caches.set(database, all);
  }
  return all[table];
}

// biome-ignore lint/suspicious/noExplicitAny: the table is chosen at run time
type AnyDb = Kysely<any>;

async function select(db: AnyDb, table: KeyedTable, key: string): Promise<number | undefined> {
  const row = await db
    .selectFrom(table)
    .select('id')
    .where(KEY_COLUMN[table], '=', key)
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.id);
}

/** Inserts the row unless it exists (another writer may be creating it at the same time). */
async function insertIfMissing(
  database: Database<PlacementTables>,
  table: KeyedTable,
  key: string,
): Promise<void> {
  const db = database.kysely as unknown as AnyDb;
  const values = { [KEY_COLUMN[table]]: key, created_at: new Date(), updated_at: null };
  if (database.url.backend === 'mysql') {
    await db.insertInto(table).ignore().values(values).execute();
  } else {
    await db
      .insertInto(table)
      .values(values)
      .onConflict((oc) => oc.column(KEY_COLUMN[table]).doNothing())
      .execute();
  }
}

/**
 * The id of the row keyed `key`, created (committed on its own, outside any request
 * transaction, as the real service's auto-created projects and users are) when missing.
 */
export async function ensureKeyedRow(
  database: Database<PlacementTables>,
  table: KeyedTable,
  key: string,
): Promise<number> {
  const cache = cacheOf(database, table);
  const cached = cache.byKey.get(key);
  if (cached !== undefined) return cached;
  const db = database.kysely as unknown as AnyDb;
  let id = await select(db, table, key);
  if (id === undefined) {
    await insertIfMissing(database, table, key);
    id = await select(db, table, key);
    if (id === undefined) throw new Error(`${table} row ${key} vanished after its creation`);
  }
  cache.byKey.set(key, id);
  cache.byId.set(id, key);
  return id;
}

/** The key (external id or name) of a row id; undefined when no such row exists. */
export async function keyOfRow(
  database: Database<PlacementTables>,
  table: KeyedTable,
  id: number,
): Promise<string | undefined> {
  const cache = cacheOf(database, table);
  const cached = cache.byId.get(id);
  if (cached !== undefined) return cached;
  const db = database.kysely as unknown as AnyDb;
  const row = await db
    .selectFrom(table)
    .select(KEY_COLUMN[table])
    .where('id', '=', id)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  const key = String(row[KEY_COLUMN[table]]);
  cache.byKey.set(key, id);
  cache.byId.set(id, key);
  return key;
}
