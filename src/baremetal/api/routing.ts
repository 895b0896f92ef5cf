/**
 * Routes as the real Ironic's controllers expose them: each URL answers the methods its
 * controller has; any other method is WebOb's 405 with `Allow` listing the controller's
 * methods (sorted, as pecan lists them); an unknown URL is WebOb's 404. Handlers return the
 * body to answer with (JSON), or undefined for an empty answer.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Handler } from './context.ts';
import { HttpAbort } from './errors.ts';

export type Method = 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH';
const ALL_METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'] as const;

/**
 * Sends what a handler returned: JSON, or nothing (202 and 204 carry no body). The JSON goes
 * as bytes: Node writes a large string to a socket at several times the cost of a Buffer
 * (a page of 100 nodes is 240 kB).
 */
export function sendResult(reply: FastifyReply, result: unknown): FastifyReply {
  if (reply.sent) return reply;
  if (result === undefined) return reply.removeHeader('content-type').send();
  return reply.type('application/json').send(Buffer.from(JSON.stringify(result)));
}

function wrap(handler: Handler) {
  return async (request: FastifyRequest, reply: FastifyReply) =>
    sendResult(reply, await handler(request, reply));
}

/**
 * Declares a URL: its handlers, and 405 for the other methods. `allow` is what the real
 * controller answers in `Allow` (its methods; the handlers' own by default).
 */
export function declareRoute(
  app: FastifyInstance,
  url: string,
  handlers: Readonly<Partial<Record<Method, Handler>>>,
  allow?: readonly Method[],
): void {
  const declared = Object.keys(handlers) as Method[];
  for (const method of declared) {
    app.route({ method, url, handler: wrap(handlers[method] as Handler) });
  }
  const allowHeader = [...(allow ?? declared)].sort().join(', ');
  const others = ALL_METHODS.filter((method) => !declared.includes(method as Method));
  app.route({
    method: [...others],
    url,
    // Any authenticated caller gets the 405 (api/access.ts).
    config: { methodRefusal: true },
    handler: async () => {
      throw new HttpAbort(405, '', { allow: allowHeader });
    },
  });
}

/** The methods of Ironic's REST controllers of a collection (get_all/get_one, post, patch, delete). */
export const COLLECTION_METHODS: readonly Method[] = ['DELETE', 'GET', 'PATCH', 'POST'];
