/**
 * The allocation write one statement per step, for every backend (SQLite and MariaDB always;
 * PostgreSQL inside the reshaper's transaction): consumer records and generations (the consumer-generation spec),
 * capacity and unit constraints, provider generations, after locking the providers it
 * touches. PostgreSQL's usual path does the same in fewer statements (allocation-write-pg.ts).
 */
import { type Kysely, sql } from 'kysely';
import {
  bumpGeneration,
  type Capabilities,
  ConcurrentUpdateError,
  type Database,
} from '../../db/index.ts';
import {
  type ConsumerWrite,
  checkCapacity,
  checkConsumerGeneration,
  checkProvidersExist,
  classIdsNamed,
  type InventoryRow,
  inventoryKey,
  inventoryRow,
  ownerAfter,
  type PlannedAllocation,
  type ProviderRef,
  planAllocations,
  providersNamed,
  type WriteOptions,
} from './allocation-rules.ts';
import {
  type ConsumerRow,
  deleteConsumersHoldingNothing,
  deleteConsumersWithoutAllocations,
  findConsumers,
  insertConsumer,
  updateConsumer,
} from './consumers.ts';
import type { PlacementTables } from './tables.ts';

type Db = Kysely<PlacementTables>;

/** Replaces the allocations of every consumer in `writes` inside the caller's transaction. */
export async function writeInSteps(
  trx: Db,
  database: Database<PlacementTables>,
  writes: readonly ConsumerWrite[],
  options: WriteOptions,
): Promise<void> {
  const consumerUuids = writes.map((w) => w.consumerUuid);
  const providerUuids = providersNamed(writes);
  const knownClassIds = classIdsNamed(writes, options.classIds);

  // Removing all of a consumer's allocations still touches the providers it held.
  const emptied = writes.filter((w) => w.allocations.length === 0).map((w) => w.consumerUuid);
  const removed = await heldAllocations(trx, emptied);
  // Every provider this write touches is locked first (in one statement, in id order): writers
  // sharing a provider queue here instead of failing their generation bump and starting over,
  // and the usage read next (a later statement, so a fresh snapshot) cannot change before
  // commit. Where the backend returns updated rows, the lock is the generation bump itself.
  const lockedUuids = [...new Set([...providerUuids, ...removed.map((r) => r.providerUuid)])];
  const bumpedEarly = database.caps.returning;
  const providers = bumpedEarly
    ? await lockAndBumpProviders(trx, database.caps, lockedUuids)
    : await lockProviders(trx, database.caps, lockedUuids);
  const inventories = await readInventories(
    trx,
    providerUuids.flatMap((uuid) => providers.get(uuid)?.id ?? []),
    knownClassIds,
    consumerUuids,
  );
  const consumers = await findConsumers(trx, consumerUuids);

  if (options.order === 'put') checkProvidersExist(providerUuids, providers);
  // Consumers created here: they hold no earlier state, so they need no generation bump.
  const created = new Set<string>();
  const existing = new Map<string, ConsumerRow>();
  for (const write of writes) {
    const consumer = await ensureConsumer(trx, database, write, consumers.get(write.consumerUuid));
    if (consumer === undefined) created.add(write.consumerUuid);
    else existing.set(write.consumerUuid, consumer);
  }
  if (options.order === 'post') checkProvidersExist(providerUuids, providers);

  const planned = planAllocations(writes, providers, options.classIds);
  checkCapacity(planned, inventories, options.classIds);

  await replaceAllocationRows(trx, consumerUuids, planned);

  // Provider generations move so other writers (inventory changes) notice the new usage.
  const touched = new Set<number>();
  for (const a of planned) touched.add(a.provider.id);
  for (const r of removed) {
    const provider = providers.get(r.providerUuid);
    if (provider !== undefined) touched.add(provider.id);
  }
  const now = new Date();
  if (touched.size > 0 && !bumpedEarly) {
    // The rows are locked, so their generations are still the ones read: one statement bumps all.
    const result = await trx
      .updateTable('resource_providers')
      .set((eb) => ({ generation: eb('generation', '+', 1), updated_at: now }))
      .where('id', 'in', [...touched])
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== touched.size) {
      throw new ConcurrentUpdateError('resource_providers', [...touched].join(','), -1);
    }
  }

  // Every consumer this write touched moves to a new generation (a new one starts at 1);
  // those left holding nothing are then deleted, as the real service does.
  const holding = new Set(planned.map((a) => a.consumerUuid));
  const visited = new Set([...holding, ...removed.map((r) => r.consumerUuid)]);
  const bumped = [...existing.values()].filter((c) => visited.has(c.uuid));
  for (const consumer of bumped.sort((a, b) => a.id - b.id)) {
    if (holding.has(consumer.uuid)) {
      await bumpGeneration(trx, {
        table: 'consumers',
        id: consumer.id,
        expected: consumer.generation,
        set: { updated_at: now },
      });
    } else {
      // Emptied: deleted at the generation read, which checks it as a bump would (one statement).
      await deleteEmptiedConsumer(trx, consumer);
    }
  }
  const emptiedVisited = [...visited].filter((uuid) => !holding.has(uuid) && !existing.has(uuid));
  await deleteConsumersWithoutAllocations(trx, emptiedVisited);
}

/** Deletes an emptied consumer if it is still at the generation read; else a concurrent write. */
async function deleteEmptiedConsumer(trx: Db, consumer: ConsumerRow): Promise<void> {
  const result = await deleteConsumersHoldingNothing(trx)
    .where('id', '=', consumer.id)
    .where('generation', '=', consumer.generation)
    .executeTakeFirst();
  if (Number(result.numDeletedRows) !== 1) {
    throw new ConcurrentUpdateError('consumers', consumer.id, consumer.generation);
  }
}

/** Replaces the consumers' allocation rows. */
async function replaceAllocationRows(
  trx: Db,
  consumerUuids: readonly string[],
  planned: readonly PlannedAllocation[],
): Promise<void> {
  const now = new Date();
  const rows = planned.map((a) => ({
    resource_provider_id: a.provider.id,
    consumer_id: a.consumerUuid,
    resource_class_id: a.classId,
    used: a.used,
    created_at: now,
    updated_at: null,
  }));
  if (consumerUuids.length > 0) {
    await trx.deleteFrom('allocations').where('consumer_id', 'in', consumerUuids).execute();
  }
  // In slices: one statement for 12,000 rows (a reshape of 1,000 consumers) would pass the
  // bound parameters a statement may carry (SQLite 32,766; PostgreSQL and MariaDB 65,535).
  for (let start = 0; start < rows.length; start += ALLOCATION_ROWS_PER_INSERT) {
    await trx
      .insertInto('allocations')
      .values(rows.slice(start, start + ALLOCATION_ROWS_PER_INSERT))
      .execute();
  }
}

/** 6 parameters a row: 6,000 a statement, well within every backend's bound. */
const ALLOCATION_ROWS_PER_INSERT = 1_000;

/**
 * Finds or creates the consumer record and checks the caller's generation (the consumer-generation spec).
 * Returns the existing record, or undefined when this write created it.
 */
async function ensureConsumer(
  trx: Db,
  database: Database<PlacementTables>,
  write: ConsumerWrite,
  found: ConsumerRow | undefined,
): Promise<ConsumerRow | undefined> {
  checkConsumerGeneration(write, found);
  let consumer = found;
  if (consumer === undefined) {
    const inserted = await insertConsumer(trx, database.caps, {
      uuid: write.consumerUuid,
      projectId: write.owner.projectId,
      userId: write.owner.userId,
      consumerTypeId: write.consumerTypeId ?? null,
      generation: write.allocations.length > 0 ? 1 : 0,
    });
    if (inserted) return undefined;
    // Another writer created it since it was read.
    if (write.expectedGeneration !== undefined) {
      throw new ConcurrentUpdateError('consumers', write.consumerUuid, 0);
    }
    consumer = (await findConsumers(trx, [write.consumerUuid])).get(write.consumerUuid);
    if (consumer === undefined) throw new ConcurrentUpdateError('consumers', write.consumerUuid, 0);
  }
  const owner = ownerAfter(write, consumer);
  if (owner.changed) await updateConsumer(trx, consumer, owner);
  return consumer;
}

/**
 * Locks the providers' rows (in id order, so writers never deadlock) and bumps their
 * generations in ONE statement: the bump every allocation write makes anyway, moved first.
 * Returns them with their new generations. Needs `UPDATE … RETURNING`.
 */
async function lockAndBumpProviders(
  trx: Db,
  caps: Capabilities,
  uuids: readonly string[],
): Promise<Map<string, ProviderRef>> {
  if (uuids.length === 0) return new Map();
  const inIdOrder = trx
    .selectFrom('resource_providers')
    .select('id')
    .where('uuid', 'in', uuids)
    .orderBy('id');
  const rows = await trx
    .updateTable('resource_providers')
    .set((eb) => ({ generation: eb('generation', '+', 1), updated_at: new Date() }))
    .where('id', 'in', caps.singleWriter ? inIdOrder : inIdOrder.forUpdate())
    .returning(['id', 'uuid', 'generation'])
    .execute();
  return providerRefs(rows);
}

/** Locks the providers' rows (SQLite's writer lock already covers them); by uuid. */
async function lockProviders(
  trx: Db,
  caps: Capabilities,
  uuids: readonly string[],
): Promise<Map<string, ProviderRef>> {
  if (uuids.length === 0) return new Map();
  const query = trx
    .selectFrom('resource_providers')
    .select(['id', 'uuid', 'generation'])
    .where('uuid', 'in', uuids)
    .orderBy('id');
  return providerRefs(await (caps.singleWriter ? query : query.forUpdate()).execute());
}

/** Provider rows by uuid (ids and generations may come back as strings). */
function providerRefs(
  rows: readonly { id: number; uuid: string; generation: number }[],
): Map<string, ProviderRef> {
  const providers = new Map<string, ProviderRef>();
  for (const row of rows) {
    providers.set(row.uuid, {
      id: Number(row.id),
      uuid: row.uuid,
      generation: Number(row.generation),
    });
  }
  return providers;
}

/** Per (provider, class): the inventory and what consumers outside this write use of it. */
async function readInventories(
  trx: Db,
  providerIds: readonly number[],
  classIds: readonly number[],
  consumerUuids: readonly string[],
): Promise<Map<string, InventoryRow>> {
  const inventories = new Map<string, InventoryRow>();
  if (providerIds.length === 0 || classIds.length === 0) return inventories;
  const rows = await trx
    .selectFrom('inventories as inv')
    .select([
      'inv.resource_provider_id',
      'inv.resource_class_id',
      'inv.total',
      'inv.reserved',
      'inv.min_unit',
      'inv.max_unit',
      'inv.step_size',
      'inv.allocation_ratio',
      usedOutside(consumerUuids).as('used'),
    ])
    .where('inv.resource_provider_id', 'in', providerIds)
    .where('inv.resource_class_id', 'in', classIds)
    .execute();
  for (const row of rows) {
    inventories.set(
      inventoryKey(Number(row.resource_provider_id), Number(row.resource_class_id)),
      inventoryRow(row),
    );
  }
  return inventories;
}

/** What consumers other than this write's use of the inventory row `inv` (null: nothing). */
function usedOutside(consumerUuids: readonly string[]) {
  return sql<number | string | null>`(select sum(a.used) from allocations a
    where a.resource_provider_id = inv.resource_provider_id
      and a.resource_class_id = inv.resource_class_id
      and a.consumer_id not in (${sql.join(consumerUuids)}))`;
}

/** The providers the emptied consumers hold allocations on now. */
async function heldAllocations(
  trx: Db,
  consumerUuids: readonly string[],
): Promise<{ consumerUuid: string; providerUuid: string }[]> {
  if (consumerUuids.length === 0) return [];
  const rows = await trx
    .selectFrom('allocations as a')
    .innerJoin('resource_providers as rp', 'rp.id', 'a.resource_provider_id')
    .select(['a.consumer_id', 'rp.uuid'])
    .where('a.consumer_id', 'in', consumerUuids)
    .execute();
  return rows.map((row) => ({ consumerUuid: row.consumer_id, providerUuid: row.uuid }));
}
