/**
 * Route declarations as the real service makes them: each URL lists its methods; any other
 * method on a known URL answers 405 with `Allow`; an unknown URL answers 404. A handler that
 * exists only from some microversion answers 404 below it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FeatureGate, FeatureWindows } from '../../microversion/index.ts';
import { notFound, PlacementHttpError } from './errors.ts';
import type { Handler } from './request-context.ts';

export type Method = 'GET' | 'PUT' | 'POST' | 'DELETE';
const ALL_METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'] as const;

/** The real router's 404 for a URL no route matches (raised past the handlers). */
export const unknownUrl = () => new PlacementHttpError(404, '', { escapesHandler: true });

/** A path segment such as `{uuid}` matches one or more characters, never none. */
function matchesSegments(handler: Handler): Handler {
  return async (request, reply) => {
    const params = request.params as Record<string, string>;
    for (const key in params) if (params[key] === '') throw unknownUrl();
    return handler(request, reply);
  };
}

export function declareRoute(
  app: FastifyInstance,
  url: string,
  handlers: Readonly<Partial<Record<Method, Handler>>>,
): void {
  const declared = Object.keys(handlers) as Method[];
  const guard = url.includes(':') ? matchesSegments : (handler: Handler) => handler;
  for (const method of declared) {
    app.route({ method, url, handler: guard(handlers[method] as Handler) });
  }
  const allow = declared.join(', ');
  const others = ALL_METHODS.filter((m) => !declared.includes(m as Method));
  app.route({
    method: [...others],
    url,
    handler: guard(async () => {
      throw new PlacementHttpError(405, 'The method specified is not allowed for this resource.', {
        headers: { allow },
      });
    }),
  });
}

/** 404 (as the real service answers) when the request's version is below `since`. */
export function requireVersion(request: FastifyRequest, since: FeatureGate): void {
  if (!request.microversion.atLeast(since)) throw notFound('');
}

/** A handler that exists only from the gate `since` on. */
export function since(gate: FeatureGate, handler: Handler): Handler {
  return async (request, reply) => {
    requireVersion(request, gate);
    return handler(request, reply);
  };
}

/** The handler whose window serves the request's version; 404 where none does. */
export function windowed(handlers: FeatureWindows<Handler>): Handler {
  return async (request, reply) => {
    const handler = handlers.select(request.microversion.version);
    if (handler === undefined) throw notFound('');
    return handler(request, reply);
  };
}
