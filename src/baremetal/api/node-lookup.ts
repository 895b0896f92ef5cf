/**
 * Finding the node a request names, as the real API does (utils.get_rpc_node and the nodes
 * controller's `_lookup`): a UUID, or from 1.5 a logical name (host-name rules before 1.10),
 * a name ending in `.json` found with its suffix too; before routing to a node's
 * sub-resource, a segment that is neither a UUID nor a name is WebOb's 400 and a
 * sub-resource name in the node's place WebOb's 404.
 */
import type { FastifyRequest } from 'fastify';
import { isUuidLike } from '../../python-compat/index.ts';
import { InvalidError, NotFoundError } from '../common/errors.ts';
import type { NodeObject } from '../objects/index.ts';
import { servicesOf } from './context.ts';
import { HttpAbort } from './errors.ts';
import { FEATURES } from './features.ts';
import { isHostnameSafe, isValidLogicalName, pyStr } from './params.ts';
import { pathOf } from './wsgi-path.ts';

/** Names that route to a sub-resource, never to a node (the controller's reserved names). */
const SUBRESOURCES = [
  'ports',
  'portgroups',
  'vifs',
  'volume',
  'traits',
  'bios',
  'allocation',
  'history',
  'inventory',
];

/** The nodes controller's `_lookup` check of the node segment (WebOb errors). */
export function checkNodeSegment(ident: string): void {
  if (SUBRESOURCES.includes(ident)) throw new HttpAbort(404);
  if (!isValidLogicalName(ident) && !isUuidLike(ident)) {
    throw new HttpAbort(400, `Expected UUID or name for node: ${pyStr(ident)}`);
  }
}

/** is_valid_logical_name at the request's version. */
export function isValidNodeName(request: FastifyRequest, name: string): boolean {
  return request.microversion.atLeast(FEATURES.unrestrictedNodeNames)
    ? isValidLogicalName(name)
    : isHostnameSafe(name);
}

async function getRpcNode(request: FastifyRequest, ident: string): Promise<NodeObject> {
  const { store } = servicesOf(request);
  if (isUuidLike(ident)) return store.nodes.get(ident);
  if (request.microversion.atLeast(FEATURES.nodeNames)) {
    if (isValidNodeName(request, ident)) return store.nodes.getByName(ident);
    throw new InvalidError(`Expected a logical name or UUID but received ${ident}.`);
  }
  throw new NotFoundError('node', ident);
}

/** The node `ident` names; with a `.json` suffix in the URL, `<ident>.json` is tried too. */
export async function findNode(
  request: FastifyRequest,
  ident: string,
  options: { readonly withSuffix?: boolean } = {},
): Promise<NodeObject> {
  try {
    return await getRpcNode(request, ident);
  } catch (error) {
    if (
      error instanceof NotFoundError &&
      options.withSuffix === true &&
      pathOf(request.raw).jsonSuffix
    ) {
      return getRpcNode(request, `${ident}.json`);
    }
    throw error;
  }
}
