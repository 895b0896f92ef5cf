/**
 * Get-or-create of rows named by a unique text column (projects and users by external id,
 * consumer types by name), safe against concurrent creators, with a per-database cache of
 * committed ids: these rows are never deleted, so an id once seen stays valid.
 */
import type { Kysely } from 'kysely';
import { type Capabilities, type Database, insertOrIgnore } from '../../db/index.ts';
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

/**
 * The id of the row keyed `key`, created when missing, within `db`: the caller's transaction
 * (then the row commits with it) or the pool (it commits on its own). Safe against concurrent
 * creators: the insert skips a row another writer holds (waiting for it to commit under
 * READ COMMITTED), and the select after it sees that row. Not cached: a transaction that
 * created the row may still roll back.
 */
export async function ensureKeyedRowWithin(
  db: Kysely<PlacementTables>,
  caps: Capabilities,
  table: KeyedTable,
  key: string,
): Promise<number> {
  const anyDb = db as unknown as AnyDb;
  const found = await select(anyDb, table, key);
  if (found !== undefined) return found;
  const row = { [KEY_COLUMN[table]]: key, created_at: new Date(), updated_at: null };
  await insertOrIgnore(anyDb, caps, table, [row], [KEY_COLUMN[table]]);
  const id = await select(anyDb, table, key);
  if (id === undefined) throw new Error(`${table} row ${key} vanished after its creation`);
  return id;
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
  const id = await ensureKeyedRowWithin(database.kysely, database.caps, table, key);
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
