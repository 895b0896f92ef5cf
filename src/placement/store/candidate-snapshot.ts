/**
 * The database facts one allocation-candidates search needs (when the one-query shortcut of
 * flat-candidates.ts does not apply), in a handful of set-based queries run side by side: capacity of the requested classes (with usage), the requested
 * traits and aggregates, `in_tree` roots, `root_required` roots, sharing providers and the
 * trees their aggregates reach. The search itself then runs in memory.
 */
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type {
  CandidateQuery,
  CandidateSnapshot,
  InventoryCapacity,
  ProviderNode,
} from '../candidates/model.ts';
import type { ResourceClassCache } from './resource-class-cache.ts';
import { SharedLoads } from './shared-load.ts';
import type { PlacementTables } from './tables.ts';

type Db = Kysely<PlacementTables>;

const SHARING_TRAIT = 'MISC_SHARES_VIA_AGGREGATE';

/** Our own integer ids inlined (no bind-parameter limits on long lists). */
export function idList(ids: Iterable<number>): RawBuilder<unknown> {
  const list = [...ids].map((id) => {
    if (!Number.isSafeInteger(id)) throw new Error(`not an id: ${id}`);
    return String(id);
  });
  return sql.raw(list.length > 0 ? list.join(',') : 'NULL');
}

interface NodeRow {
  id: number | string;
  uuid: string;
  root_provider_id: number | string | null;
  parent_provider_id: number | string | null;
}

function toNode(row: NodeRow): ProviderNode {
  const id = Number(row.id);
  return {
    id,
    uuid: row.uuid,
    rootId: row.root_provider_id === null ? id : Number(row.root_provider_id),
    parentId: row.parent_provider_id === null ? null : Number(row.parent_provider_id),
  };
}

/**
 * The sharing providers and whether any provider has a parent, in one round trip: a row per
 * sharing provider, plus one row with a null id when some provider is nested.
 */
async function treesAndSharing(db: Db): Promise<{ hasTrees: boolean; sharing: Set<number> }> {
  const result = await sql<{ id: number | string | null }>`
    select rpt.resource_provider_id as id
    from resource_provider_traits rpt
    join traits t on t.id = rpt.trait_id
    where t.name = ${SHARING_TRAIT}
    union all
    select null from resource_providers
    where id = (select min(id) from resource_providers where parent_provider_id is not null)`.execute(
    db,
  );
  let hasTrees = false;
  const sharing = new Set<number>();
  for (const row of result.rows) {
    if (row.id === null) hasTrees = true;
    else sharing.add(Number(row.id));
  }
  return { hasTrees, sharing };
}

/**
 * Inventories of the requested classes with their usage, skipping those too full for the
 * smallest amount asked of the class (the search re-checks each group's own amount).
 */
async function capacities(
  db: Db,
  smallest: ReadonlyMap<number, number>,
  nodes: Map<number, ProviderNode>,
): Promise<Map<number, InventoryCapacity[]>> {
  const out = new Map<number, InventoryCapacity[]>();
  if (smallest.size === 0) return out;
  const classIds = idList(smallest.keys());
  const roomFor = sql.join(
    [...smallest].map(
      ([classId, amount]) =>
        sql`(inv.resource_class_id = ${sql.lit(classId)} and coalesce(u.used, 0) + ${sql.lit(amount)} <= (inv.total - inv.reserved) * inv.allocation_ratio)`,
    ),
    sql` or `,
  );
  const result = await sql<
    NodeRow & {
      resource_class_id: number | string;
      total: number | string;
      reserved: number | string;
      min_unit: number | string;
      max_unit: number | string;
      step_size: number | string;
      allocation_ratio: number | string;
      used: number | string | null;
    }
  >`select rp.id, rp.uuid, rp.root_provider_id, rp.parent_provider_id, inv.resource_class_id,
      inv.total, inv.reserved, inv.min_unit, inv.max_unit, inv.step_size, inv.allocation_ratio,
      u.used
    from inventories inv
    join resource_providers rp on rp.id = inv.resource_provider_id
    left join (
      select resource_provider_id, resource_class_id, sum(used) as used
      from allocations where resource_class_id in (${classIds})
      group by resource_provider_id, resource_class_id
    ) u on u.resource_provider_id = inv.resource_provider_id
      and u.resource_class_id = inv.resource_class_id
    where inv.resource_class_id in (${classIds}) and (${roomFor})`.execute(db);
  for (const row of result.rows) {
    const node = toNode(row);
    nodes.set(node.id, node);
    const classId = Number(row.resource_class_id);
    const list = out.get(classId) ?? [];
    list.push({
      providerId: node.id,
      classId,
      capacity: (Number(row.total) - Number(row.reserved)) * Number(row.allocation_ratio),
      used: Number(row.used ?? 0),
      minUnit: Number(row.min_unit),
      maxUnit: Number(row.max_unit),
      stepSize: Number(row.step_size),
    });
    out.set(classId, list);
  }
  return out;
}

async function traitIdsOf(db: Db, names: ReadonlySet<string>): Promise<Map<string, number>> {
  if (names.size === 0) return new Map();
  const rows = await db
    .selectFrom('traits')
    .select(['id', 'name'])
    .where('name', 'in', [...names])
    .execute();
  return new Map(rows.map((row) => [row.name, Number(row.id)]));
}

async function providersWithTraits(
  db: Db,
  traitIds: readonly number[],
  nodes: Map<number, ProviderNode>,
): Promise<Map<number, Set<number>>> {
  const out = new Map<number, Set<number>>();
  if (traitIds.length === 0) return out;
  const result = await sql<NodeRow & { trait_id: number | string }>`
    select rp.id, rp.uuid, rp.root_provider_id, rp.parent_provider_id, rpt.trait_id
    from resource_provider_traits rpt
    join resource_providers rp on rp.id = rpt.resource_provider_id
    where rpt.trait_id in (${idList(traitIds)})`.execute(db);
  for (const row of result.rows) {
    const node = toNode(row);
    nodes.set(node.id, node);
    const traits = out.get(node.id) ?? new Set<number>();
    traits.add(Number(row.trait_id));
    out.set(node.id, traits);
  }
  return out;
}

async function aggregateMembers(
  db: Db,
  uuids: ReadonlySet<string>,
  nodes: Map<number, ProviderNode>,
): Promise<Map<string, Set<number>>> {
  const out = new Map<string, Set<number>>();
  if (uuids.size === 0) return out;
  const rows = await db
    .selectFrom('resource_provider_aggregates as rpa')
    .innerJoin('placement_aggregates as agg', 'agg.id', 'rpa.aggregate_id')
    .innerJoin('resource_providers as rp', 'rp.id', 'rpa.resource_provider_id')
    .select([
      'agg.uuid as agg_uuid',
      'rp.id',
      'rp.uuid',
      'rp.root_provider_id',
      'rp.parent_provider_id',
    ])
    .where('agg.uuid', 'in', [...uuids])
    .execute();
  for (const row of rows) {
    const node = toNode(row);
    nodes.set(node.id, node);
    const members = out.get(row.agg_uuid) ?? new Set<number>();
    members.add(node.id);
    out.set(row.agg_uuid, members);
  }
  return out;
}

async function treeRootsOf(db: Db, uuids: ReadonlySet<string>): Promise<Map<string, number>> {
  if (uuids.size === 0) return new Map();
  const rows = await db
    .selectFrom('resource_providers')
    .select(['id', 'uuid', 'root_provider_id'])
    .where('uuid', 'in', [...uuids])
    .execute();
  return new Map(rows.map((row) => [row.uuid, Number(row.root_provider_id ?? row.id)]));
}

/** Roots having every required trait and no forbidden one. */
async function rootsWithTraits(
  db: Db,
  required: readonly number[],
  forbidden: readonly number[],
): Promise<Set<number>> {
  let query = db
    .selectFrom('resource_providers as rp')
    .select('rp.id')
    .where('rp.parent_provider_id', 'is', null);
  for (const traitId of required) {
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('resource_provider_traits as rpt')
          .select('rpt.trait_id')
          .whereRef('rpt.resource_provider_id', '=', 'rp.id')
          .where('rpt.trait_id', '=', traitId),
      ),
    );
  }
  if (forbidden.length > 0) {
    query = query.where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('resource_provider_traits as rpt')
            .select('rpt.trait_id')
            .whereRef('rpt.resource_provider_id', '=', 'rp.id')
            .where('rpt.trait_id', 'in', [...forbidden]),
        ),
      ),
    );
  }
  const rows = await query.execute();
  return new Set(rows.map((row) => Number(row.id)));
}

/** Sharing provider → roots of the trees in any of its aggregates (its own included). */
async function anchorsOf(db: Db, sharingIds: readonly number[]): Promise<Map<number, Set<number>>> {
  const out = new Map<number, Set<number>>();
  if (sharingIds.length === 0) return out;
  const result = await sql<{ sharing_id: number | string; anchor_id: number | string }>`
    select distinct s.resource_provider_id as sharing_id,
      coalesce(rp.root_provider_id, rp.id) as anchor_id
    from resource_provider_aggregates s
    join resource_provider_aggregates o on o.aggregate_id = s.aggregate_id
    join resource_providers rp on rp.id = o.resource_provider_id
    where s.resource_provider_id in (${idList(sharingIds)})`.execute(db);
  for (const row of result.rows) {
    const sharingId = Number(row.sharing_id);
    const anchors = out.get(sharingId) ?? new Set<number>();
    anchors.add(Number(row.anchor_id));
    out.set(sharingId, anchors);
  }
  return out;
}

/** Every provider of the given trees (for `same_subtree`'s ancestry walks). */
export async function treeNodes(db: Db, rootIds: Iterable<number>): Promise<ProviderNode[]> {
  const roots = [...new Set(rootIds)];
  if (roots.length === 0) return [];
  const result = await sql<NodeRow>`
    select id, uuid, root_provider_id, parent_provider_id from resource_providers
    where root_provider_id in (${idList(roots)})`.execute(db);
  return result.rows.map(toNode);
}

export async function loadCandidateSnapshot(
  db: Db,
  classes: ResourceClassCache,
  query: CandidateQuery,
): Promise<CandidateSnapshot> {
  const classIds = new Map<string, number | undefined>();
  const smallest = new Map<number, number>();
  const traitNames = new Set<string>();
  const aggregates = new Set<string>();
  const inTrees = new Set<string>();
  for (const group of query.groups) {
    for (const [name, amount] of group.resources) {
      const classId = classIds.has(name) ? classIds.get(name) : await classes.idOf(db, name);
      classIds.set(name, classId);
      if (classId !== undefined)
        smallest.set(classId, Math.min(amount, smallest.get(classId) ?? amount));
    }
    for (const anyOf of group.requiredTraits) for (const name of anyOf) traitNames.add(name);
    for (const name of group.forbiddenTraits) traitNames.add(name);
    for (const anyOf of group.memberOf) for (const uuid of anyOf) aggregates.add(uuid);
    for (const uuid of group.forbiddenAggregates) aggregates.add(uuid);
    if (group.inTree !== undefined) inTrees.add(group.inTree);
  }
  const rootRequired = query.rootRequired;
  for (const name of rootRequired?.required ?? []) traitNames.add(name);
  for (const name of rootRequired?.forbidden ?? []) traitNames.add(name);

  const nodes = new Map<number, ProviderNode>();
  const traitPart = async () => {
    const traitIds = await traitIdsOf(db, traitNames);
    const groupTraitIds = new Set<number>();
    for (const group of query.groups) {
      for (const anyOf of group.requiredTraits) {
        for (const name of anyOf)
          if (traitIds.has(name)) groupTraitIds.add(traitIds.get(name) as number);
      }
      for (const name of group.forbiddenTraits) {
        if (traitIds.has(name)) groupTraitIds.add(traitIds.get(name) as number);
      }
    }
    let anchorRoots: Set<number> | undefined;
    const rootNames = [...(rootRequired?.required ?? []), ...(rootRequired?.forbidden ?? [])];
    const [providerTraits] = await Promise.all([
      providersWithTraits(db, [...groupTraitIds], nodes),
      (async () => {
        if (rootRequired === undefined || rootNames.some((name) => !traitIds.has(name))) return;
        anchorRoots = await rootsWithTraits(
          db,
          [...rootRequired.required].map((name) => traitIds.get(name) as number),
          [...rootRequired.forbidden].map((name) => traitIds.get(name) as number),
        );
      })(),
    ]);
    return { traitIds, providerTraits, anchorRoots };
  };
  const [{ hasTrees: trees, sharing }, inventories, traits, members, treeRoots] = await Promise.all(
    [
      treesAndSharing(db),
      capacities(db, smallest, nodes),
      traitPart(),
      aggregateMembers(db, aggregates, nodes),
      treeRootsOf(db, inTrees),
    ],
  );

  // Second round: where the sharing providers able to serve reach, and whole trees when
  // same_subtree must walk ancestries.
  const sharingWithRoom = new Set<number>();
  for (const rows of inventories.values()) {
    for (const row of rows) if (sharing.has(row.providerId)) sharingWithRoom.add(row.providerId);
  }
  // Resourceless groups pick providers by traits or aggregates alone.
  for (const providerId of traits.providerTraits.keys()) {
    if (sharing.has(providerId)) sharingWithRoom.add(providerId);
  }
  for (const ids of members.values()) {
    for (const providerId of ids) if (sharing.has(providerId)) sharingWithRoom.add(providerId);
  }
  const [sharingAnchors] = await Promise.all([
    anchorsOf(db, [...sharingWithRoom]),
    (async () => {
      if (query.sameSubtrees.length === 0) return;
      const roots = new Set([...nodes.values()].map((node) => node.rootId));
      for (const node of await treeNodes(db, roots)) nodes.set(node.id, node);
    })(),
  ]);

  return {
    hasTrees: trees,
    sharing,
    providers: nodes,
    classIds,
    inventories,
    traitIds: traits.traitIds,
    providerTraits: traits.providerTraits,
    aggregateMembers: members,
    treeRoots,
    anchorRoots: traits.anchorRoots,
    sharingAnchors,
  };
}

const sharedSnapshots = new WeakMap<Db, SharedLoads<CandidateSnapshot>>();

/** What of the query the snapshot depends on, as a key. */
function snapshotKey(query: CandidateQuery): string {
  return JSON.stringify([
    query.groups.map((g) => [
      [...g.resources],
      g.requiredTraits.map((anyOf) => [...anyOf]),
      [...g.forbiddenTraits],
      g.memberOf.map((anyOf) => [...anyOf]),
      [...g.forbiddenAggregates],
      g.inTree ?? null,
    ]),
    query.rootRequired === undefined
      ? null
      : [[...query.rootRequired.required], [...query.rootRequired.forbidden]],
    query.sameSubtrees.length > 0,
  ]);
}

/**
 * loadCandidateSnapshot, shared by identical requests (shared-load.ts: never a load sent
 * before the caller asked). The snapshot is read-only for the search.
 */
export function loadSharedCandidateSnapshot(
  db: Db,
  classes: ResourceClassCache,
  query: CandidateQuery,
): Promise<CandidateSnapshot> {
  let loads = sharedSnapshots.get(db);
  if (loads === undefined) {
    loads = new SharedLoads<CandidateSnapshot>();
    sharedSnapshots.set(db, loads);
  }
  return loads.load(snapshotKey(query), () => loadCandidateSnapshot(db, classes, query));
}
