/**
 * A provider's inventory records. Every write bumps the provider's generation in the same
 * transaction; the bump comes first, so it also locks the provider row and later checks
 * (allocations in use, existing records) see what every earlier writer committed.
 */
import type { Kysely } from 'kysely';
import { bumpGeneration, type Database, inTransaction } from '../../db/index.ts';
import { batcherFor, type ReadBatcher } from './read-batcher.ts';
import type { PlacementTables } from './tables.ts';

/** The settings of one inventory record, as stored and shown. */
export interface InventoryFields {
  readonly total: number;
  readonly reserved: number;
  readonly min_unit: number;
  readonly max_unit: number;
  readonly step_size: number;
  readonly allocation_ratio: number;
}

export interface InventoryRecord extends InventoryFields {
  readonly resource_class_id: number;
  readonly created_at: Date | string | null;
  readonly updated_at: Date | string | null;
}

/** The provider a write applies to, with the generation the caller saw. */
export interface ProviderVersion {
  readonly id: number;
  readonly generation: number;
}

/** Inventory that allocations still consume cannot be removed. */
export class InventoryInUseError extends Error {
  readonly resourceClassIds: readonly number[];
  constructor(resourceClassIds: readonly number[]) {
    super(`inventory of classes ${resourceClassIds.join(', ')} is in use`);
    this.name = 'InventoryInUseError';
    this.resourceClassIds = resourceClassIds;
  }
}

/** The provider already has inventory of the class being added. */
export class InventoryExistsError extends Error {
  constructor(resourceClassId: number) {
    super(`inventory of class ${resourceClassId} already exists`);
    this.name = 'InventoryExistsError';
  }
}

/** The provider has no inventory of the class being changed or removed. */
export class InventoryNotFoundError extends Error {
  constructor(resourceClassId: number) {
    super(`no inventory of class ${resourceClassId}`);
    this.name = 'InventoryNotFoundError';
  }
}

type Db = Kysely<PlacementTables>;

const RECORD_COLUMNS = [
  'resource_class_id',
  'total',
  'reserved',
  'min_unit',
  'max_unit',
  'step_size',
  'allocation_ratio',
  'created_at',
  'updated_at',
] as const;

function toRecord(row: {
  resource_class_id: number;
  total: number;
  reserved: number;
  min_unit: number;
  max_unit: number;
  step_size: number;
  allocation_ratio: number;
  created_at: Date | string | null;
  updated_at: Date | string | null;
}): InventoryRecord {
  return {
    resource_class_id: Number(row.resource_class_id),
    total: Number(row.total),
    reserved: Number(row.reserved),
    min_unit: Number(row.min_unit),
    max_unit: Number(row.max_unit),
    step_size: Number(row.step_size),
    allocation_ratio: Number(row.allocation_ratio),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export interface ProviderInventories {
  readonly generation: number;
  readonly records: InventoryRecord[];
}

/** Generation and inventory records of each provider found, by uuid, in one query. */
async function inventoriesOfProviders(
  db: Db,
  uuids: readonly string[],
): Promise<Map<string, ProviderInventories>> {
  const rows = await db
    .selectFrom('resource_providers as rp')
    .leftJoin('inventories as inv', 'inv.resource_provider_id', 'rp.id')
    .select([
      'rp.uuid',
      'rp.generation',
      'inv.resource_class_id',
      'inv.total',
      'inv.reserved',
      'inv.min_unit',
      'inv.max_unit',
      'inv.step_size',
      'inv.allocation_ratio',
      'inv.created_at',
      'inv.updated_at',
    ])
    .where('rp.uuid', 'in', uuids)
    .orderBy('inv.resource_class_id')
    .execute();
  const found = new Map<string, ProviderInventories>();
  for (const row of rows) {
    let entry = found.get(row.uuid);
    if (entry === undefined) {
      entry = { generation: Number(row.generation), records: [] };
      found.set(row.uuid, entry);
    }
    if (row.resource_class_id !== null) {
      entry.records.push(toRecord(row as Parameters<typeof toRecord>[0]));
    }
  }
  return found;
}

const inventoryReads = new WeakMap<Db, ReadBatcher<string, ProviderInventories>>();

/**
 * A provider's generation and inventory records, found by uuid in one query shared with the
 * other reads of the same turn (the read path is hot). Undefined: no such provider.
 */
export function inventoriesOfProvider(
  db: Db,
  uuid: string,
): Promise<ProviderInventories | undefined> {
  return batcherFor(inventoryReads, db, inventoriesOfProviders).load(uuid);
}

/** One record, or undefined when the provider has no inventory of the class. */
export async function findInventory(
  db: Db,
  providerId: number,
  resourceClassId: number,
): Promise<InventoryRecord | undefined> {
  const row = await db
    .selectFrom('inventories')
    .select(RECORD_COLUMNS)
    .where('resource_provider_id', '=', providerId)
    .where('resource_class_id', '=', resourceClassId)
    .executeTakeFirst();
  return row === undefined ? undefined : toRecord(row);
}

/** Every record of a provider, read inside the caller's transaction (not batched). */
export async function inventoryRecordsOf(trx: Db, providerId: number): Promise<InventoryRecord[]> {
  const rows = await trx
    .selectFrom('inventories')
    .select(RECORD_COLUMNS)
    .where('resource_provider_id', '=', providerId)
    .execute();
  return rows.map(toRecord);
}

/** Throws InventoryInUseError when allocations use any of the classes on the provider. */
async function assertNotInUse(trx: Db, providerId: number, classIds: number[]): Promise<void> {
  if (classIds.length === 0) return;
  const used = await trx
    .selectFrom('allocations')
    .select('resource_class_id')
    .where('resource_provider_id', '=', providerId)
    .where('resource_class_id', 'in', classIds)
    .groupBy('resource_class_id')
    .orderBy('resource_class_id')
    .execute();
  if (used.length > 0) {
    throw new InventoryInUseError(used.map((row) => Number(row.resource_class_id)));
  }
}

function bump(trx: Db, provider: ProviderVersion): Promise<number> {
  return bumpGeneration(trx, {
    table: 'resource_providers',
    id: provider.id,
    expected: provider.generation,
    set: { updated_at: new Date() },
  });
}

function insertRows(
  trx: Db,
  providerId: number,
  records: ReadonlyMap<number, InventoryFields>,
  now: Date,
) {
  return trx
    .insertInto('inventories')
    .values(
      [...records].map(([classId, fields]) => ({
        resource_provider_id: providerId,
        resource_class_id: classId,
        ...inventoryFields(fields),
        created_at: now,
        updated_at: null,
      })),
    )
    .execute();
}

/** Just the settings of a record (the columns written, and the keys of the wire form). */
export function inventoryFields(fields: InventoryFields): InventoryFields {
  return {
    total: fields.total,
    reserved: fields.reserved,
    min_unit: fields.min_unit,
    max_unit: fields.max_unit,
    step_size: fields.step_size,
    allocation_ratio: fields.allocation_ratio,
  };
}

async function updateRow(
  trx: Db,
  providerId: number,
  classId: number,
  fields: InventoryFields,
): Promise<boolean> {
  const result = await trx
    .updateTable('inventories')
    .set({ ...inventoryFields(fields), updated_at: new Date() })
    .where('resource_provider_id', '=', providerId)
    .where('resource_class_id', '=', classId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Adds inventory of a class the provider lacks; returns the new generation. */
export function addInventory(
  database: Database<PlacementTables>,
  provider: ProviderVersion,
  resourceClassId: number,
  fields: InventoryFields,
): Promise<number> {
  return inTransaction(database, async (trx) => {
    const generation = await bump(trx, provider);
    if ((await findInventory(trx, provider.id, resourceClassId)) !== undefined) {
      throw new InventoryExistsError(resourceClassId);
    }
    await insertRows(trx, provider.id, new Map([[resourceClassId, fields]]), new Date());
    return generation;
  });
}

/** Changes the provider's inventory of one class; returns the new generation. */
export function updateInventory(
  database: Database<PlacementTables>,
  provider: ProviderVersion,
  resourceClassId: number,
  fields: InventoryFields,
): Promise<number> {
  return inTransaction(database, async (trx) => {
    const generation = await bump(trx, provider);
    if (!(await updateRow(trx, provider.id, resourceClassId, fields))) {
      throw new InventoryNotFoundError(resourceClassId);
    }
    return generation;
  });
}

/** Removes the provider's inventory of one class unless allocated; returns the new generation. */
export function deleteInventory(
  database: Database<PlacementTables>,
  provider: ProviderVersion,
  resourceClassId: number,
): Promise<number> {
  return inTransaction(database, async (trx) => {
    const generation = await bump(trx, provider);
    await assertNotInUse(trx, provider.id, [resourceClassId]);
    const result = await trx
      .deleteFrom('inventories')
      .where('resource_provider_id', '=', provider.id)
      .where('resource_class_id', '=', resourceClassId)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw new InventoryNotFoundError(resourceClassId);
    return generation;
  });
}

/**
 * Makes the provider's inventory exactly `records` (class id → settings): adds, updates and
 * removes records; removing a class that allocations use fails. Returns the new generation.
 */
export function replaceInventories(
  database: Database<PlacementTables>,
  provider: ProviderVersion,
  records: ReadonlyMap<number, InventoryFields>,
): Promise<number> {
  return inTransaction(database, (trx) => replaceInventoriesWithin(trx, provider, records));
}

/** replaceInventories inside a transaction the caller holds (the reshaper's). */
export async function replaceInventoriesWithin(
  trx: Db,
  provider: ProviderVersion,
  records: ReadonlyMap<number, InventoryFields>,
): Promise<number> {
  const generation = await bump(trx, provider);
  const existing = await trx
    .selectFrom('inventories')
    .select('resource_class_id')
    .where('resource_provider_id', '=', provider.id)
    .execute();
  const existingIds = new Set(existing.map((row) => Number(row.resource_class_id)));
  const toDelete = [...existingIds].filter((id) => !records.has(id));
  const toAdd = new Map([...records].filter(([id]) => !existingIds.has(id)));
  const toUpdate = [...records].filter(([id]) => existingIds.has(id));
  if (toDelete.length > 0) {
    await assertNotInUse(trx, provider.id, toDelete);
    await trx
      .deleteFrom('inventories')
      .where('resource_provider_id', '=', provider.id)
      .where('resource_class_id', 'in', toDelete)
      .execute();
  }
  if (toAdd.size > 0) await insertRows(trx, provider.id, toAdd, new Date());
  for (const [classId, fields] of toUpdate) {
    if (!(await updateRow(trx, provider.id, classId, fields))) {
      throw new InventoryNotFoundError(classId);
    }
  }
  return generation;
}
