/**
 * GET /v1/nodes/{node}/inventory (API 1.81, NodeInventoryController): the node's inventory and
 * inspection plugin data, `{"inventory": …, "plugin_data": …}`; a node never inspected is the
 * real NodeInventoryNotFound (404). Below 1.81 the real nodes controller aborts with WebOb's
 * 404 before looking at the node.
 *
 * The real API reads the table itself; Baton asks the node's conductor (RPC 1.1
 * get_node_inventory, manager-inventory.ts), so the API checks the RPC cap in force first. A
 * cap below 1.1 means a conductor of the previous release may be asked, which has no such
 * method: the request is refused with 406, as the rolling-upgrade doc says for what the API version pin does
 * not already prevent.
 */
import type { FastifyInstance } from 'fastify';
import { CONDUCTOR_RPC } from '../rpcapi/versions.ts';
import { type Handler, servicesOf } from './context.ts';
import { HttpAbort, NotAcceptableError } from './errors.ts';
import { FEATURES } from './features.ts';
import { findNode } from './node-lookup.ts';
import { nodeIdent } from './nodes.ts';
import { args, bindParams } from './params.ts';
import { declareRoute } from './routing.ts';

const show: Handler = async (request) => {
  const ident = nodeIdent(request);
  if (!request.microversion.atLeast(FEATURES.nodeInventory)) throw new HttpAbort(404);
  bindParams(request, {});
  args.uuidOrName('node_ident', ident);
  const { conductors } = servicesOf(request);
  if (!conductors.canSend(CONDUCTOR_RPC.named.nodeInventory)) {
    throw new NotAcceptableError(
      'Request not acceptable. The node inventory needs conductor RPC API 1.1, above the version cap in force',
    );
  }
  const node = await findNode(request, ident);
  return conductors.getNodeInventory(node);
};

export function registerNodeInventoryRoutes(app: FastifyInstance): void {
  declareRoute(app, '/v1/nodes/:node/inventory', { GET: show });
}
