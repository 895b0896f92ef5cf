/**
 * Provider aggregates: a provider's links to aggregate uuids. An aggregate row is made the
 * first time its uuid is linked and kept afterwards (as the real service does).
 */
import type { Kysely } from 'kysely';
import { type Capabilities, insertOrIgnore } from '../../db/index.ts';
import type { PlacementTables } from './tables.ts';

type Db = Kysely<PlacementTables>;

/** The aggregate uuids of a provider, in the order they were first seen. */
export async function providerAggregates(db: Db, providerId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('resource_provider_aggregates as ra')
    .innerJoin('placement_aggregates as agg', 'agg.id', 'ra.aggregate_id')
    .select('agg.uuid')
    .where('ra.resource_provider_id', '=', providerId)
    .orderBy('agg.id')
    .execute();
  return rows.map((row) => row.uuid);
}

/**
 * Makes the provider's aggregates exactly `uuids`: creates unknown aggregates, links the new
 * ones, unlinks the others. Runs inside the caller's transaction.
 */
export async function setProviderAggregates(
  trx: Db,
  caps: Capabilities,
  providerId: number,
  uuids: readonly string[],
): Promise<void> {
  const wanted = new Set(uuids);
  const existing = await trx
    .selectFrom('resource_provider_aggregates as ra')
    .innerJoin('placement_aggregates as agg', 'agg.id', 'ra.aggregate_id')
    .select(['agg.id', 'agg.uuid'])
    .where('ra.resource_provider_id', '=', providerId)
    .execute();
  const linked = new Set(existing.map((row) => row.uuid));
  const toLink = [...wanted].filter((uuid) => !linked.has(uuid));
  const toUnlink = existing.filter((row) => !wanted.has(row.uuid)).map((row) => Number(row.id));
  const now = new Date();
  if (toLink.length > 0) {
    const aggregateIds = await aggregateIdsCreatingMissing(trx, caps, toLink, now);
    // Another writer may be linking the same provider (a race its generation check loses).
    await insertOrIgnore(
      trx,
      caps,
      'resource_provider_aggregates',
      aggregateIds.map((aggregateId) => ({
        resource_provider_id: providerId,
        aggregate_id: aggregateId,
        created_at: now,
      })),
      ['resource_provider_id', 'aggregate_id'],
    );
  }
  if (toUnlink.length > 0) {
    await trx
      .deleteFrom('resource_provider_aggregates')
      .where('resource_provider_id', '=', providerId)
      .where('aggregate_id', 'in', toUnlink)
      .execute();
  }
}

/**
 * The ids of the aggregates `uuids`, creating those that do not exist yet (in the order
 * given: an aggregate's id says when it was first seen). Only the missing ones are inserted,
 * so this transaction does not lock aggregates that other providers share; one that another
 * writer creates at the same time is skipped.
 */
async function aggregateIdsCreatingMissing(
  trx: Db,
  caps: Capabilities,
  uuids: readonly string[],
  now: Date,
): Promise<number[]> {
  const find = async () =>
    (
      await trx
        .selectFrom('placement_aggregates')
        .select(['id', 'uuid'])
        .where('uuid', 'in', uuids)
        .execute()
    ).map((row) => ({ id: Number(row.id), uuid: row.uuid }));
  let found = await find();
  if (found.length < uuids.length) {
    const known = new Set(found.map((row) => row.uuid));
    const missing = uuids.filter((uuid) => !known.has(uuid));
    await insertOrIgnore(
      trx,
      caps,
      'placement_aggregates',
      missing.map((uuid) => ({ uuid, created_at: now })),
      ['uuid'],
    );
    found = await find();
  }
  return found.map((row) => row.id);
}
