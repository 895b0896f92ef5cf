/**
 * RPC 1.1 `get_node_inventory`: the node's stored inventory and inspection plugin data, as
 * `GET /v1/nodes/{node}/inventory` (API 1.81) answers them. The conductor answers it because
 * inspection results are its own: it writes them (inspection, the inventory move of
 * online-migrations/), and where they are kept is its setting (Ironic's `[inventory]
 * data_backend`). A read: no reservation is taken.
 */
import type { NodeInventoryBody } from '../common/node-inventory-body.ts';
import type { ConductorContext } from './conductor-context.ts';

export async function getNodeInventory(
  ctx: ConductorContext,
  nodeId: string,
): Promise<NodeInventoryBody> {
  const node = await ctx.store.nodes.get(nodeId);
  // Not found names the node by its database id, as the real one does.
  const record = await ctx.store.inventories.get(Number(node.get('id')));
  return { inventory: record.get('inventory_data'), plugin_data: record.get('plugin_data') };
}
