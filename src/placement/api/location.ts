/**
 * `Location` headers as the real service sends them: it sets a path, and WebOb makes it an
 * absolute URL from the request's scheme and Host (dropping the scheme's default port).
 */
import type { FastifyRequest } from 'fastify';

const DEFAULT_PORTS: Readonly<Record<string, string>> = { http: '80', https: '443' };

export function absoluteLocation(request: FastifyRequest, path: string): string {
  let host = request.headers.host ?? request.host;
  const colon = host.lastIndexOf(':');
  if (colon !== -1 && !host.endsWith(']')) {
    const port = host.slice(colon + 1);
    if (port === DEFAULT_PORTS[request.protocol]) host = host.slice(0, colon);
  }
  return `${request.protocol}://${host}${path}`;
}
