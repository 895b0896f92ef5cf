/** What RPC 1.1 `get_node_inventory` answers and `GET /v1/nodes/{node}/inventory` shows. */
export interface NodeInventoryBody {
  readonly inventory: Record<string, unknown> | null;
  readonly plugin_data: Record<string, unknown> | null;
}
