/**
 * Allocations: reading them by consumer or by provider, deleting a consumer's, and the write
 * that replaces the allocations of one or more consumers at once, in one transaction, retried
 * when it lost a race it can win by running again. The write itself: allocation-rules.ts
 * (what is checked, in which order), allocation-write-pg.ts (PostgreSQL, two statements) and
 * allocation-write-steps.ts (the other backends, a statement per step).
 */
import { type Kysely, sql } from 'kysely';
import { ConcurrentUpdateError, type Database, inTransaction } from '../../db/index.ts';
import { type ConsumerWrite, isTransientConflict, type WriteOptions } from './allocation-rules.ts';
import { ConsumerCreatedMeanwhileError, writeInTwoStatements } from './allocation-write-pg.ts';
import { writeInSteps } from './allocation-write-steps.ts';
import { deleteConsumersWithoutAllocations } from './consumers.ts';
import type { PlacementTables } from './tables.ts';

export {
  ConsumerGenerationConflictError,
  type ConsumerWrite,
  InvalidInventoryError,
  ProviderNotFoundError,
  ResourceClassNotFoundError,
  type WriteOptions,
} from './allocation-rules.ts';

type Db = Kysely<PlacementTables>;
type Timestamp = Date | string | null;

// ---------------------------------------------------------------------------------------------
// Reads

export interface ConsumerAllocationRow {
  readonly providerUuid: string;
  readonly providerGeneration: number;
  readonly resourceClassId: number;
  readonly used: number;
  readonly createdAt: Timestamp;
  readonly updatedAt: Timestamp;
}

export interface ConsumerAllocations {
  readonly projectExternalId: string;
  readonly userExternalId: string;
  readonly generation: number;
  readonly consumerTypeId: number | null;
  readonly allocations: readonly ConsumerAllocationRow[];
}

/**
 * A consumer's allocations with its owner, generation and type, in one query. Allocations
 * whose consumer has no record are not shown, as in the real service.
 */
export async function allocationsOfConsumer(
  db: Db,
  consumerUuid: string,
): Promise<ConsumerAllocations | undefined> {
  const rows = await db
    .selectFrom('allocations as a')
    .innerJoin('resource_providers as rp', 'rp.id', 'a.resource_provider_id')
    .innerJoin('consumers as c', 'c.uuid', 'a.consumer_id')
    .innerJoin('projects as p', 'p.id', 'c.project_id')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .select([
      'rp.uuid as provider_uuid',
      'rp.generation as provider_generation',
      'a.resource_class_id',
      'a.used',
      'a.created_at',
      'a.updated_at',
      'c.generation as consumer_generation',
      'c.consumer_type_id',
      'p.external_id as project_external_id',
      'u.external_id as user_external_id',
    ])
    .where('a.consumer_id', '=', consumerUuid)
    .execute();
  const first = rows[0];
  if (first === undefined) return undefined;
  return {
    projectExternalId: first.project_external_id,
    userExternalId: first.user_external_id,
    generation: Number(first.consumer_generation),
    consumerTypeId: first.consumer_type_id === null ? null : Number(first.consumer_type_id),
    allocations: rows.map((row) => ({
      providerUuid: row.provider_uuid,
      providerGeneration: Number(row.provider_generation),
      resourceClassId: Number(row.resource_class_id),
      used: Number(row.used),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    })),
  };
}

export interface ProviderAllocationRow {
  readonly consumerUuid: string;
  readonly consumerGeneration: number;
  readonly resourceClassId: number;
  readonly used: number;
  readonly createdAt: Timestamp;
  readonly updatedAt: Timestamp;
}

/** The allocations against one provider, with each consumer's generation. */
export async function allocationsOfProvider(
  db: Db,
  providerId: number,
): Promise<ProviderAllocationRow[]> {
  const rows = await db
    .selectFrom('allocations as a')
    .innerJoin('consumers as c', 'c.uuid', 'a.consumer_id')
    .innerJoin('projects as p', 'p.id', 'c.project_id')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .select([
      'a.consumer_id',
      'c.generation',
      'a.resource_class_id',
      'a.used',
      'a.created_at',
      'a.updated_at',
    ])
    .where('a.resource_provider_id', '=', providerId)
    .execute();
  return rows.map((row) => ({
    consumerUuid: row.consumer_id,
    consumerGeneration: Number(row.generation),
    resourceClassId: Number(row.resource_class_id),
    used: Number(row.used),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }));
}

/**
 * Deletes a consumer's allocations, then the consumer record. False when the consumer has no
 * allocation (or no record: such allocations are invisible, as in the real service).
 */
export async function deleteAllocationsOfConsumer(
  database: Database<PlacementTables>,
  consumerUuid: string,
): Promise<boolean> {
  return inTransaction(database, async (trx) => {
    const result = await trx
      .deleteFrom('allocations')
      .where('consumer_id', '=', consumerUuid)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('consumers')
            .select(sql`1`.as('one'))
            .where('consumers.uuid', '=', consumerUuid),
        ),
      )
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) return false;
    await deleteConsumersWithoutAllocations(trx, [consumerUuid]);
    return true;
  });
}

// ---------------------------------------------------------------------------------------------
// The write path

/** The largest value of the `integer` columns amounts are stored in (PostgreSQL's int4). */
const MAX_STORED_AMOUNT = 2 ** 31 - 1;

/**
 * Whether every amount fits the `used` column. The two-statement path writes the rows before
 * it checks capacity, so a larger amount would fail in the database (a 500); the step path
 * checks capacity first and refuses it as the real service does (409: no max_unit is that big).
 */
function fitsIntegerColumns(writes: readonly ConsumerWrite[]): boolean {
  for (const write of writes) {
    for (const allocation of write.allocations) {
      for (const [, amount] of allocation.resources) if (amount > MAX_STORED_AMOUNT) return false;
    }
  }
  return true;
}

/**
 * Replaces the allocations of every consumer in `writes`, all or nothing. Throws
 * allocation-rules.ts' errors, or ConcurrentUpdateError when a consumer's generation moved
 * under the write or a provider's kept moving through every retry.
 */
export async function writeAllocations(
  database: Database<PlacementTables>,
  writes: readonly ConsumerWrite[],
  options: WriteOptions,
): Promise<void> {
  const retries = options.retries ?? 10;
  let transient = 0;
  for (let attempt = 1; ; attempt++) {
    try {
      await inTransaction(database, (trx) =>
        database.caps.writableCte && fitsIntegerColumns(writes)
          ? writeInTwoStatements(trx, writes, options)
          : writeInSteps(trx, database, writes, options),
      );
      return;
    } catch (error) {
      const race =
        error instanceof ConsumerCreatedMeanwhileError ||
        (error instanceof ConcurrentUpdateError && error.table === 'resource_providers');
      if (race && attempt < retries) continue;
      if (isTransientConflict(error) && transient++ < 5) continue;
      throw error;
    }
  }
}

/**
 * The write path inside a transaction the caller already holds (the reshaper's): no retries,
 * the caller's transaction rolls everything back on any error.
 */
export function writeAllocationsWithin(
  trx: Db,
  database: Database<PlacementTables>,
  writes: readonly ConsumerWrite[],
  options: WriteOptions,
): Promise<void> {
  return writeInSteps(trx, database, writes, options);
}
