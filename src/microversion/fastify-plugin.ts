import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import type { VersionNegotiator } from './negotiator.ts';
import { ResolvedVersion } from './resolved-version.ts';
import type { VersionServerError } from './server-errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The version this request is answered at; set before any route handler runs. */
    microversion: ResolvedVersion;
  }
  interface FastifyInstance {
    /** The service's negotiator, for handlers and adapters that answer version errors. */
    microversion: VersionNegotiator;
  }
  interface FastifyContextConfig {
    microversion?: { readonly unversioned?: boolean };
  }
}

export interface MicroversionPluginOptions {
  readonly negotiator: VersionNegotiator;
}

/**
 * Route config for a route outside versioning: a bad or unsupported header does not fail it
 * (it is answered at the default version), but the response still gets the version headers.
 * Placement does NOT treat its root document this way: `GET /` with `placement 0.5` is a 406
 * there too. Ironic's root, which lives outside `/v1`, is the intended user.
 */
export const UNVERSIONED_ROUTE = { microversion: { unversioned: true } } as const;

function isUnversioned(request: FastifyRequest): boolean {
  // routeOptions builds an object per access, so it is read only on the (rare) error path.
  return request.routeOptions.config?.microversion?.unversioned === true;
}

/** Sends a version error in the service's format; the version headers follow in onSend. */
export function sendVersionError(
  request: FastifyRequest,
  reply: FastifyReply,
  error: VersionServerError,
  version?: ResolvedVersion,
): FastifyReply {
  const negotiator = request.server.microversion;
  return reply
    .code(error.status)
    .type('application/json')
    .send(negotiator.errorBody(error, request.id, version));
}

/** Sets Vary, or adds our names to a Vary the handler set (`*` already covers everything). */
function addVary(reply: FastifyReply, negotiator: VersionNegotiator): void {
  const existing = reply.getHeader('vary');
  if (existing === undefined) {
    reply.header('vary', negotiator.vary);
    return;
  }
  if (typeof existing !== 'string') return;
  const lower = existing.toLowerCase();
  if (lower.trim() === '*') return;
  const missing = negotiator.style.varyNames.filter((name) => !lower.includes(name));
  if (missing.length > 0) reply.header('vary', `${existing}, ${missing.join(', ')}`);
}

const plugin: FastifyPluginCallback<MicroversionPluginOptions> = (app, options, done) => {
  const negotiator = options.negotiator;
  app.decorate('microversion', negotiator);
  app.decorateRequest('microversion', null, []);

  // Callback-style hooks: no promise per request on the hot path.
  app.addHook('onRequest', (request, reply, next) => {
    const resolved = negotiator.resolve(request.headers);
    if (resolved instanceof ResolvedVersion) {
      request.microversion = resolved;
      next();
      return;
    }
    request.microversion = negotiator.defaultVersion;
    if (isUnversioned(request)) {
      next();
      return;
    }
    sendVersionError(request, reply, resolved);
  });

  app.addHook('onSend', (request, reply, payload, next) => {
    // Requests failed before onRequest (a malformed URL) still get the default version's headers.
    const resolved = request.microversion ?? negotiator.defaultVersion;
    const headers = resolved.headers;
    for (let i = 0; i < headers.length; i++) {
      const header = headers[i] as readonly [string, string];
      reply.header(header[0], header[1]);
    }
    addVary(reply, negotiator);
    next(null, payload);
  });

  done();
};

// Same effect as wrapping with fastify-plugin: hooks and decorations reach the whole app.
Object.assign(plugin, {
  [Symbol.for('skip-override')]: true,
  [Symbol.for('fastify.display-name')]: 'baton-microversion',
});

/** Registers microversion negotiation for every route of the app (register it first). */
export const microversionPlugin = plugin;
