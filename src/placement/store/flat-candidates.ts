/**
 * The common allocation-candidates request — one group of resources, maybe required or
 * forbidden traits, no aggregates, trees or root filters — answered in ONE statement: the
 * providers able to serve the whole group with every inventory of theirs (capacity and
 * usage, for the summaries), their traits, and which of the named traits exist. The same statement says whether a provider holding a requested class is nested or
 * sharing; then the answer would not be "one candidate per provider" and the caller runs the
 * general search instead. A round trip costs far more than the query on our machines, so
 * the probes are folded in rather than asked first.
 *
 * Identical loads share one query (shared-load.ts): callers arriving while one runs share the
 * next, and every caller still sees a state committed after it asked.
 */
import { type Kysely, sql } from 'kysely';
import type { Capabilities } from '../../db/index.ts';
import { providerTraitOrder, providerTraitRank } from './provider-trait-order.ts';
import { SharedLoads } from './shared-load.ts';
import type { PlacementTables } from './tables.ts';

type Db = Kysely<PlacementTables>;

export interface FlatInventory {
  readonly classId: number;
  /** (total - reserved) * allocation_ratio, unrounded (computed in the database's doubles). */
  readonly capacity: number;
  readonly used: number;
}

export interface FlatProvider {
  readonly id: number;
  readonly uuid: string;
  /** Every inventory of the provider, in class id order. */
  readonly inventories: FlatInventory[];
  /** Trait names in the real service's order (provider-trait-order.ts; empty unless asked for). */
  readonly traits: string[];
}

export type FlatLoad =
  /** Some provider holding a requested class is nested or sharing: use the general search. */
  | { readonly spread: true }
  /** Providers with room for the whole group (SQL-side check), in id order. */
  | {
      readonly spread: false;
      readonly providers: readonly FlatProvider[];
      /** Which of the trait names asked about exist. */
      readonly knownTraits: ReadonlySet<string>;
    };

export interface FlatRequest {
  /** [class id, amount], classes distinct. */
  readonly resources: readonly (readonly [number, number])[];
  readonly traits: boolean;
  /** Trait names whose existence the caller needs (required / forbidden filters). */
  readonly traitNames: readonly string[];
}

interface Row {
  id: number | string | null;
  /** Provider uuid, or the trait name on trait rows. */
  uuid: string | null;
  class_id: number | string | null;
  capacity: number | string | null;
  used: number | string | null;
}

function ids(values: readonly number[]) {
  for (const value of values) {
    if (!Number.isSafeInteger(value)) throw new Error(`not an integer: ${value}`);
  }
  return sql.raw(values.join(','));
}

async function queryFlat(db: Db, caps: Capabilities, request: FlatRequest): Promise<FlatLoad> {
  const classIds = ids(request.resources.map(([classId]) => classId));
  // Room for the amount, as the search checks it (min/max unit and step size exactly; the
  // capacity is re-checked in JS with the unrounded figure).
  const room = sql.join(
    request.resources.map(([classId, amount]) => {
      const a = sql.lit(amount);
      return sql`(inv.resource_class_id = ${sql.lit(classId)}
        and coalesce(u.used, 0) + ${a} <= (inv.total - inv.reserved) * inv.allocation_ratio
        and inv.min_unit <= ${a} and inv.max_unit >= ${a}
        and (case when inv.step_size > 0 then ${a} % inv.step_size else 1 end) = 0)`;
    }),
    sql` or `,
  );
  const usage = sql`left join (
      select resource_provider_id, resource_class_id, sum(used) as used
      from allocations
      group by resource_provider_id, resource_class_id
    ) u on u.resource_provider_id = inv.resource_provider_id
      and u.resource_class_id = inv.resource_class_id`;
  // Traits of every provider holding a requested class (a superset of the candidates: no
  // second pass over the capacity check).
  const traitSource = sql`from resource_provider_traits rpt
    join traits t on t.id = rpt.trait_id
    where rpt.resource_provider_id in (
      select resource_provider_id from inventories where resource_class_id in (${classIds}))`;
  // Whether a provider holding a requested class is in a tree (has a parent or children) or
  // shares through aggregates.
  const spread = sql`exists (
      select 1 from resource_providers c
      join inventories inv
        on inv.resource_provider_id = c.id or inv.resource_provider_id = c.parent_provider_id
      where c.parent_provider_id is not null and inv.resource_class_id in (${classIds}))
    or exists (
      select 1 from traits s
      join resource_provider_traits st on st.trait_id = s.id
      join inventories inv on inv.resource_provider_id = st.resource_provider_id
      where s.name = 'MISC_SHARES_VIA_AGGREGATE' and inv.resource_class_id in (${classIds}))`;
  const count = sql.lit(request.resources.length);
  const names =
    request.traitNames.length === 0
      ? undefined
      : sql.join(request.traitNames.map((name) => sql`${name}`));

  if (caps.packRowsInText) {
    // One row of three texts instead of thousands of rows: the driver's per-field parsing
    // and the bytes sent cost far more here than splitting strings (float8 prints
    // shortest-exact, so the capacities read back are the same doubles). When spread, the
    // CASE leaves the heavy sub-selects unevaluated (PostgreSQL runs them when first used).
    const packed = await sql<{
      providers: string | null;
      traits: string | null;
      known: string | null;
      spread: boolean;
    }>`with s as (select (${spread}) as spread)
    select s.spread,
      case when s.spread then null else (select string_agg(p.line, ';') from (
        select concat(rp.id, ' ', rp.uuid, ' ', string_agg(concat(inv.resource_class_id, ' ',
          (inv.total - inv.reserved) * inv.allocation_ratio, ' ', coalesce(u.used, 0)), ' '))
          as line
        from inventories inv
        join resource_providers rp on rp.id = inv.resource_provider_id
        ${usage}
        group by rp.id
        having sum(case when ${room} then 1 else 0 end) = ${count}) p) end as providers,
      ${
        request.traits
          ? sql`(select string_agg(concat(rpt.resource_provider_id, ' ', t.name), ';'
                order by ${providerTraitOrder(caps, 'rpt')})
              ${traitSource})`
          : sql`null`
      } as traits,
      ${
        names === undefined
          ? sql`null`
          : sql`(select string_agg(name, ' ') from traits where name in (${names}))`
      } as known
    from s`.execute(db);
    const row = packed.rows[0];
    if (row === undefined || row.spread) return { spread: true };
    return unpack(row.providers, row.traits, row.known);
  }

  // Each inventory row carries how many of the provider's inventories have room (a window
  // over the provider), so one pass keeps the providers able to serve the whole group with
  // all their inventories. The last branch yields one row (id null) when spread.
  const result = await sql<Row>`select x.id, x.uuid, x.class_id, x.capacity, x.used
    from (
      select rp.id, rp.uuid, inv.resource_class_id as class_id,
        (inv.total - inv.reserved) * inv.allocation_ratio as capacity, u.used,
        sum(case when ${room} then 1 else 0 end) over (partition by inv.resource_provider_id)
          as fitting
      from inventories inv
      join resource_providers rp on rp.id = inv.resource_provider_id
      ${usage}
    ) x
    where x.fitting = ${count}
    ${request.traits ? sql`union all select rpt.resource_provider_id, t.name, null, ${providerTraitRank(caps, 'rpt')}, null ${traitSource}` : sql``}
    ${names === undefined ? sql`` : sql`union all select null, name, null, null, null from traits where name in (${names})`}
    union all
    select null, null, null, null, null
    from resource_providers sp
    where sp.id = (select min(id) from resource_providers) and (${spread})`.execute(db);
  return toLoad(result.rows.map((r) => [r.id, r.uuid, r.class_id, r.capacity, r.used]));
}

/** `id uuid class capacity used class capacity used…;…` and `id trait;…` back to providers. */
function unpack(
  providerText: string | null,
  traitText: string | null,
  knownText: string | null,
): FlatLoad {
  const byId = new Map<number, FlatProvider>();
  for (const line of providerText === null ? [] : providerText.split(';')) {
    const fields = line.split(' ');
    const id = Number(fields[0]);
    const inventories: FlatInventory[] = [];
    for (let i = 2; i + 2 < fields.length; i += 3) {
      inventories.push({
        classId: Number(fields[i]),
        capacity: Number(fields[i + 1]),
        used: Number(fields[i + 2]),
      });
    }
    byId.set(id, { id, uuid: fields[1] as string, inventories, traits: [] });
  }
  for (const line of traitText === null ? [] : traitText.split(';')) {
    const space = line.indexOf(' ');
    byId.get(Number(line.slice(0, space)))?.traits.push(line.slice(space + 1));
  }
  return sorted(byId, knownText === null ? [] : knownText.split(' '));
}

/** A row as [id, uuid or trait name, class id, capacity or a trait's rank, used]. */
type Value = number | string | null;
type Tuple = readonly [Value, Value, Value, Value, Value];

function toLoad(rows: readonly Tuple[]): FlatLoad {
  const byId = new Map<number, FlatProvider>();
  const traitRows: Tuple[] = [];
  const known: string[] = [];
  for (const row of rows) {
    const [rawId, uuid, classId, capacity, used] = row;
    if (rawId === null) {
      // The spread row has no name; a known-trait row carries the trait's.
      if (uuid === null) return { spread: true };
      known.push(uuid as string);
      continue;
    }
    if (classId === null) {
      traitRows.push(row);
      continue;
    }
    const id = Number(rawId);
    let provider = byId.get(id);
    if (provider === undefined) {
      provider = { id, uuid: uuid as string, inventories: [], traits: [] };
      byId.set(id, provider);
    }
    provider.inventories.push({
      classId: Number(classId),
      capacity: Number(capacity),
      used: Number(used ?? 0),
    });
  }
  traitRows.sort((a, b) => Number(a[3]) - Number(b[3]));
  for (const [id, name] of traitRows) byId.get(Number(id))?.traits.push(name as string);
  return sorted(byId, known);
}

/** Providers in id order, each with its inventories in class order. */
function sorted(byId: ReadonlyMap<number, FlatProvider>, known: readonly string[]): FlatLoad {
  const providers = [...byId.values()].sort((a, b) => a.id - b.id);
  for (const provider of providers) provider.inventories.sort((a, b) => a.classId - b.classId);
  return { spread: false, providers, knownTraits: new Set(known) };
}

const shared = new WeakMap<Db, SharedLoads<FlatLoad>>();

/** The flat answer's data, or `spread` when the general search must run. */
export function loadFlatCandidates(
  db: Db,
  caps: Capabilities,
  request: FlatRequest,
): Promise<FlatLoad> {
  let loads = shared.get(db);
  if (loads === undefined) {
    loads = new SharedLoads<FlatLoad>();
    shared.set(db, loads);
  }
  const key = JSON.stringify([request.resources, request.traits, request.traitNames]);
  return loads.load(key, () => queryFlat(db, caps, request));
}
