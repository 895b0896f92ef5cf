/**
 * PUT /v1/nodes/{node}/states/boot_mode and /states/secure_boot (1.76) as the real API serves
 * them (NodeStatesController.boot_mode / secure_boot): the policy and the node first, then the
 * version (below 1.76 the real NotFound naming it), the target, and a node in a transitional
 * state refused (409, with the real message whose `%(state)s` the real one leaves unformatted).
 * The change is the conductor's, in the background: 202 with the states' Location; what the
 * management interface answers is written to the node (`boot_mode`, `secure_boot`) or, when it
 * refuses (the fake one does), to its last_error.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ConflictError, InvalidParameterError } from '../common/errors.ts';
import { STATE_GROUPS } from '../common/provision-states.ts';
import type { NodeObject } from '../objects/index.ts';
import { type Handler, servicesOf } from './context.ts';
import { ClientSideError } from './errors.ts';
import { FEATURES } from './features.ts';
import { buildUrl, publicUrl } from './links.ts';
import { requireNodeActions } from './node-actions-rpc.ts';
import { findNode } from './node-lookup.ts';
import { nodeIdent } from './nodes.ts';
import { args, bindParams, pyStr } from './params.ts';
import { declareRoute } from './routing.ts';

/** ALLOWED_TARGET_BOOT_MODES, in the real order. */
export const TARGET_BOOT_MODES = ['bios', 'uefi'];

/** The real Conflict text; `%(state)s` is not filled in by the real one (a message given). */
const TRANSITIONING =
  'Node is in %(state)s state. Since node is transitioning, the boot mode will not be set as ' +
  'this may interfere with ongoing changes and result in erroneous modification. Try again later.';

/** The node, its conductor, and the 1.76 gate, in the real order. */
async function nodeFor(request: FastifyRequest, ident: string): Promise<NodeObject> {
  args.uuidOrName('node_ident', ident);
  const node = await findNode(request, ident);
  await servicesOf(request).conductors.conductorFor(node);
  if (!request.microversion.atLeast(FEATURES.changeBootMode)) {
    throw new ClientSideError(
      `This endpoint is supported starting with the API version ${FEATURES.changeBootMode.text}`,
      404,
    );
  }
  return node;
}

function refuseTransitioning(node: NodeObject): void {
  const state = node.get('provision_state') as string;
  if ((STATE_GROUPS.unstable as readonly string[]).includes(state)) {
    throw new ConflictError(TRANSITIONING);
  }
}

function accepted(request: FastifyRequest, reply: FastifyReply, ident: string): undefined {
  reply.header('location', buildUrl(publicUrl(request), 'nodes', `${ident}/states`));
  reply.code(202);
  return undefined;
}

const bootMode: Handler = async (request, reply) => {
  const ident = nodeIdent(request);
  const params = bindParams(request, { target: { validate: args.string, required: true } });
  const node = await nodeFor(request, ident);
  const target = params.target as string | undefined;
  if (target === undefined || !TARGET_BOOT_MODES.includes(target)) {
    throw new InvalidParameterError(
      `Invalid boot mode ${pyStr(target ?? null)} requested for node. Allowed boot modes are: ${TARGET_BOOT_MODES.join(', ')}`,
    );
  }
  refuseTransitioning(node);
  requireNodeActions(request);
  await servicesOf(request).conductors.changeNodeBootMode(node, target);
  return accepted(request, reply, ident);
};

const secureBoot: Handler = async (request, reply) => {
  const ident = nodeIdent(request);
  const params = bindParams(request, { target: { validate: args.boolean, required: true } });
  const node = await nodeFor(request, ident);
  const target = params.target as boolean | undefined;
  if (target === undefined) {
    throw new InvalidParameterError(
      'Invalid secure_boot None requested for node. Allowed secure_boot states are: True, False) ',
    );
  }
  refuseTransitioning(node);
  requireNodeActions(request);
  await servicesOf(request).conductors.changeNodeSecureBoot(node, target);
  return accepted(request, reply, ident);
};

export function registerNodeBootModeRoutes(app: FastifyInstance): void {
  declareRoute(app, '/v1/nodes/:node/states/boot_mode', { PUT: bootMode });
  declareRoute(app, '/v1/nodes/:node/states/secure_boot', { PUT: secureBoot });
}
