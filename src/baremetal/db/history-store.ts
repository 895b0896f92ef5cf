/**
 * Node history (Ironic's `*_node_history*` db functions, API 1.78): rows of `node_history`, one
 * per event the conductor recorded on a node (conductor/node-history.ts), read by the API in
 * pages, cut back by the conductor's cleanup, deleted with the node.
 */
import { randomUUID } from 'node:crypto';
import { retryOnDeadlock } from '../../db/index.ts';
import { NodeHistory, type NodeHistoryObject } from '../objects/index.ts';
import { toColumns } from './codec.ts';
import type { StoreContext } from './context.ts';
import { NotFoundError } from './errors.ts';
import { changesForDb, objectFromRow } from './object-rows.ts';
import { applyPage, checkPageOptions, findMarker, type PageOptions } from './pagination.ts';
import type { Row } from './tables.ts';

const COLUMNS = [...NodeHistory.fieldNames, 'version'] as const;

function selectHistory(ctx: StoreContext) {
  return ctx.database.kysely
    .selectFrom('node_history')
    .select(COLUMNS.map((c) => `node_history.${c}`) as unknown as never[]);
}

/** A new event: a fresh UUID and the store's now (create_node_history). */
export async function createNodeHistory(
  ctx: StoreContext,
  event: NodeHistoryObject,
): Promise<NodeHistoryObject> {
  const values = changesForDb(event, ctx.targets);
  delete values.id;
  values.uuid = randomUUID();
  if (values.created_at === undefined || values.created_at === null) values.created_at = ctx.now();
  await retryOnDeadlock(() =>
    ctx.database.kysely
      .insertInto('node_history')
      .values(toColumns(values) as never)
      .execute(),
  );
  return getNodeHistoryByUuid(ctx, String(values.uuid));
}

/** One event by its UUID, whatever its node (get_node_history_by_uuid). */
export async function getNodeHistoryByUuid(
  ctx: StoreContext,
  uuid: string,
): Promise<NodeHistoryObject> {
  const row = await selectHistory(ctx).where('uuid', '=', uuid).executeTakeFirst();
  if (row === undefined) throw new NotFoundError('node_history', uuid);
  return objectFromRow(NodeHistory, row as Row);
}

/**
 * A node's events, oldest first (by id, as get_node_history_by_node_id pages them without a
 * sort key); the marker is an event's UUID, any node's.
 */
export async function listNodeHistory(
  ctx: StoreContext,
  nodeId: number,
  page: PageOptions = {},
): Promise<NodeHistoryObject[]> {
  checkPageOptions('node_history', page);
  const marker = await findMarker(ctx.database.kysely, 'node_history', 'node_history', page);
  const query = selectHistory(ctx).where('node_id', '=', nodeId);
  const rows = await applyPage(query, 'node_history', page, marker).execute();
  return rows.map((row) => objectFromRow(NodeHistory, row as Row));
}

/**
 * query_node_history_records_for_purge: for each node whose conductor_affinity is this
 * conductor, the ids of its events beyond `maxEntries`, oldest first, counting only events
 * created before `before` when given. Nodes without excess are left out.
 */
export async function excessNodeHistoryForConductor(
  ctx: StoreContext,
  conductorId: number,
  maxEntries: number,
  before?: Date,
): Promise<Map<number, number[]>> {
  let query = ctx.database.kysely
    .selectFrom('node_history')
    .select(['node_history.node_id', 'node_history.id'])
    .where('node_history.node_id', 'in', (eb) =>
      eb.selectFrom('nodes').select('nodes.id').where('nodes.conductor_affinity', '=', conductorId),
    );
  if (before !== undefined) query = query.where('node_history.created_at', '<', before);
  const rows = await query.orderBy('node_history.created_at').orderBy('node_history.id').execute();
  const byNode = new Map<number, number[]>();
  for (const row of rows) {
    const nodeId = Number(row.node_id);
    const ids = byNode.get(nodeId) ?? [];
    ids.push(Number(row.id));
    byNode.set(nodeId, ids);
  }
  const excess = new Map<number, number[]>();
  for (const [nodeId, ids] of byNode) {
    if (ids.length > maxEntries) excess.set(nodeId, ids.slice(0, ids.length - maxEntries));
  }
  return excess;
}

/** Deletes events by id (bulk_delete_node_history_records). */
export async function deleteNodeHistory(ctx: StoreContext, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await retryOnDeadlock(() =>
    ctx.database.kysely
      .deleteFrom('node_history')
      .where('id', 'in', [...ids])
      .execute(),
  );
}
