/**
 * Reading nodes: one node by id, uuid, name, instance or port addresses, and lists with
 * filters and pages. A node comes with its traits (a second query for a whole page, as
 * Ironic's selectin load does) and at its latest object version.
 */
import { type Kysely, sql } from 'kysely';
import { runTemplate } from '../../db/query-templates.ts';
import { Node, type NodeObject, Trait, TraitList, type TraitListObject } from '../objects/index.ts';
import type { StoreContext } from './context.ts';
import { InvalidParameterError, NewerRowError, NotFoundError } from './errors.ts';
import { type Identity, identityOf, isUuidLike } from './identity.ts';
import { applyNodeFilters, type NodeFilters } from './node-filters.ts';
import { objectFromRow } from './object-rows.ts';
import { applyPage, checkPageOptions, findMarker, type PageOptions } from './pagination.ts';
import type { BaremetalTables, Row } from './tables.ts';

type Db = Kysely<BaremetalTables>;

/** The node columns: every Node field but `traits`, and `version`. */
export const NODE_COLUMNS: readonly string[] = [
  ...Node.fieldNames.filter((name) => name !== 'traits'),
  'version',
];

/** Columns a list with `fields` always reads (Ironic's Node.list), besides those asked for. */
const ALWAYS_READ = [
  'id',
  'version',
  'updated_at',
  'created_at',
  'owner',
  'lessee',
  'driver',
  'conductor_group',
];

export interface NodeListOptions extends PageOptions {
  readonly filters?: NodeFilters;
  /** Only these Node fields (and those Ironic always reads); every field when left out. */
  readonly fields?: readonly string[];
  /**
   * Given, a node a newer release wrote at a version this code cannot read is left out of the
   * list and named here (a periodic sweep goes on with the others); left out, such a node
   * fails the whole list with NewerRowError (an API answers 503 rather than a partial list).
   */
  readonly onNewerRow?: (uuid: string, error: NewerRowError) => void;
}

/** The traits of each of the given nodes, as TraitLists of Trait objects holding `trait`. */
async function traitsOf(db: Db, nodeIds: readonly number[]): Promise<Map<number, TraitListObject>> {
  const lists = new Map<number, TraitListObject>();
  if (nodeIds.length === 0) return lists;
  // One template per page length: pages are as long as the limit, so few lengths come.
  const rows = await runTemplate(
    db,
    `node traits of ${nodeIds.length}`,
    (...ids: number[]) =>
      db
        .selectFrom('node_traits')
        .select(['node_id', 'trait', 'version'])
        .where('node_id', 'in', ids)
        .orderBy('node_id')
        .orderBy('trait'),
    nodeIds,
  );
  const byNode = new Map<number, ReturnType<typeof Trait.create>[]>();
  for (const row of rows) {
    const trait = objectFromRow(Trait, { trait: row.trait, version: row.version });
    const id = Number(row.node_id);
    byNode.set(id, [...(byNode.get(id) ?? []), trait]);
  }
  for (const id of nodeIds) {
    const list = TraitList.create({ objects: byNode.get(id) ?? [] });
    lists.set(id, list.resetChanges(undefined, { recursive: true }));
  }
  return lists;
}

/** Node objects of rows, with their traits unless `withTraits` is false. */
export async function nodesFromRows(
  db: Db,
  rows: readonly Row[],
  withTraits = true,
  onNewerRow?: NodeListOptions['onNewerRow'],
): Promise<NodeObject[]> {
  const traits = withTraits
    ? await traitsOf(
        db,
        rows.map((row) => Number(row.id)),
      )
    : undefined;
  // The traits go into the row itself (a fresh object of the query's), not a copy of it:
  // spreading 58 columns into a new object makes it a slow dictionary-mode one.
  if (traits !== undefined) {
    for (const row of rows) (row as Row).traits = traits.get(Number(row.id));
  }
  if (onNewerRow === undefined) return rows.map((row) => objectFromRow(Node, row));
  return rows.flatMap((row) => {
    try {
      return [objectFromRow(Node, row)];
    } catch (error) {
      if (!(error instanceof NewerRowError)) throw error;
      onNewerRow(String(row.uuid), error);
      return [];
    }
  });
}

function selectNodes(db: Db, columns: readonly string[] = NODE_COLUMNS) {
  return db.selectFrom('nodes').select(columns.map((c) => `nodes.${c}`) as never[]);
}

/** The node a column value names; NodeNotFound (or `notFound`) when none. */
export async function getNodeWhere(
  ctx: StoreContext,
  column: 'id' | 'uuid' | 'name' | 'instance_uuid',
  value: string | number,
  notFound: () => Error = () => new NotFoundError('node', value),
): Promise<NodeObject> {
  const db = ctx.database.kysely;
  const [row] = await runTemplate(
    db,
    `node by ${column}`,
    (marker: string | number) =>
      selectNodes(db)
        .where(`nodes.${column}` as never, '=', marker as never)
        .limit(1),
    [value],
  );
  if (row === undefined) throw notFound();
  const [node] = await nodesFromRows(db, [row as Row]);
  return node as NodeObject;
}

export async function getNodeByIdentity(
  ctx: StoreContext,
  identity: Identity,
): Promise<NodeObject> {
  return 'id' in identity
    ? getNodeWhere(ctx, 'id', identity.id)
    : getNodeWhere(ctx, 'uuid', identity.uuid);
}

/** Ironic's Node.get: an integer id or a UUID (anything else is InvalidIdentity). */
export async function getNode(ctx: StoreContext, ident: string | number): Promise<NodeObject> {
  return getNodeByIdentity(ctx, identityOf(ident));
}

export async function getNodeByInstance(
  ctx: StoreContext,
  instanceUuid: string,
): Promise<NodeObject> {
  if (!isUuidLike(instanceUuid))
    throw new InvalidParameterError(
      `Expected a UUID but received ${instanceUuid}.`,
      'instance_uuid',
    );
  return getNodeWhere(
    ctx,
    'instance_uuid',
    instanceUuid,
    () => new NotFoundError('instance', instanceUuid),
  );
}

/** The node one of these port addresses belongs to. */
export async function getNodeByPortAddresses(
  ctx: StoreContext,
  addresses: readonly string[],
): Promise<NodeObject> {
  const db = ctx.database.kysely;
  const rows =
    addresses.length === 0
      ? []
      : await selectNodes(db)
          .distinct()
          .innerJoin('ports', 'ports.node_id', 'nodes.id')
          .where('ports.address', 'in', addresses)
          .limit(2)
          .execute();
  if (rows.length !== 1) {
    const message =
      rows.length === 0
        ? `Node with port addresses ${addresses.join(', ')} was not found`
        : `Multiple nodes with port addresses ${addresses.join(', ')} were found`;
    throw new NotFoundError('node', addresses.join(', '), message);
  }
  const [node] = await nodesFromRows(db, rows as Row[]);
  return node as NodeObject;
}

export async function listNodes(
  ctx: StoreContext,
  options: NodeListOptions = {},
): Promise<NodeObject[]> {
  checkPageOptions('nodes', options);
  const db = ctx.database.kysely;
  const filters = options.filters ?? {};
  let chassisId: number | undefined;
  if (filters.chassis_uuid !== undefined) {
    const chassis = await db
      .selectFrom('chassis')
      .select('id')
      .where('uuid', '=', filters.chassis_uuid)
      .executeTakeFirst();
    if (chassis === undefined) throw new NotFoundError('chassis', filters.chassis_uuid);
    chassisId = Number(chassis.id);
  }
  const columns = options.fields === undefined ? NODE_COLUMNS : listColumns(options.fields);
  const marker = await findMarker(db, 'nodes', 'node', options);
  const query = applyNodeFilters(selectNodes(db, columns), filters, { chassisId, now: ctx.now() });
  const rows = await applyPage(query, 'nodes', options, marker).execute();
  const withTraits = options.fields === undefined || options.fields.includes('traits');
  return nodesFromRows(db, rows as Row[], withTraits, options.onNewerRow);
}

function listColumns(fields: readonly string[]): string[] {
  for (const field of fields) {
    if (field !== 'traits' && !NODE_COLUMNS.includes(field))
      throw new InvalidParameterError(`Field ${field} is not a node field`, 'fields');
  }
  return [...new Set([...ALWAYS_READ, ...fields.filter((f) => f !== 'traits')])];
}

/** How many nodes are in each provision state (for the conductor's gauges). */
export async function countNodesByProvisionState(
  ctx: StoreContext,
): Promise<{ state: string; count: number }[]> {
  const rows = await ctx.database.kysely
    .selectFrom('nodes')
    .select(['provision_state', ctx.database.kysely.fn.countAll<number | string>().as('count')])
    .groupBy('provision_state')
    .orderBy('provision_state')
    .execute();
  return rows.map((row) => ({ state: String(row.provision_state), count: Number(row.count) }));
}

/** Nodes in each provision state, and of them how many hold an error and how many are in maintenance. */
export interface NodeStateCount {
  readonly state: string;
  readonly count: number;
  /** With a `last_error`. */
  readonly errors: number;
  readonly maintenance: number;
}

/** The node counts the dashboard shows: by provision state, with errors and maintenance. */
export async function countNodesByStateForDashboard(ctx: StoreContext): Promise<NodeStateCount[]> {
  const k = ctx.database.kysely;
  const hasError = sql<number>`case when ${sql.ref('last_error')} is null then 0 else 1 end`;
  const rows = await k
    .selectFrom('nodes')
    .select([
      'provision_state',
      'maintenance',
      hasError.as('has_error'),
      k.fn.countAll<number | string>().as('count'),
    ])
    .groupBy(['provision_state', 'maintenance', hasError])
    .execute();
  const byState = new Map<string, { count: number; errors: number; maintenance: number }>();
  for (const row of rows) {
    const state = String(row.provision_state);
    const counts = byState.get(state) ?? { count: 0, errors: 0, maintenance: 0 };
    const n = Number(row.count);
    counts.count += n;
    if (Number(row.has_error) === 1) counts.errors += n;
    if (Number(row.maintenance)) counts.maintenance += n;
    byState.set(state, counts);
  }
  return [...byState]
    .map(([state, counts]) => ({ state, ...counts }))
    .sort((a, b) => a.state.localeCompare(b.state));
}

/** Ironic's get_shard_list: each shard value (null included) and its node count, most first. */
export async function countNodesByShard(
  ctx: StoreContext,
): Promise<{ shard: string | null; count: number }[]> {
  const rows = await ctx.database.kysely
    .selectFrom('nodes')
    .select(['shard', ctx.database.kysely.fn.countAll<number | string>().as('count')])
    .groupBy('shard')
    .orderBy('shard')
    .execute();
  return rows
    .map((row) => ({ shard: row.shard, count: Number(row.count) }))
    .sort((a, b) => b.count - a.count);
}
