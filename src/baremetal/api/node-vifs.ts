/**
 * /v1/nodes/{node}/vifs as the real API serves it (NodeVIFController, from 1.28): list, attach
 * (`{"id": …}` and what the network interface takes), detach. The VIFs are the conductor's
 * (vif_list, vif_attach, vif_detach over RPC, the noop network interface); a driver no
 * conductor runs is 400 here, as the real API converts it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { JsonSchema } from '../../python-compat/index.ts';
import { InvalidError, NoValidHostError } from '../common/errors.ts';
import type { NodeObject } from '../objects/index.ts';
import { type Handler, servicesOf } from './context.ts';
import { HttpAbort, withStatus } from './errors.ts';
import { FEATURES } from './features.ts';
import { findNode } from './node-lookup.ts';
import { nodeIdent } from './nodes.ts';
import { args, bindParams } from './params.ts';
import { declareRoute } from './routing.ts';
import { dictValid, schemaArg } from './schema-args.ts';

export const VIF_SCHEMA: JsonSchema = {
  type: 'object',
  properties: { id: { type: 'string' } },
  required: ['id'],
  additionalProperties: true,
};
const VIF_VALIDATOR = args.and(
  schemaArg(VIF_SCHEMA, { noneIsValid: false }),
  dictValid({ id: args.uuidOrName }),
);

/** The sub-resource exists from 1.28 (WebOb's 404 before, from the router). */
function checkVifsRouted(request: FastifyRequest): void {
  nodeIdent(request);
  if (!request.microversion.atLeast(FEATURES.vifs)) throw new HttpAbort(404);
}

/** The node, once its conductor is known. */
async function routedNode(request: FastifyRequest): Promise<NodeObject> {
  const ident = nodeIdent(request);
  const node = await findNode(request, ident);
  const { conductors } = servicesOf(request);
  await withStatus(400, [NoValidHostError], () => conductors.conductorFor(node));
  return node;
}

const list: Handler = async (request) => {
  checkVifsRouted(request);
  bindParams(request, {});
  const node = await routedNode(request);
  return { vifs: await servicesOf(request).conductors.vifList(node) };
};

const attach: Handler = async (request, reply) => {
  checkVifsRouted(request);
  const params = bindParams(request, { vif: { validate: VIF_VALIDATOR } }, { bodyArg: 'vif' });
  const vif = params.vif as Record<string, unknown>;
  const node = await routedNode(request);
  if (
    request.microversion.atLeast(FEATURES.vifAttachPort) &&
    Object.hasOwn(vif, 'port_uuid') &&
    Object.hasOwn(vif, 'portgroup_uuid')
  ) {
    throw new InvalidError('Cannot specify both port_uuid and portgroup_uuid');
  }
  await servicesOf(request).conductors.vifAttach(node, vif);
  reply.code(204);
  return undefined;
};

const detach: Handler = async (request, reply) => {
  checkVifsRouted(request);
  const { vif } = request.params as { vif: string };
  bindParams(request, {});
  args.uuidOrName('vif_id', vif);
  const node = await routedNode(request);
  await servicesOf(request).conductors.vifDetach(node, vif);
  reply.code(204);
  return undefined;
};

export function registerNodeVifRoutes(app: FastifyInstance): void {
  declareRoute(app, '/v1/nodes/:node/vifs', { GET: list, POST: attach });
  declareRoute(app, '/v1/nodes/:node/vifs/:vif', { DELETE: detach });
}
