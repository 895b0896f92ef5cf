/**
 * Usage sums: per provider (every class it has inventory of, 0 when unallocated) and per
 * project / user (what their consumers hold, optionally per consumer type).
 */
import { type Kysely, sql } from 'kysely';
import { batcherFor, type ReadBatcher } from './read-batcher.ts';
import type { PlacementTables } from './tables.ts';

type Db = Kysely<PlacementTables>;

export interface ClassUsage {
  readonly resourceClassId: number;
  readonly used: number;
}

export interface ProviderUsages {
  readonly generation: number;
  readonly usages: ClassUsage[];
}

/** The query of usagesOfProviders, exported so a benchmark can time the same SQL bare. */
export function providerUsagesQuery(db: Db, uuids: readonly string[]) {
  return db
    .selectFrom('resource_providers as rp')
    .leftJoin('inventories as i', 'i.resource_provider_id', 'rp.id')
    .leftJoin('allocations as a', (join) =>
      join
        .onRef('a.resource_provider_id', '=', 'i.resource_provider_id')
        .onRef('a.resource_class_id', '=', 'i.resource_class_id'),
    )
    .select([
      'rp.uuid',
      'rp.generation',
      'i.resource_class_id',
      sql<number | string>`coalesce(sum(a.used), 0)`.as('used'),
    ])
    .where('rp.uuid', 'in', uuids)
    .groupBy(['rp.uuid', 'rp.generation', 'i.resource_class_id'])
    .orderBy('i.resource_class_id');
}

/** Generation and per-class usage of each provider found, by uuid, in one query. */
async function usagesOfProviders(
  db: Db,
  uuids: readonly string[],
): Promise<Map<string, ProviderUsages>> {
  const rows = await providerUsagesQuery(db, uuids).execute();
  const found = new Map<string, ProviderUsages>();
  for (const row of rows) {
    let entry = found.get(row.uuid);
    if (entry === undefined) {
      entry = { generation: Number(row.generation), usages: [] };
      found.set(row.uuid, entry);
    }
    if (row.resource_class_id !== null) {
      entry.usages.push({ resourceClassId: Number(row.resource_class_id), used: Number(row.used) });
    }
  }
  return found;
}

const usageReads = new WeakMap<Db, ReadBatcher<string, ProviderUsages>>();

/**
 * A provider's generation and the usage of each class it has inventory of, found by uuid in
 * one query shared with the other reads of the same turn. Undefined: no such provider.
 */
export function usagesOfProvider(db: Db, uuid: string): Promise<ProviderUsages | undefined> {
  return batcherFor(usageReads, db, usagesOfProviders).load(uuid);
}

export interface ConsumerFilter {
  /** The project's external id. */
  readonly projectId: string;
  /** The user's external id, when narrowing to one user. */
  readonly userId?: string | undefined;
}

/** Allocations joined to the consumers of the project (and user) asked for. */
function projectAllocations(db: Db, filter: ConsumerFilter) {
  let query = db
    .selectFrom('allocations as a')
    .innerJoin('consumers as c', 'c.uuid', 'a.consumer_id')
    .innerJoin('projects as p', 'p.id', 'c.project_id')
    .leftJoin('consumer_types as ct', 'ct.id', 'c.consumer_type_id')
    .where('p.external_id', '=', filter.projectId);
  if (filter.userId !== undefined) {
    query = query
      .innerJoin('users as u', 'u.id', 'c.user_id')
      .where('u.external_id', '=', filter.userId);
  }
  return query;
}

/** The usage of each class held by the project's (or user's) consumers. */
export async function projectUsages(db: Db, filter: ConsumerFilter): Promise<ClassUsage[]> {
  const rows = await projectAllocations(db, filter)
    .select(['a.resource_class_id', sql<number | string>`sum(a.used)`.as('used')])
    .groupBy('a.resource_class_id')
    .orderBy('a.resource_class_id')
    .execute();
  return rows.map((row) => ({
    resourceClassId: Number(row.resource_class_id),
    used: Number(row.used),
  }));
}

/** Usage of one consumer type (null: consumers without a type), with its consumer count. */
export interface TypedUsage {
  readonly consumerType: string | null;
  readonly consumerCount: number;
  readonly usages: ClassUsage[];
}

/**
 * What `consumerType` selects: a type name, consumers without a type (`unknown`), every
 * consumer lumped together (`all`), or every type separately (undefined).
 */
export type ConsumerTypeChoice =
  | { readonly kind: 'each' }
  | { readonly kind: 'all' }
  | { readonly kind: 'untyped' }
  | { readonly kind: 'named'; readonly name: string };

/**
 * The project's (or user's) usage grouped by consumer type. Consumers are counted once per
 * type even when they hold several classes.
 */
export async function projectUsagesByConsumerType(
  db: Db,
  filter: ConsumerFilter,
  choice: ConsumerTypeChoice,
): Promise<TypedUsage[]> {
  let base = projectAllocations(db, filter);
  if (choice.kind === 'untyped') base = base.where('c.consumer_type_id', 'is', null);
  if (choice.kind === 'named') base = base.where('ct.name', '=', choice.name);
  const lumped = choice.kind === 'all' || choice.kind === 'untyped';
  // One row per (type, class) with the sums, plus the per-type consumer counts: the counts
  // cannot come from the per-class rows (a consumer holding two classes would count twice).
  const typeName = lumped ? sql<string | null>`null` : sql<string | null>`ct.name`;
  const [sums, counts] = await Promise.all([
    base
      .select([
        typeName.as('type_name'),
        'a.resource_class_id',
        sql<number | string>`sum(a.used)`.as('used'),
      ])
      .$if(!lumped, (query) => query.groupBy('ct.name'))
      .groupBy('a.resource_class_id')
      .orderBy('a.resource_class_id')
      .execute(),
    base
      .select([
        typeName.as('type_name'),
        sql<number | string>`count(distinct a.consumer_id)`.as('consumers'),
      ])
      .$if(!lumped, (query) => query.groupBy('ct.name'))
      .execute(),
  ]);
  const byType = new Map<string | null, TypedUsage>();
  for (const row of counts) {
    const count = Number(row.consumers);
    if (lumped && count === 0) continue;
    byType.set(row.type_name, { consumerType: row.type_name, consumerCount: count, usages: [] });
  }
  for (const row of sums) {
    byType.get(row.type_name)?.usages.push({
      resourceClassId: Number(row.resource_class_id),
      used: Number(row.used),
    });
  }
  return [...byType.values()];
}
