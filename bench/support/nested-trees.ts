/**
 * Nested provider trees for allocation-candidate benchmarks at 10,000 trees, loaded into a
 * Placement database by SQL (bulk INSERTs from arrays) after the service created its schema.
 * Creating 40,000 providers through the real Placement's API runs at ~70 writes/s, which
 * would be the whole bench; the rows written here are the ones those API calls write, in
 * the columns Baton's schema and the real 8.0.0 schema share (the same names and meanings;
 * only timestamp types and id defaults differ, which the INSERTs do not touch).
 *
 * Tree i (from 0): a compute node root with DISK_GB, two NUMA children with VCPU and
 * MEMORY_MB, and a NIC child with SRIOV_NET_VF; the NIC of every even tree has the trait
 * BENCH_TRAIT. Every third tree is partly used (still fits); tree i ≡ 0 (mod 10) has its disk
 * full, i ≡ 5 (mod 10) the memory of both NUMA nodes. Ids, uuids and names follow from i, so
 * both databases get the same data; generations are what the API would have left (one per
 * inventory write, trait write and allocation write touching the provider).
 */
import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';

/** Any database handle: the loader writes both schemas' shared columns with raw SQL. */
type Db = Kysely<Record<string, unknown>>;

export const BENCH_TRAIT = 'CUSTOM_PHYSNET_BENCH';
export const BENCH_PROJECT = 'bench-project';
export const BENCH_USER = 'bench-user';
export const ROLES = ['root', 'numa0', 'numa1', 'nic'] as const;
export type Role = (typeof ROLES)[number];
export const PROVIDERS_PER_TREE = ROLES.length;

export interface Inventory {
  readonly total: number;
  readonly allocationRatio: number;
}

export interface TreeProvider {
  readonly role: Role;
  readonly uuid: string;
  readonly name: string;
  readonly generation: number;
  readonly inventories: Readonly<Record<string, Inventory>>;
  readonly traits: readonly string[];
}

export interface TreeConsumer {
  readonly uuid: string;
  /** Amounts by provider role, then by resource class. */
  readonly allocations: Partial<Record<Role, Readonly<Record<string, number>>>>;
}

export interface Tree {
  readonly index: number;
  readonly providers: readonly TreeProvider[];
  readonly consumers: readonly TreeConsumer[];
}

/** A uuid made from a name, so both databases (and the checks) agree on it. */
export function nameUuid(name: string): string {
  const hex = createHash('md5').update(name).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const NUMA = {
  VCPU: { total: 8, allocationRatio: 4 },
  MEMORY_MB: { total: 16384, allocationRatio: 1 },
};

/** Tree `index`: its providers and the consumers holding resources in it. */
export function tree(index: number): Tree {
  const consumers: TreeConsumer[] = [];
  const partlyUsed = index % 3 === 0;
  if (partlyUsed) {
    consumers.push({
      uuid: nameUuid(`bench-consumer-${index}-partly`),
      allocations: { root: { DISK_GB: 100 }, numa0: { VCPU: 4, MEMORY_MB: 8192 } },
    });
  }
  if (index % 10 === 0) {
    consumers.push({
      uuid: nameUuid(`bench-consumer-${index}-disk`),
      allocations: { root: { DISK_GB: partlyUsed ? 400 : 500 } },
    });
  }
  if (index % 10 === 5) {
    consumers.push({
      uuid: nameUuid(`bench-consumer-${index}-memory`),
      allocations: {
        numa0: { MEMORY_MB: partlyUsed ? 8192 : 16384 },
        numa1: { MEMORY_MB: 16384 },
      },
    });
  }
  const shapes: Record<Role, { inventories: Record<string, Inventory>; traits: string[] }> = {
    root: { inventories: { DISK_GB: { total: 500, allocationRatio: 1 } }, traits: [] },
    numa0: { inventories: NUMA, traits: [] },
    numa1: { inventories: NUMA, traits: [] },
    nic: {
      inventories: { SRIOV_NET_VF: { total: 8, allocationRatio: 1 } },
      traits: index % 2 === 0 ? [BENCH_TRAIT] : [],
    },
  };
  const providers = ROLES.map((role): TreeProvider => {
    const { inventories, traits } = shapes[role];
    const writes =
      (Object.keys(inventories).length > 0 ? 1 : 0) +
      (traits.length > 0 ? 1 : 0) +
      consumers.filter((c) => c.allocations[role] !== undefined).length;
    const name = role === 'root' ? `cn-${index}` : `cn-${index}-${role}`;
    return { role, uuid: nameUuid(`bench-${name}`), name, generation: writes, inventories, traits };
  });
  return { index, providers, consumers };
}

/** What a provider of a tree has in use, by class. */
export function usage(of: Tree, role: Role): Record<string, number> {
  const used: Record<string, number> = {};
  const provider = of.providers.find((p) => p.role === role) as TreeProvider;
  for (const rc of Object.keys(provider.inventories)) used[rc] = 0;
  for (const consumer of of.consumers) {
    for (const [rc, amount] of Object.entries(consumer.allocations[role] ?? {})) {
      used[rc] = (used[rc] ?? 0) + amount;
    }
  }
  return used;
}

/**
 * Allocation requests one unsuffixed request group (1.29+: resources from any providers of
 * one tree) gets from a tree: each class from any provider with room for it, every
 * combination, those whose providers together hold the required traits.
 */
export function candidatesInTree(
  of: Tree,
  resources: Readonly<Record<string, number>>,
  required: readonly string[] = [],
): number {
  let combinations: TreeProvider[][] = [[]];
  for (const [rc, amount] of Object.entries(resources)) {
    const able = of.providers.filter((p) => {
      const inventory = p.inventories[rc];
      return (
        inventory &&
        inventory.total * inventory.allocationRatio - (usage(of, p.role)[rc] ?? 0) >= amount
      );
    });
    combinations = combinations.flatMap((picked) => able.map((p) => [...picked, p]));
  }
  return combinations.filter((picked) =>
    required.every((trait) => picked.some((p) => p.traits.includes(trait))),
  ).length;
}

/**
 * The allocation requests and provider summaries an answer over trees 0..trees-1 holds. Over
 * `limit`, a service keeps `limit` requests and only the summaries of the trees they use
 * (every provider of such a tree); which requests it keeps follows the real service's set
 * order, so the summaries are only known to lie between the fewest trees that can hold
 * `limit` requests and one tree per request.
 */
export function expectedAnswer(
  trees: number,
  resources: Readonly<Record<string, number>>,
  required: readonly string[] = [],
  limit?: number,
): { requests: number; summaries: { min: number; max: number } } {
  let requests = 0;
  let fitting = 0;
  let most = 0;
  for (let i = 0; i < trees; i++) {
    const found = candidatesInTree(tree(i), resources, required);
    if (found === 0) continue;
    requests += found;
    fitting++;
    most = Math.max(most, found);
  }
  if (limit === undefined || requests <= limit) {
    const all = fitting * PROVIDERS_PER_TREE;
    return { requests, summaries: { min: all, max: all } };
  }
  return {
    requests: limit,
    summaries: {
      min: Math.ceil(limit / most) * PROVIDERS_PER_TREE,
      max: Math.min(limit, fitting) * PROVIDERS_PER_TREE,
    },
  };
}

/** The root uuid of every provider of trees 0..trees-1, by provider uuid. */
export function rootsByProvider(trees: number): Map<string, string> {
  const roots = new Map<string, string>();
  for (let i = 0; i < trees; i++) {
    const providers = tree(i).providers;
    const root = (providers[0] as TreeProvider).uuid;
    for (const p of providers) roots.set(p.uuid, root);
  }
  return roots;
}

/**
 * Whether a parsed answer's summaries are exactly the providers of the trees its allocation
 * requests use, and each request stays in one tree; the reason when not.
 */
export function summariesMismatch(
  // biome-ignore lint/suspicious/noExplicitAny: a parsed JSON answer
  body: any,
  roots: ReadonlyMap<string, string>,
): string | undefined {
  const used = new Set<string>();
  for (const request of body.allocation_requests) {
    const trees = new Set(Object.keys(request.allocations).map((uuid) => roots.get(uuid)));
    if (trees.size !== 1 || trees.has(undefined))
      return 'a request spans trees or unknown providers';
    used.add([...trees][0] as string);
  }
  const summaries = Object.keys(body.provider_summaries);
  if (summaries.length !== used.size * PROVIDERS_PER_TREE) {
    return `${summaries.length} summaries for ${used.size} trees`;
  }
  if (!summaries.every((uuid) => used.has(roots.get(uuid) as string))) {
    return 'a summary of a tree no request uses';
  }
  return undefined;
}

async function idsByName(
  db: Db,
  table: 'resource_classes' | 'traits',
  names: readonly string[],
): Promise<Map<string, number>> {
  const rows = await sql<{ id: number; name: string }>`
    select id, name from ${sql.table(table)} where name = any(${names})`.execute(db);
  const ids = new Map(rows.rows.map((r) => [r.name, Number(r.id)]));
  for (const name of names) if (!ids.has(name)) throw new Error(`${table} lacks ${name}`);
  return ids;
}

/** The id of the row named `value` in projects, users or consumer_types, made if missing. */
async function ensureNamed(
  db: Db,
  table: 'projects' | 'users' | 'consumer_types',
  column: 'external_id' | 'name',
  value: string,
): Promise<number> {
  await sql`insert into ${sql.table(table)} (${sql.ref(column)}, created_at)
    values (${value}, now()) on conflict do nothing`.execute(db);
  const row = await sql<{ id: number }>`
    select id from ${sql.table(table)} where ${sql.ref(column)} = ${value}`.execute(db);
  return Number(row.rows[0]?.id);
}

const SEQUENCED = [
  'resource_providers',
  'inventories',
  'allocations',
  'consumers',
  'projects',
  'users',
  'consumer_types',
] as const;

/**
 * Writes trees from..to-1 into a Placement database on PostgreSQL whose schema the service
 * made, in one transaction, then moves the id sequences past the new rows and ANALYZEs (as
 * autovacuum soon would). The trait BENCH_TRAIT must exist (made through the API, so the
 * service's caches know it).
 */
export async function loadTrees(db: Db, from: number, to: number): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const classes = await idsByName(tx, 'resource_classes', [
      'VCPU',
      'MEMORY_MB',
      'DISK_GB',
      'SRIOV_NET_VF',
    ]);
    const traits = await idsByName(tx, 'traits', [BENCH_TRAIT]);
    const project = await ensureNamed(tx, 'projects', 'external_id', BENCH_PROJECT);
    const user = await ensureNamed(tx, 'users', 'external_id', BENCH_USER);
    const instance = await ensureNamed(tx, 'consumer_types', 'name', 'INSTANCE');
    const top = await sql<{
      id: number | null;
    }>`select max(id) as id from resource_providers`.execute(tx);
    const base = Number(top.rows[0]?.id ?? 0) + 1;

    const rp = {
      id: [] as number[],
      uuid: [] as string[],
      name: [] as string[],
      generation: [] as number[],
      root: [] as number[],
      parent: [] as (number | null)[],
    };
    const inv = {
      rp: [] as number[],
      rc: [] as number[],
      total: [] as number[],
      ratio: [] as number[],
    };
    const rpTraits = { rp: [] as number[], trait: [] as number[] };
    const consumers = { uuid: [] as string[] };
    const alloc = {
      rp: [] as number[],
      consumer: [] as string[],
      rc: [] as number[],
      used: [] as number[],
    };
    for (let i = from; i < to; i++) {
      const t = tree(i);
      const rootId = base + (i - from) * PROVIDERS_PER_TREE;
      const idOf = (role: Role) => rootId + ROLES.indexOf(role);
      for (const p of t.providers) {
        const id = idOf(p.role);
        rp.id.push(id);
        rp.uuid.push(p.uuid);
        rp.name.push(p.name);
        rp.generation.push(p.generation);
        rp.root.push(rootId);
        rp.parent.push(p.role === 'root' ? null : rootId);
        for (const [rc, inventory] of Object.entries(p.inventories)) {
          inv.rp.push(id);
          inv.rc.push(classes.get(rc) as number);
          inv.total.push(inventory.total);
          inv.ratio.push(inventory.allocationRatio);
        }
        for (const trait of p.traits) {
          rpTraits.rp.push(id);
          rpTraits.trait.push(traits.get(trait) as number);
        }
      }
      for (const c of t.consumers) {
        consumers.uuid.push(c.uuid);
        for (const [role, amounts] of Object.entries(c.allocations)) {
          for (const [rc, used] of Object.entries(amounts)) {
            alloc.rp.push(idOf(role as Role));
            alloc.consumer.push(c.uuid);
            alloc.rc.push(classes.get(rc) as number);
            alloc.used.push(used);
          }
        }
      }
    }
    // Children point at a root inserted by the same statement: PostgreSQL checks foreign
    // keys at the statement's end.
    await sql`insert into resource_providers
        (id, uuid, name, generation, root_provider_id, parent_provider_id, created_at)
      select id, uuid, name, generation, root, parent, now()
      from unnest(${rp.id}::int[], ${rp.uuid}::text[], ${rp.name}::text[],
        ${rp.generation}::int[], ${rp.root}::int[], ${rp.parent}::int[])
        as t(id, uuid, name, generation, root, parent)`.execute(tx);
    // The API's defaults for what the bench does not set: reserved 0, min_unit 1,
    // max_unit 2147483647, step_size 1.
    await sql`insert into inventories (resource_provider_id, resource_class_id, total, reserved,
        min_unit, max_unit, step_size, allocation_ratio, created_at)
      select rp, rc, total, 0, 1, 2147483647, 1, ratio, now()
      from unnest(${inv.rp}::int[], ${inv.rc}::int[], ${inv.total}::int[], ${inv.ratio}::float8[])
        as t(rp, rc, total, ratio)`.execute(tx);
    await sql`insert into resource_provider_traits (trait_id, resource_provider_id, created_at)
      select trait, rp, now() from unnest(${rpTraits.trait}::int[], ${rpTraits.rp}::int[])
        as t(trait, rp)`.execute(tx);
    // Each consumer was written once: generation 1.
    await sql`insert into consumers (uuid, project_id, user_id, generation, consumer_type_id,
        created_at, updated_at)
      select uuid, ${project}, ${user}, 1, ${instance}, now(), now()
      from unnest(${consumers.uuid}::text[]) as t(uuid)`.execute(tx);
    await sql`insert into allocations (resource_provider_id, consumer_id, resource_class_id, used,
        created_at)
      select rp, consumer, rc, used, now()
      from unnest(${alloc.rp}::int[], ${alloc.consumer}::text[], ${alloc.rc}::int[],
        ${alloc.used}::int[]) as t(rp, consumer, rc, used)`.execute(tx);
    for (const table of SEQUENCED) {
      await sql`select setval(pg_get_serial_sequence(${table}, 'id'),
        (select coalesce(max(id), 1) from ${sql.table(table)}))`.execute(tx);
    }
  });
  await sql`analyze`.execute(db);
}
