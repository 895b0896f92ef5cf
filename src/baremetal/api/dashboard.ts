/**
 * The dashboard of the deployment (issue 15 §7; docs/operations.md, "Dashboard"): the page at
 * `/dashboard` and its JSON feed at `/dashboard/state.json`, paths Ironic's API does not use.
 * They show deployment details (hosts, releases, caps) and ask for no token, whatever the
 * auth strategy (a browser sends none): both answer loopback clients only, a 404 in Ironic's
 * format to anyone else, also when `[api] insecure_noauth_on_any_address` or Keystone opens
 * the API itself to the network.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DASHBOARD_HTML } from '../../service/dashboard/dashboard-page.ts';
import { HttpAbort } from './errors.ts';
import { DASHBOARD_FEED, DASHBOARD_PAGE } from './wsgi-path.ts';

/** The feed's content, read when asked (the composition root reads the database). */
export type DashboardFeed = () => Promise<unknown>;

function fromLoopback(request: FastifyRequest): boolean {
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
