/**
 * Node inventories (Ironic's `*_node_inventory*` db functions, API 1.81): one row of
 * `node_inventory` per inspected node, its inventory and the inspection's plugin data as JSON.
 * Written at the caps in force like every object table; deleted with the node.
 */
import { NodeInventory, type NodeInventoryObject } from '../objects/index.ts';
import { toColumns } from './codec.ts';
import type { StoreContext } from './context.ts';
import { NotFoundError } from './errors.ts';
import { changesForDb, objectFromRow } from './object-rows.ts';
import type { Row } from './tables.ts';

const COLUMNS = [...NodeInventory.fieldNames, 'version'] as const;

function rowOf(row: Row): Row {
  const result = { ...row };
  for (const column of ['inventory_data', 'plugin_data']) {
    const value = result[column];
    if (typeof value === 'string') result[column] = JSON.parse(value);
  }
  return result;
}

/** The inventory of a node by its id (NodeInventoryNotFound names the id, as Ironic's does). */
export async function getNodeInventory(
  ctx: StoreContext,
  nodeId: number,
): Promise<NodeInventoryObject> {
  const row = await ctx.database.kysely
    .selectFrom('node_inventory')
    .select(COLUMNS as unknown as never[])
    .where('node_id', '=', nodeId)
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (row === undefined) throw new NotFoundError('node_inventory', nodeId);
  return objectFromRow(NodeInventory, rowOf(row as Row));
}

/**
 * Stores a node's inventory, replacing the one it had (Ironic's store_introspection_data
 * destroys the old record, then creates the new one), in the caller's transaction if given.
 */
export async function setNodeInventory(
  ctx: StoreContext,
  inventory: NodeInventoryObject,
  db = ctx.database.kysely,
): Promise<void> {
  const values = changesForDb(inventory, ctx.targets);
  delete values.id;
  if (values.created_at === undefined || values.created_at === null) values.created_at = ctx.now();
  await db.deleteFrom('node_inventory').where('node_id', '=', inventory.get('node_id')).execute();
  await db
    .insertInto('node_inventory')
    .values(toColumns(values) as never)
    .execute();
}
