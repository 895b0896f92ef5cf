/**
 * Trait rows and their association with resource providers: filtered listing, lookup,
 * creating and deleting custom traits, and replacing a provider's set of traits under its
 * generation.
 */
import type { Kysely } from 'kysely';
import {
  bumpGeneration,
  type Database,
  inTransaction,
  isDuplicateKeyError,
} from '../../db/index.ts';
import { pythonSetDifferenceOrder } from './python-set-order.ts';
import type { PlacementTables } from './tables.ts';

export interface TraitRow {
  readonly id: number;
  readonly name: string;
  readonly created_at: Date | string | null;
  readonly updated_at: Date | string | null;
}

export interface TraitFilters {
  /** Only these names. */
  readonly nameIn?: readonly string[];
  /** Only names SQL-`LIKE` this prefix (as the real service matches it). */
  readonly prefix?: string;
  /** Only traits some provider has (true) or no provider has (false). */
  readonly associated?: boolean;
}

function toRow(row: {
  id: number | string;
  name: string;
  created_at: Date | string | null;
  updated_at: Date | string | null;
}): TraitRow {
  return { ...row, id: Number(row.id) };
}

export async function listTraits(
  db: Kysely<PlacementTables>,
  filters: TraitFilters = {},
): Promise<TraitRow[]> {
  if (filters.nameIn !== undefined && filters.nameIn.length === 0) return [];
  let query = db
    .selectFrom('traits as t')
    .select(['t.id', 't.name', 't.created_at', 't.updated_at'])
    .orderBy('t.name');
  if (filters.nameIn !== undefined) query = query.where('t.name', 'in', [...filters.nameIn]);
  if (filters.prefix !== undefined) query = query.where('t.name', 'like', `${filters.prefix}%`);
  if (filters.associated !== undefined) {
    const wanted = filters.associated;
    query = query.where((eb) => {
      const used = eb
        .selectFrom('resource_provider_traits as rpt')
        .select('rpt.trait_id')
        .whereRef('rpt.trait_id', '=', 't.id');
      return wanted ? eb.exists(used) : eb.not(eb.exists(used));
    });
  }
  return (await query.execute()).map(toRow);
}

export async function findTrait(
  db: Kysely<PlacementTables>,
  name: string,
): Promise<TraitRow | undefined> {
  // No name holds a NUL, and PostgreSQL refuses one in a parameter.
  if (name.includes('\0')) return undefined;
  const row = await db
    .selectFrom('traits')
    .select(['id', 'name', 'created_at', 'updated_at'])
    .where('name', '=', name)
    .executeTakeFirst();
  return row === undefined ? undefined : toRow(row);
}

/** Inserts a trait and returns its creation time; undefined when the name is taken already. */
export async function createTrait(
  db: Kysely<PlacementTables>,
  name: string,
): Promise<Date | undefined> {
  const now = new Date();
  try {
    await db.insertInto('traits').values({ name, created_at: now, updated_at: null }).execute();
  } catch (error) {
    if (isDuplicateKeyError(error)) return undefined;
    throw error;
  }
  return now;
}

export type DeleteTraitResult = 'deleted' | 'in-use' | 'missing';

/** Deletes a trait unless a provider has it. */
export async function deleteTrait(
  database: Database<PlacementTables>,
  id: number,
): Promise<DeleteTraitResult> {
  return inTransaction(database, async (trx) => {
    const used = await trx
      .selectFrom('resource_provider_traits')
      .select('trait_id')
      .where('trait_id', '=', id)
      .limit(1)
      .executeTakeFirst();
    if (used !== undefined) return 'in-use';
    const result = await trx.deleteFrom('traits').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) === 0 ? 'missing' : 'deleted';
  });
}

/** The traits a provider has, by name. */
export async function traitsOfProvider(
  db: Kysely<PlacementTables>,
  providerId: number,
): Promise<TraitRow[]> {
  const rows = await db
    .selectFrom('traits as t')
    .innerJoin('resource_provider_traits as rpt', 'rpt.trait_id', 't.id')
    .select(['t.id', 't.name', 't.created_at', 't.updated_at'])
    .where('rpt.resource_provider_id', '=', providerId)
    .orderBy('t.name')
    .execute();
  return rows.map(toRow);
}

/**
 * Makes `traitIds` the provider's whole set of traits. The generation moves only when the set
 * changes (as in the real service); a writer that read an older generation gets
 * ConcurrentUpdateError. Returns the provider's generation afterwards.
 */
export async function setProviderTraits(
  database: Database<PlacementTables>,
  provider: { readonly id: number; readonly generation: number },
  traitIds: readonly number[],
): Promise<number> {
  const existing = new Set(
    (
      await database.kysely
        .selectFrom('resource_provider_traits')
        .select('trait_id')
        .where('resource_provider_id', '=', provider.id)
        .execute()
    ).map((row) => Number(row.trait_id)),
  );
  const wanted = new Set(traitIds);
  // Added in the order the real service inserts them (python-set-order.ts): its set of the
  // wanted ids is built from the traits table in id order.
  const toAdd = pythonSetDifferenceOrder(
    [...wanted].sort((a, b) => a - b),
    existing,
  );
  const toDelete = [...existing].filter((id) => !wanted.has(id));
  if (toAdd.length === 0 && toDelete.length === 0) return provider.generation;

  const now = new Date();
  return inTransaction(database, async (trx) => {
    // The generation first: its row lock orders concurrent writers of this provider, and a
    // writer whose view is stale stops here before touching the associations.
    const generation = await bumpGeneration(trx, {
      table: 'resource_providers',
      id: provider.id,
      expected: provider.generation,
      set: { updated_at: now },
    });
    if (toDelete.length > 0) {
      await trx
        .deleteFrom('resource_provider_traits')
        .where('resource_provider_id', '=', provider.id)
        .where('trait_id', 'in', toDelete)
        .execute();
    }
    if (toAdd.length > 0) {
      await trx
        .insertInto('resource_provider_traits')
        .values(
          toAdd.map((traitId) => ({
            trait_id: traitId,
            resource_provider_id: provider.id,
            created_at: now,
            updated_at: null,
          })),
        )
        .execute();
    }
    return generation;
  });
}
