/**
 * Provider aggregates: a provider's links to aggregate uuids. An aggregate row is made the
 * first time its uuid is linked and kept afterwards (as the real service does).
 */
import type { Kysely } from 'kysely';
import type { Backend } from '../../db/index.ts';
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

/** Inserts rows, skipping those a unique key already holds (another writer may race us). */
async function insertMissing(
  db: Db,
  backend: Backend,
  table: 'placement_aggregates' | 'resource_provider_aggregates',
  rows: readonly Record<string, unknown>[],
  conflictColumns: readonly string[],
): Promise<void> {
  if (rows.length === 0) return;
  // biome-ignore lint/suspicious/noExplicitAny: one insert shape for two tables
  const insert = (db as Kysely<any>).insertInto(table).values([...rows]);
  if (backend === 'mysql') {
    await insert.ignore().execute();
  } else {
    await insert.onConflict((oc) => oc.columns([...conflictColumns]).doNothing()).execute();
  }
}

/**
 * Makes the provider's aggregates exactly `uuids`: creates unknown aggregates, links the new
 * ones, unlinks the others. Runs inside the caller's transaction.
 */
export async function setProviderAggregates(
  trx: Db,
  backend: Backend,
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
    await insertMissing(
      trx,
      backend,
      'placement_aggregates',
      toLink.map((uuid) => ({ uuid, created_at: now })),
      ['uuid'],
    );
    const aggregates = await trx
      .selectFrom('placement_aggregates')
      .select('id')
      .where('uuid', 'in', toLink)
      .execute();
    await insertMissing(
      trx,
      backend,
      'resource_provider_aggregates',
      aggregates.map((row) => ({
        resource_provider_id: providerId,
        aggregate_id: Number(row.id),
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
