/**
 * The path the real Ironic routes on, from the request URL: a `.json` suffix is dropped (its
 * JsonExtensionMiddleware, which also lets a node be found by a name ending in `.json`), a path
 * that does not start with `/v1` is served as if it did (the root controller's `_lookup`), and
 * one trailing slash is dropped. The path before the `/v1` prefix is kept for the one check
 * the real service makes on it (`/detail` only under its collection). Baton's own
 * `/openapi/X.Y.json` documents are routed as they are (the real service has no such path).
 */
import type { IncomingMessage } from 'node:http';
import { HEALTHCHECK_PATH, METRICS_PATH } from '../../service/http/fastify-operations.ts';

export interface IronicPath {
  /** What the routes match: `/`, `/healthcheck`, `/metrics`, or `/v1...`. */
  readonly routed: string;
  /** The path as the application saw it (after the `.json` strip), for `/detail`'s check. */
  readonly seen: string;
  /** The request path ended in `.json`. */
  readonly jsonSuffix: boolean;
}

const PATHS = new WeakMap<IncomingMessage, IronicPath>();

/** Where Baton serves its OpenAPI documents, outside what Ironic routes. */
export const OPENAPI_PREFIX = '/openapi/';
/** Baton's own pages (api/dashboard.ts), routed as they are: the real service has none. */
export const DASHBOARD_PAGE = '/dashboard';
export const DASHBOARD_FEED = '/dashboard/state.json';

export function ironicPath(path: string): IronicPath {
  if (path.startsWith(OPENAPI_PREFIX) || path === DASHBOARD_PAGE || path === DASHBOARD_FEED) {
    return { routed: path, seen: path, jsonSuffix: false };
  }
  let seen = path === '' ? '/' : path;
  let jsonSuffix = false;
  const stripped = seen.replace(/\/+$/, '');
  if (stripped.endsWith('.json')) {
    seen = stripped.slice(0, -'.json'.length);
    jsonSuffix = true;
  }
  // The operations' two paths (service/http/fastify-operations.ts) are the API port's own,
  // as docs/operations.md says: never read as `/v1/metrics`.
  if (seen === '/' || seen === '' || seen === HEALTHCHECK_PATH || seen === METRICS_PATH) {
    return { routed: seen || '/', seen: seen || '/', jsonSuffix };
  }
  const first = seen.split('/')[1];
  let routed = first === 'v1' ? seen : `/v1${seen}`;
  if (routed.endsWith('/')) routed = routed.slice(0, -1);
  return { routed, seen, jsonSuffix };
}

/** Fastify's rewriteUrl: the routed path, the query kept; the parts remembered for the request. */
export function rewriteIronicUrl(raw: IncomingMessage): string {
  const url = raw.url ?? '/';
  const mark = url.indexOf('?');
  const path = mark < 0 ? url : url.slice(0, mark);
  const query = mark < 0 ? '' : url.slice(mark);
  const parts = ironicPath(path);
  PATHS.set(raw, parts);
  return parts.routed + query;
}

/** The request's path parts (as rewritten); a request not rewritten is taken as it is. */
export function pathOf(raw: IncomingMessage): IronicPath {
  return PATHS.get(raw) ?? ironicPath((raw.url ?? '/').split('?')[0] as string);
}
