/**
 * Listing providers with the filters of `GET /resource_providers`, in one query. The real
 * service applies the filters one by one and stops early with an empty list (a missing
 * `in_tree` provider, required traits or aggregates no provider has) before it would refuse
 * an unknown trait or resource class; those early stops are reproduced, but only computed
 * when an unknown name makes them matter.
 */
import { type ExpressionBuilder, type Kysely, sql } from 'kysely';
import type { ResourceClassCache } from './resource-class-cache.ts';
import {
  type ProviderDetail,
  providerDetailQuery,
  toProviderDetail,
} from './resource-providers.ts';
import type { PlacementTables } from './tables.ts';

type Db = Kysely<PlacementTables>;

export interface ProviderFilters {
  readonly name?: string;
  readonly uuid?: string;
  readonly inTree?: string;
  /** Each set: member of at least one; every set must hold. */
  readonly memberOf?: readonly ReadonlySet<string>[];
  readonly forbiddenAggregates?: ReadonlySet<string>;
  /** Each set: has at least one of the traits; every set must hold. */
  readonly requiredTraits?: readonly ReadonlySet<string>[];
  readonly forbiddenTraits?: ReadonlySet<string>;
  /** Class name → amount the provider must have room for. */
  readonly resources?: ReadonlyMap<string, number>;
}

export class UnknownTraitError extends Error {
  constructor(name: string) {
    super(`No such trait(s): ${name}.`);
    this.name = 'UnknownTraitError';
  }
}

export class UnknownResourceClassError extends Error {
  constructor(name: string) {
    super(`No such resource class ${name}.`);
    this.name = 'UnknownResourceClassError';
  }
}

/** Integer columns hold at most this; a larger amount fits nowhere. */
const MAX_DB_INT = 2_147_483_647;

type RpBuilder = ExpressionBuilder<
  PlacementTables & { rp: PlacementTables['resource_providers'] },
  'rp'
>;

function inAggregates(eb: RpBuilder, uuids: ReadonlySet<string>) {
  return eb.exists(
    eb
      .selectFrom('resource_provider_aggregates as ra')
      .innerJoin('placement_aggregates as agg', 'agg.id', 'ra.aggregate_id')
      .select('ra.aggregate_id')
      .whereRef('ra.resource_provider_id', '=', 'rp.id')
      .where('agg.uuid', 'in', [...uuids]),
  );
}

function hasAnyTrait(eb: RpBuilder, traitIds: readonly number[]) {
  return eb.exists(
    eb
      .selectFrom('resource_provider_traits as rpt')
      .select('rpt.trait_id')
      .whereRef('rpt.resource_provider_id', '=', 'rp.id')
      .where('rpt.trait_id', 'in', traitIds),
  );
}

/** Room for `amount`: used + amount within capacity, within min/max unit, a step multiple. */
function hasCapacity(eb: RpBuilder, classId: number, amount: number) {
  if (amount > MAX_DB_INT) return sql<boolean>`1 = 0`;
  const need = sql.lit(amount);
  return eb.exists(
    eb
      .selectFrom('inventories as inv')
      .select('inv.id')
      .whereRef('inv.resource_provider_id', '=', 'rp.id')
      .where('inv.resource_class_id', '=', classId)
      .where('inv.min_unit', '<=', amount)
      .where('inv.max_unit', '>=', amount)
      .where(sql<boolean>`${need} % inv.step_size = 0`)
      .where(
        sql<boolean>`coalesce((select sum(al.used) from allocations al
          where al.resource_provider_id = inv.resource_provider_id
            and al.resource_class_id = inv.resource_class_id), 0) + ${need}
          <= (inv.total - inv.reserved) * inv.allocation_ratio`,
      ),
  );
}

async function traitIds(db: Db, names: readonly string[]): Promise<Map<string, number>> {
  if (names.length === 0) return new Map();
  const rows = await db
    .selectFrom('traits')
    .select(['id', 'name'])
    .where('name', 'in', [...new Set(names)])
    .execute();
  return new Map(rows.map((row) => [row.name, Number(row.id)]));
}

/** Whether any provider at all passes `where` (for the early-stop checks). */
async function anyProvider(db: Db, where: (eb: RpBuilder) => ReturnType<RpBuilder['exists']>) {
  const row = await db
    .selectFrom('resource_providers as rp')
    .select('rp.id')
    .where((eb) => where(eb as RpBuilder))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export async function listProviders(
  db: Db,
  classes: ResourceClassCache,
  filters: ProviderFilters,
): Promise<ProviderDetail[]> {
  let treeRootId: number | undefined;
  if (filters.inTree) {
    const tree = await db
      .selectFrom('resource_providers')
      .select('root_provider_id')
      .where('uuid', '=', filters.inTree)
      .executeTakeFirst();
    if (tree === undefined || tree.root_provider_id === null) return [];
    treeRootId = Number(tree.root_provider_id);
  }

  const requiredNames = (filters.requiredTraits ?? []).map((set) => [...set]);
  const forbiddenNames = [...(filters.forbiddenTraits ?? [])];
  const ids = await traitIds(db, [...requiredNames.flat(), ...forbiddenNames]);
  const unknownRequired = requiredNames.flat().find((name) => !ids.has(name));
  if (unknownRequired !== undefined) throw new UnknownTraitError(unknownRequired);
  const required = requiredNames.map((names) => names.map((name) => ids.get(name) as number));
  const forbidden = forbiddenNames.flatMap((name) => ids.get(name) ?? []);
  const memberOf = filters.memberOf ?? [];

  const matchesRequired = () =>
    anyProvider(db, (eb) => eb.and(required.map((set) => hasAnyTrait(eb, set))));
  const matchesMemberOf = () =>
    anyProvider(db, (eb) => eb.and(memberOf.map((set) => inAggregates(eb, set))));

  const unknownForbidden = forbiddenNames.find((name) => !ids.has(name));
  if (unknownForbidden !== undefined) {
    if (required.length > 0 && !(await matchesRequired())) return [];
    throw new UnknownTraitError(unknownForbidden);
  }

  const resources: [number, number][] = [];
  for (const [name, amount] of filters.resources ?? []) {
    const classId = await classes.idOf(db, name);
    if (classId === undefined) {
      if (required.length > 0 && !(await matchesRequired())) return [];
      if (memberOf.length > 0 && !(await matchesMemberOf())) return [];
      throw new UnknownResourceClassError(name);
    }
    resources.push([classId, amount]);
  }

  let query = providerDetailQuery(db);
  if (filters.name) query = query.where('rp.name', '=', filters.name);
  if (filters.uuid) query = query.where('rp.uuid', '=', filters.uuid);
  if (treeRootId !== undefined) query = query.where('rp.root_provider_id', '=', treeRootId);
  for (const set of required) query = query.where((eb) => hasAnyTrait(eb as RpBuilder, set));
  if (forbidden.length > 0) {
    query = query.where((eb) => eb.not(hasAnyTrait(eb as RpBuilder, forbidden)));
  }
  for (const set of memberOf) query = query.where((eb) => inAggregates(eb as RpBuilder, set));
  const forbiddenAggregates = filters.forbiddenAggregates ?? new Set<string>();
  if (forbiddenAggregates.size > 0) {
    query = query.where((eb) => eb.not(inAggregates(eb as RpBuilder, forbiddenAggregates)));
  }
  for (const [classId, amount] of resources) {
    query = query.where((eb) => hasCapacity(eb as RpBuilder, classId, amount));
  }
  const rows = await query.orderBy('rp.id').execute();
  return rows.map(toProviderDetail);
}
