/**
 * /v1/nodes as the real API serves it (NodesController): the lists (node-list.ts), show by
 * UUID or name, create, PATCH and delete (node-writes.ts), validate; and the node's
 * sub-resources, each in a module of its own. Every `/v1/nodes/{node}/…` path first passes
 * the controller's check of the node segment (node-lookup.ts).
 */

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isUuidLike } from '../../python-compat/index.ts';
import { InvalidParameterError, NoValidHostError } from '../common/errors.ts';
import { type Handler, servicesOf } from './context.ts';
import { ClientSideError, HttpAbort, NotAcceptableError, withStatus } from './errors.ts';
import { FEATURES } from './features.ts';
import type { PatchOperation } from './json-patch.ts';
import { buildUrl, publicUrl } from './links.ts';
import { checkFieldsAllowed } from './list-params.ts';
import { authorizeNodePatch } from './node-access.ts';
import { checkNodeFieldsAllowed } from './node-fields.ts';
import { listNodes, listNodesDetail } from './node-list.ts';
import { checkNodeSegment, findNode } from './node-lookup.ts';
import { NODE_VALIDATOR } from './node-schemas.ts';
import { NodeViewContext, nodeBody } from './node-view.ts';
import { createNode, patchedAgainOnChange, patchNode, validateNodePatch } from './node-writes.ts';
import { args, bindParams } from './params.ts';
import { COLLECTION_METHODS, declareRoute } from './routing.ts';
import { PATCH_ARG } from './schema-args.ts';

/** The node segment of the path, checked as the real controller checks it before routing. */
export function nodeIdent(request: FastifyRequest): string {
  const { node } = request.params as { node: string };
  checkNodeSegment(node);
  return node;
}

async function showNode(request: FastifyRequest, positionalFields?: string) {
  const ident = nodeIdent(request);
  const params = bindParams(request, { fields: { validate: args.stringList } });
  if (positionalFields !== undefined) params.fields = args.stringList('fields', positionalFields);
  args.uuidOrName('node_ident', ident);
  const node = await findNode(request, ident, { withSuffix: true });
  const fields = params.fields as string[] | undefined;
  checkFieldsAllowed(request, fields);
  checkNodeFieldsAllowed(request, fields);
  return nodeBody(new NodeViewContext(request), node, fields);
}

const show: Handler = async (request) => showNode(request);

/** Sub-resources of the real API this release does not implement. */
const UNIMPLEMENTED = [
  'volume',
  'vendor_passthru',
  // The real one reads the node segment as a chassis UUID here; not reproduced (docs).
  'detail',
];

/**
 * GET /v1/nodes/{node}/{x} for an `x` that is no sub-resource: pecan binds it to get_one's
 * `fields` argument, so the real service answers it as `?fields=x`.
 */
const showPositional: Handler = async (request) => {
  const { extra } = request.params as { extra: string };
  nodeIdent(request);
  if (UNIMPLEMENTED.includes(extra)) throw new HttpAbort(404);
  return showNode(request, extra);
};

const create: Handler = async (request, reply) => {
  const params = bindParams(request, { node: { validate: NODE_VALIDATOR } }, { bodyArg: 'node' });
  const node = await createNode(request, params.node as Record<string, unknown>);
  reply
    .code(201)
    .header('location', buildUrl(publicUrl(request), 'nodes', String(node.get('uuid'))));
  return nodeBody(new NodeViewContext(request), node);
};

/** POST /v1/nodes/{x}: pecan binds the segment to the body argument. */
const createUnder: Handler = async (request) => {
  const ident = nodeIdent(request);
  NODE_VALIDATOR('node', ident);
  throw new HttpAbort(404);
};

const update: Handler = async (request) => {
  const ident = nodeIdent(request);
  const params = bindParams(
    request,
    {
      reset_interfaces: { validate: args.boolean },
      patch: { validate: PATCH_ARG },
    },
    { bodyArg: 'patch' },
  );
  const resetInterfaces = params.reset_interfaces as boolean | undefined;
  if (resetInterfaces !== undefined && !request.microversion.atLeast(FEATURES.resetInterfaces)) {
    throw new NotAcceptableError();
  }
  const patch = params.patch as PatchOperation[];
  validateNodePatch(request, patch, resetInterfaces);
  const saved = await patchedAgainOnChange(request, ident, async () => {
    await authorizeNodePatch(request, ident, patch);
    const node = await findNode(request, ident, { withSuffix: true });
    return patchNode(request, ident, node, patch, resetInterfaces);
  });
  return nodeBody(new NodeViewContext(request), saved);
};

const destroy: Handler = async (request, reply) => {
  const ident = nodeIdent(request);
  bindParams(request, {});
  const node = await findNode(request, ident, { withSuffix: true });
  const { conductors } = servicesOf(request);
  await withStatus(400, [NoValidHostError], () => conductors.conductorFor(node));
  await conductors.destroyNode(node);
  reply.code(204);
  return undefined;
};

const missingIdent: Handler = async () => {
  throw new InvalidParameterError('Missing mandatory parameter: node_ident');
};

/** GET /v1/nodes/validate?node=… and /v1/nodes/{node}/validate. */
async function validate(request: FastifyRequest, positional?: string) {
  const params = bindParams(request, {
    node: { validate: args.uuidOrName },
    node_uuid: { validate: args.uuid },
  });
  const node = (positional ?? params.node) as string | undefined;
  if (positional !== undefined) args.uuidOrName('node', positional);
  if (
    node !== undefined &&
    !request.microversion.atLeast(FEATURES.nodeNames) &&
    !isUuidLike(node)
  ) {
    throw new NotAcceptableError();
  }
  const ident = (params.node_uuid as string | undefined) ?? node;
  if (ident === undefined) {
    throw new ClientSideError('Expected a logical name or UUID but received None.');
  }
  const found = await findNode(request, ident);
  return servicesOf(request).conductors.validateDriverInterfaces(found);
}

const validateCollection: Handler = async (request) => validate(request);
const validateNode: Handler = async (request) => validate(request, nodeIdent(request));

export function registerNodeRoutes(app: FastifyInstance): void {
  declareRoute(
    app,
    '/v1/nodes',
    {
      GET: async (request) => listNodes(request),
      POST: create,
      PATCH: missingIdent,
      DELETE: missingIdent,
    },
    COLLECTION_METHODS,
  );
  declareRoute(app, '/v1/nodes/detail', { GET: async (request) => listNodesDetail(request) });
  declareRoute(app, '/v1/nodes/validate', { GET: validateCollection });
  declareRoute(
    app,
    '/v1/nodes/:node',
    { GET: show, PATCH: update, DELETE: destroy, POST: createUnder },
    COLLECTION_METHODS,
  );
  declareRoute(app, '/v1/nodes/:node/validate', { GET: validateNode });
  declareRoute(app, '/v1/nodes/:node/:extra', { GET: showPositional });
}
