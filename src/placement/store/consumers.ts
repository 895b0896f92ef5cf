/**
 * Consumer records: who holds allocations (project, user, type) and the consumer generation
 * that guards concurrent replacement of a consumer's allocations (the consumer-generation spec).
 */
import { type Kysely, sql } from 'kysely';
import { type Capabilities, insertOneOrIgnore } from '../../db/index.ts';
import type { PlacementTables } from './tables.ts';

export interface ConsumerRow {
  readonly id: number;
  readonly uuid: string;
  readonly projectId: number;
  readonly userId: number;
  readonly generation: number;
  readonly consumerTypeId: number | null;
}

type Db = Kysely<PlacementTables>;

/** The consumers among `uuids` that have a record, by uuid. */
export async function findConsumers(
  db: Db,
  uuids: readonly string[],
): Promise<Map<string, ConsumerRow>> {
  const found = new Map<string, ConsumerRow>();
  if (uuids.length === 0) return found;
  const rows = await db
    .selectFrom('consumers')
    .select(['id', 'uuid', 'project_id', 'user_id', 'generation', 'consumer_type_id'])
    .where('uuid', 'in', uuids)
    .execute();
  for (const row of rows) found.set(row.uuid, consumerRow(row));
  return found;
}

/** A consumers row as the driver returns it (numbers may come back as strings). */
export function consumerRow(row: {
  id: number | string | null;
  uuid: string;
  project_id: number | string | null;
  user_id: number | string | null;
  generation: number | string | null;
  consumer_type_id: number | string | null;
}): ConsumerRow {
  return {
    id: Number(row.id),
    uuid: row.uuid,
    projectId: Number(row.project_id),
    userId: Number(row.user_id),
    generation: Number(row.generation),
    consumerTypeId: row.consumer_type_id === null ? null : Number(row.consumer_type_id),
  };
}

export interface NewConsumer {
  readonly uuid: string;
  readonly projectId: number;
  readonly userId: number;
  readonly consumerTypeId: number | null;
  /** 0, or 1 when the same transaction gives it allocations (saves the separate bump). */
  readonly generation: number;
}

/**
 * Inserts the consumer unless a record with its uuid exists (a concurrent writer created it
 * first). True when this call created it.
 */
export async function insertConsumer(
  db: Db,
  caps: Capabilities,
  consumer: NewConsumer,
): Promise<boolean> {
  const now = new Date();
  const values = {
    uuid: consumer.uuid,
    project_id: consumer.projectId,
    user_id: consumer.userId,
    generation: consumer.generation,
    consumer_type_id: consumer.consumerTypeId,
    created_at: now,
    updated_at: now,
  };
  return insertOneOrIgnore(db, caps, 'consumers', values, ['uuid']);
}

/**
 * Sets the owner and type of an existing consumer without touching its generation (the
 * allocation write that follows bumps it). Like the real service, the update only applies
 * while the generation is still the one read.
 */
export async function updateConsumer(
  db: Db,
  consumer: ConsumerRow,
  changes: { projectId: number; userId: number; consumerTypeId: number | null },
): Promise<void> {
  await db
    .updateTable('consumers')
    .set({
      project_id: changes.projectId,
      user_id: changes.userId,
      consumer_type_id: changes.consumerTypeId,
      updated_at: new Date(),
    })
    .where('id', '=', consumer.id)
    .where('generation', '=', consumer.generation)
    .execute();
}

/** `DELETE FROM consumers` limited to consumers that hold no allocation. */
export function deleteConsumersHoldingNothing(db: Db) {
  return db
    .deleteFrom('consumers')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('allocations')
            .select(sql`1`.as('one'))
            .whereRef('allocations.consumer_id', '=', 'consumers.uuid'),
        ),
      ),
    );
}

/** Deletes those of `uuids` whose consumer has no allocation left. */
export async function deleteConsumersWithoutAllocations(
  db: Db,
  uuids: readonly string[],
): Promise<void> {
  if (uuids.length === 0) return;
  await deleteConsumersHoldingNothing(db).where('uuid', 'in', uuids).execute();
}
