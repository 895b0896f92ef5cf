/**
 * RPC 1.1 `get_node_inventory`: the node's stored inventory and inspection plugin data, as
 * `GET /v1/nodes/{node}/inventory` (API 1.81) answers them. The conductor answers it because
 * inspection results are its own: it writes them (inspection, the inventory move of
 * online-migrations/), and where they are kept is its setting (Ironic's `[inventory]
 * data_backend`). A read: no reservation is taken.
 *
 * Until `move_inventory_to_node_inventory` has moved a node's inventory out of its `extra`
 * (the place the previous release kept one, docs/releases.md), the answer is read from there:
 * an API serving 1.81 shows the same inventory before and after the move, so a rolling
 * upgrade never shows an inventory as missing while its data migration is under way.
 */
import type { NodeInventoryBody } from '../common/node-inventory-body.ts';
import { NotFoundError } from '../db/errors.ts';
import { inventoryHeldInExtra } from '../online-migrations/move-inventory.ts';
import type { ConductorContext } from './conductor-context.ts';

export async function getNodeInventory(
  ctx: ConductorContext,
  nodeId: string,
): Promise<NodeInventoryBody> {
  const node = await ctx.store.nodes.get(nodeId);
  try {
    // Not found names the node by its database id, as the real one does.
    const record = await ctx.store.inventories.get(Number(node.get('id')));
    return { inventory: record.get('inventory_data'), plugin_data: record.get('plugin_data') };
  } catch (error) {
    const held =
      error instanceof NotFoundError ? inventoryHeldInExtra(node.get('extra')) : undefined;
    if (held === undefined) throw error;
    return held;
  }
}
