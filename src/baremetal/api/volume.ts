/**
 * /v1/volume (API 1.32) as the real VolumeController serves it: the links to the connectors and
 * targets, at the root and under a node (its segment as given; the node is not looked up), and
 * the routes of both collections (volume-resource.ts). Below 1.32 the root is the real
 * NotFound fault and anything under it WebOb's 404 (pecan.abort in `_lookup`).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { accessOf } from './access.ts';
import type { Handler } from './context.ts';
import { ClientSideError, HttpAbort } from './errors.ts';
import { FEATURES } from './features.ts';
import { buildUrl, publicUrl } from './links.ts';
import { nodeIdent } from './nodes.ts';
import { bindParams } from './params.ts';
import { COLLECTION_METHODS, declareRoute } from './routing.ts';
import { CONNECTOR_KIND, TARGET_KIND, type VolumeKind, volumeHandlers } from './volume-resource.ts';

const linkPair = (base: string, resource: string, rest: string) => [
  { href: buildUrl(base, resource, rest), rel: 'self' },
  { href: buildUrl(base, resource, rest, true), rel: 'bookmark' },
];

/** volume.convert: the links of the root and of both collections. */
function volumeRoot(request: FastifyRequest, node: string | undefined) {
  const base = publicUrl(request);
  const [resource, rest] = node === undefined ? ['volume', ''] : ['nodes', `${node}/volume/`];
  return {
    links: linkPair(base, resource, rest),
    connectors: linkPair(base, resource, `${rest}connectors`),
    targets: linkPair(base, resource, `${rest}targets`),
  };
}

const showRoot =
  (underNode: boolean): Handler =>
  async (request) => {
    const node = underNode ? nodeIdent(request) : undefined;
    if (!request.microversion.atLeast(FEATURES.volume)) {
      throw new ClientSideError('Resource could not be found.', 404);
    }
    bindParams(request, {});
    accessOf(request)?.authorize('baremetal:volume:get');
    return volumeRoot(request, node);
  };

/** VolumeController._lookup: below 1.32 nothing under /volume is routed. */
function gated(handler: Handler, underNode: boolean): Handler {
  return async (request, reply) => {
    if (underNode) nodeIdent(request);
    if (!request.microversion.atLeast(FEATURES.volume)) throw new HttpAbort(404);
    return handler(request, reply);
  };
}

function registerKind(app: FastifyInstance, kind: VolumeKind): void {
  const h = volumeHandlers(kind);
  for (const prefix of ['/v1/volume', '/v1/nodes/:node/volume']) {
    const underNode = prefix !== '/v1/volume';
    declareRoute(
      app,
      `${prefix}/${kind.collection}`,
      {
        GET: gated(h.list, underNode),
        POST: gated(h.create, underNode),
        PATCH: gated(h.missingUuid, underNode),
        DELETE: gated(h.missingUuid, underNode),
      },
      COLLECTION_METHODS,
    );
    declareRoute(
      app,
      `${prefix}/${kind.collection}/:volume`,
      {
        GET: gated(h.show, underNode),
        PATCH: gated(h.update, underNode),
        DELETE: gated(h.destroy, underNode),
        POST: gated(h.createUnder, underNode),
      },
      COLLECTION_METHODS,
    );
    declareRoute(app, `${prefix}/${kind.collection}/:volume/:extra`, {
      GET: gated(h.showPositional, underNode),
    });
  }
}

export function registerVolumeRoutes(app: FastifyInstance): void {
  declareRoute(app, '/v1/volume', { GET: showRoot(false) });
  declareRoute(app, '/v1/nodes/:node/volume', { GET: showRoot(true) });
  registerKind(app, CONNECTOR_KIND);
  registerKind(app, TARGET_KIND);
}
