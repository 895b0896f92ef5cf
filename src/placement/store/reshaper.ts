/**
 * POST /reshaper's write: providers' inventories and their consumers' allocations replaced in
 * one transaction, all or nothing. As the reference does it, in three steps: an interim
 * inventory (the new records plus the old ones about to go, so moving allocations always have
 * somewhere to be), then the allocations (the allocation writer's own checks and generation
 * bumps), then the final inventory (a class still allocated cannot go).
 */
import { ConcurrentUpdateError, type Database, inTransaction } from '../../db/index.ts';
import { type ConsumerWrite, type WriteOptions, writeAllocationsWithin } from './allocations.ts';
import {
  type InventoryFields,
  InventoryInUseError,
  inventoryFields,
  inventoryRecordsOf,
  type ProviderVersion,
  replaceInventoriesWithin,
} from './inventories.ts';
import type { PlacementTables } from './tables.ts';

export interface ProviderReshape {
  /** The provider with the generation the caller saw. */
  readonly provider: ProviderVersion;
  /** Class id → settings: the provider's whole inventory afterwards. */
  readonly records: ReadonlyMap<number, InventoryFields>;
}

/** The final inventory would drop classes allocations still use on this provider. */
export class ReshapeInventoryInUseError extends Error {
  override name = 'ReshapeInventoryInUseError';
  readonly providerId: number;
  readonly resourceClassIds: readonly number[];
  constructor(providerId: number, resourceClassIds: readonly number[]) {
    super(`inventory of classes ${resourceClassIds.join(', ')} on provider ${providerId} in use`);
    this.providerId = providerId;
    this.resourceClassIds = resourceClassIds;
  }
}

export async function reshape(
  database: Database<PlacementTables>,
  inventories: readonly ProviderReshape[],
  writes: readonly ConsumerWrite[],
  options: WriteOptions,
): Promise<void> {
  await inTransaction(database, async (trx) => {
    // Lock the providers (id order) and hold them to the generations the caller saw.
    const ids = inventories.map(({ provider }) => provider.id);
    const locking = trx
      .selectFrom('resource_providers')
      .select(['id', 'generation'])
      .where('id', 'in', ids)
      .orderBy('id');
    const locked = await (database.caps.singleWriter ? locking : locking.forUpdate()).execute();
    const seen = new Map(locked.map((row) => [Number(row.id), Number(row.generation)]));
    for (const { provider } of inventories) {
      if (seen.get(provider.id) !== provider.generation) {
        throw new ConcurrentUpdateError('resource_providers', provider.id, provider.generation);
      }
    }
    const generations = new Map<number, number>();
    for (const { provider, records } of inventories) {
      generations.set(provider.id, provider.generation);
      // Nothing to add: the interim step would only rewrite what is there.
      if (records.size === 0) continue;
      const interim = new Map<number, InventoryFields>();
      for (const record of await inventoryRecordsOf(trx, provider.id))
        interim.set(record.resource_class_id, inventoryFields(record));
      for (const [classId, fields] of records) interim.set(classId, fields);
      generations.set(provider.id, await replaceInventoriesWithin(trx, provider, interim));
    }

    if (writes.length > 0) await writeAllocationsWithin(trx, database, writes, options);

    // The allocation write moved the generations of the providers it touched.
    const rows = await trx
      .selectFrom('resource_providers')
      .select(['id', 'generation'])
      .where('id', 'in', ids)
      .execute();
    for (const row of rows) generations.set(Number(row.id), Number(row.generation));
    for (const { provider, records } of inventories) {
      const generation = generations.get(provider.id) ?? provider.generation;
      try {
        await replaceInventoriesWithin(trx, { ...provider, generation }, records);
      } catch (error) {
        if (error instanceof InventoryInUseError) {
          throw new ReshapeInventoryInUseError(provider.id, error.resourceClassIds);
        }
        throw error;
      }
    }
  });
}
