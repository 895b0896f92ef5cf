/**
 * The dashboard of the deployment (issue 15 §7; docs/operations.md, "Dashboard"): the page at
 * `/dashboard` and its JSON feed at `/dashboard/state.json`, paths Ironic's API does not use.
 * They show deployment details (hosts, releases, caps): both answer loopback clients only, a
 * 404 in Ironic's format to anyone else, also when `[api] insecure_noauth_on_any_address` or
 * Keystone opens the API itself to the network. A request that came through a proxy on the
 * same machine (`X-Forwarded-For`, `Forwarded`, `X-Real-IP`) is not taken as a loopback
 * client's: the proxy may be relaying anyone. Under Keystone they also need an admin token
 * (Ironic's `admin_api` rule, route-access.ts); under noauth nothing else is asked.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DASHBOARD_HTML } from '../../service/dashboard/dashboard-page.ts';
import { HttpAbort } from './errors.ts';
import { DASHBOARD_FEED, DASHBOARD_PAGE } from './wsgi-path.ts';

/** The feed's content, read when asked (the composition root reads the database). */
export type DashboardFeed = () => Promise<unknown>;

/** Headers a proxy adds when it relays a client: the socket's address is then the proxy's. */
const PROXY_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip'] as const;

export function fromLoopback(request: FastifyRequest): boolean {
  if (PROXY_HEADERS.some((name) => request.headers[name] !== undefined)) return false;
  const address = request.socket.remoteAddress ?? '';
  return address === '::1' || /^(::ffff:)?127\./.test(address);
}

export function registerDashboard(app: FastifyInstance, feed: DashboardFeed): void {
  app.get(DASHBOARD_PAGE, async (request, reply) => {
    if (!fromLoopback(request)) throw new HttpAbort(404);
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(DASHBOARD_HTML);
  });
  app.get(DASHBOARD_FEED, async (request, reply) => {
    if (!fromLoopback(request)) throw new HttpAbort(404);
    return reply
      .type('application/json')
      .header('cache-control', 'no-store')
      .send(await feed());
  });
}
