/**
 * Provider summaries of allocation candidates: every provider of the candidates' trees with
 * each inventory's capacity and usage, and (from 1.17) its traits — one query for all the
 * trees at once.
 */
import { type Kysely, sql } from 'kysely';
import type { Capabilities } from '../../db/index.ts';
import { idList } from './candidate-snapshot.ts';
import { providerTraitRank } from './provider-trait-order.ts';
import { SharedLoads } from './shared-load.ts';
import type { PlacementTables } from './tables.ts';

type Db = Kysely<PlacementTables>;

export interface SummaryResource {
  readonly classId: number;
  /** int((total - reserved) * allocation_ratio), as the reference shows it. */
  readonly capacity: number;
  readonly used: number;
}

export interface ProviderSummary {
  readonly id: number;
  readonly uuid: string;
  readonly parentUuid: string | null;
  readonly rootUuid: string;
  readonly resources: SummaryResource[];
  /** In the order the real service lists them (provider-trait-order.ts). */
  readonly traits: string[];
}

interface Row {
  id: number | string;
  uuid: string;
  root_provider_id: number | string | null;
  parent_provider_id: number | string | null;
  resource_class_id: number | string | null;
  total: number | string | null;
  reserved: number | string | null;
  allocation_ratio: number | string | null;
  used: number | string | null;
}

/** Summaries of every provider in the trees rooted at `rootIds`, in id order. */
export async function providerSummaries(
  db: Db,
  caps: Capabilities,
  rootIds: Iterable<number>,
  options: { readonly traits: boolean },
): Promise<ProviderSummary[]> {
  const roots = [...new Set(rootIds)];
  if (roots.length === 0) return [];
  const inRoots = idList(roots);
  // One round trip: the inventory rows, then (from 1.17) a row per trait with its name and
  // its rank among the provider's traits.
  const traitRows = options.traits
    ? sql`union all
      select rpt.resource_provider_id, null, null, null, null, null, null, null, null, t.name,
        ${providerTraitRank(caps, 'rpt')}
      from resource_provider_traits rpt
      join traits t on t.id = rpt.trait_id
      join resource_providers rp on rp.id = rpt.resource_provider_id
      where rp.root_provider_id in (${inRoots})`
    : sql``;
  const result = await sql<
    Row & { trait: string | null; trait_rank: number | string | null }
  >`select rp.id, rp.uuid,
        rp.root_provider_id, rp.parent_provider_id, inv.resource_class_id, inv.total,
        inv.reserved, inv.allocation_ratio, u.used, null as trait, null as trait_rank
      from resource_providers rp
      left join inventories inv on inv.resource_provider_id = rp.id
      left join (
        select a.resource_provider_id, a.resource_class_id, sum(a.used) as used
        from allocations a
        join resource_providers arp on arp.id = a.resource_provider_id
        where arp.root_provider_id in (${inRoots})
        group by a.resource_provider_id, a.resource_class_id
      ) u on u.resource_provider_id = inv.resource_provider_id
        and u.resource_class_id = inv.resource_class_id
      where rp.root_provider_id in (${inRoots})
      ${traitRows}
      order by 1`.execute(db);
  const traits = new Map<number, { name: string; rank: number }[]>();
  const inventoryRows: Row[] = [];
  for (const row of result.rows) {
    if (row.trait === null) {
      inventoryRows.push(row);
      continue;
    }
    const id = Number(row.id);
    const named = traits.get(id) ?? [];
    named.push({ name: row.trait, rank: Number(row.trait_rank) });
    traits.set(id, named);
  }
  const uuidOf = new Map<number, string>();
  for (const row of inventoryRows) uuidOf.set(Number(row.id), row.uuid);
  const byId = new Map<number, ProviderSummary>();
  for (const row of inventoryRows) {
    const id = Number(row.id);
    let summary = byId.get(id);
    if (summary === undefined) {
      const rootId = row.root_provider_id === null ? id : Number(row.root_provider_id);
      const parentId = row.parent_provider_id === null ? null : Number(row.parent_provider_id);
      summary = {
        id,
        uuid: row.uuid,
        parentUuid: parentId === null ? null : (uuidOf.get(parentId) ?? null),
        rootUuid: uuidOf.get(rootId) ?? row.uuid,
        resources: [],
        traits: (traits.get(id) ?? []).sort((a, b) => a.rank - b.rank).map((t) => t.name),
      };
      byId.set(id, summary);
    }
    if (row.resource_class_id === null) continue;
    summary.resources.push({
      classId: Number(row.resource_class_id),
      capacity: Math.trunc(
        (Number(row.total) - Number(row.reserved)) * Number(row.allocation_ratio),
      ),
      used: Number(row.used ?? 0),
    });
  }
  return [...byId.values()];
}

const shared = new WeakMap<Db, SharedLoads<ProviderSummary[]>>();

/**
 * providerSummaries, shared by identical requests (shared-load.ts: never a load sent before
 * the caller asked). Callers must not change the summaries.
 */
export function sharedProviderSummaries(
  db: Db,
  caps: Capabilities,
  rootIds: Iterable<number>,
  options: { readonly traits: boolean },
): Promise<ProviderSummary[]> {
  const roots = [...new Set(rootIds)].sort((a, b) => a - b);
  let loads = shared.get(db);
  if (loads === undefined) {
    loads = new SharedLoads<ProviderSummary[]>();
    shared.set(db, loads);
  }
  return loads.load(`${options.traits}|${roots.join(',')}`, () =>
    providerSummaries(db, caps, roots, options),
  );
}
