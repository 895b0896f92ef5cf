/**
 * PUT /v1/nodes/{node}/states/raid (1.12) as the real API serves it (NodeStatesController.raid):
 * the whole JSON body is the node's target RAID configuration (`method.body`; no body: `{}`,
 * which unsets it), checked to be an object, then the policy and the node, then the version
 * (406 below 1.12). The conductor checks it with the node's RAID interface (the logical disk
 * schema; `no-raid` refuses, answered 404 as the real API changes its code) and stores it,
 * under the node's lock: 204. The conductor method is Baton's RPC 1.4: under a cap below it
 * the answer is 406 (node-actions-rpc.ts).
 */
import type { FastifyInstance } from 'fastify';
import { UnsupportedDriverExtensionError } from '../common/errors.ts';
import { type Handler, servicesOf } from './context.ts';
import { ClientSideError, NotAcceptableError } from './errors.ts';
import { FEATURES } from './features.ts';
import { requireNodeActions } from './node-actions-rpc.ts';
import { findNode } from './node-lookup.ts';
import { nodeIdent } from './nodes.ts';
import { args, bindParams } from './params.ts';
import { declareRoute } from './routing.ts';

const setRaid: Handler = async (request, reply) => {
  const ident = nodeIdent(request);
  const params = bindParams(
    request,
    { target_raid_config: { required: true } },
    { bodyArg: 'target_raid_config' },
  );
  // args.validate's order: the node's identity, then the body's type.
  args.uuidOrName('node_ident', ident);
  const config = args.types('dict')('target_raid_config', params.target_raid_config);
  const node = await findNode(request, ident);
  if (!request.microversion.atLeast(FEATURES.raidConfig)) throw new NotAcceptableError();
  const { conductors } = servicesOf(request);
  await conductors.conductorFor(node);
  requireNodeActions(request);
  try {
    await conductors.setTargetRaidConfig(node, config as Record<string, unknown>);
  } catch (error) {
    if (error instanceof UnsupportedDriverExtensionError) {
      throw new ClientSideError(error.message, 404);
    }
    throw error;
  }
  reply.code(204);
  return undefined;
};

export function registerNodeRaidRoutes(app: FastifyInstance): void {
  declareRoute(app, '/v1/nodes/:node/states/raid', { PUT: setRaid });
}
