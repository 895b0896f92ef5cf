/**
 * Links as the real Ironic builds them (controllers/link.py): `self` under `/v1/`, `bookmark`
 * without it, on the public root (`[api] public_endpoint`, or the request's own host).
 */
import type { FastifyRequest } from 'fastify';
import { servicesOf } from './context.ts';

export interface Link {
  readonly href: string;
  readonly rel: string;
  readonly type?: string;
}

/** The public root of the request, without a trailing slash. */
export function publicUrl(request: FastifyRequest): string {
  const configured = servicesOf(request).settings.publicEndpoint;
  if (configured) return configured.replace(/\/+$/, '');
  const host = request.headers.host ?? `${request.hostname}`;
  return `${request.protocol}://${host}`;
}

/** link.build_url: `<root>/v1/<resource>/<args>` (or `?args`), bookmark without `/v1`. */
export function buildUrl(base: string, resource: string, args: string, bookmark = false): string {
  const root = bookmark ? `${base}/${resource}` : `${base}/v1/${resource}`;
  return args.startsWith('?') ? `${root}${args}` : `${root}/${args}`;
}

/** The `self` and `bookmark` pair every resource body carries. */
export function selfLinks(base: string, resource: string, args: string): Link[] {
  return [
    { href: buildUrl(base, resource, args), rel: 'self' },
    { href: buildUrl(base, resource, args, true), rel: 'bookmark' },
  ];
}
