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

/** What microversionPlugin needs. */
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

/** Sends a version error in the service's format (the version headers are already set). */
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

/**
 * Adds names to the response's Vary. The plugin sets its own Vary before the
 * handler runs, so a handler that varies on more must append with this rather
 * than set the header (`*` covers everything; names already there are kept once).
 */
export function appendVary(reply: FastifyReply, names: string): FastifyReply {
  const existing = reply.getHeader('vary');
  if (typeof existing !== 'string' || existing.trim() === '') return reply.header('vary', names);
  if (existing.trim() === '*' || names.trim() === '*') return reply.header('vary', '*');
  const present = new Set(existing.split(',').map((name) => name.trim().toLowerCase()));
  const added = names
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '' && !present.has(name.toLowerCase()));
  return added.length === 0 ? reply : reply.header('vary', `${existing}, ${added.join(', ')}`);
}

const plugin: FastifyPluginCallback<MicroversionPluginOptions> = (app, options, done) => {
  const negotiator = options.negotiator;
  app.decorate('microversion', negotiator);
  app.decorateRequest('microversion', null, []);

  // One callback-style hook and no onSend pass: the headers are set before the handler runs,
  // so every answer (errors and 404s included) carries them at no further cost per request.
  const vary = negotiator.vary;
  app.addHook('onRequest', (request, reply, next) => {
    const resolved = negotiator.resolve(request.headers);
    const answered = resolved instanceof ResolvedVersion ? resolved : negotiator.defaultVersion;
    request.microversion = answered;
    const headers = answered.headers;
    for (let i = 0; i < headers.length; i++) {
      const header = headers[i] as readonly [string, string];
      reply.header(header[0], header[1]);
    }
    reply.header('vary', vary);
    if (resolved instanceof ResolvedVersion || isUnversioned(request)) {
      next();
      return;
    }
    sendVersionError(request, reply, resolved);
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
