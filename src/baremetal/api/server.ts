/**
 * A listening bare metal API and its stop. Stopping an API process behind a load balancer
 * must not fail a request, so `drain()` runs the toolkit's stop (service/http/http-drain.ts):
 *
 *   1. fails the health check (`/healthcheck` answers 503) and asks every client to close its
 *      connection after the answer it is given (`Connection: close`);
 *   2. keeps serving for `[healthcheck] drain_delay` seconds (formerly `[api] drain_wait`),
 *      time for the balancer's checks to take the process out of rotation;
 *   3. stops accepting connections, closes the idle ones and waits for the requests in flight
 *      to be answered, for at most `[DEFAULT] graceful_shutdown_timeout` seconds (then cuts
 *      them: the outcome counts them).
 *
 * The process then leaves the services table and closes the database (service.ts).
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { HttpOperations } from '../../service/http/fastify-operations.ts';
import { type DrainOutcome, type DrainSettings, HttpDrain } from '../../service/http/http-drain.ts';
import { HealthState } from '../../service/index.ts';
import { type BaremetalAppOptions, buildBaremetalApp } from './app.ts';
import type { BaremetalApiServices } from './context.ts';
import type { DashboardFeed } from './dashboard.ts';

export interface ApiListenOptions {
  readonly services: BaremetalApiServices;
  /** The highest microversion to serve: a value, or read at each request (app.ts). */
  readonly apiMax?: BaremetalAppOptions['apiMax'];
  /** `auth_strategy = keystone`'s token validation and policy (app.ts); absent: noauth. */
  readonly auth?: BaremetalAppOptions['auth'];
  readonly host: string;
  readonly port: number;
  /**
   * The process's log, metrics, health check and stop; without a stop of its own, one with
   * `drain` (default: no wait, no bound), and a health check of its own when absent.
   */
  readonly operations?: HttpOperations;
  readonly drain?: DrainSettings;
  /** The dashboard's feed (app.ts). */
  readonly dashboard?: DashboardFeed | undefined;
}

export interface ListeningApi {
  readonly app: FastifyInstance;
  /** `http://host:port` as listening (the real port when 0 was asked). */
  readonly url: string;
  readonly address: AddressInfo;
  readonly health: HealthState;
  /** The stop above; resolves once the last request in flight is answered (or cut). */
  drain(): Promise<DrainOutcome>;
}

export async function listenBaremetalApi(options: ApiListenOptions): Promise<ListeningApi> {
  const health = options.operations?.health ?? new HealthState();
  const drain =
    options.operations?.drain ??
    new HttpDrain(
      options.drain ?? { drainDelaySeconds: 0, gracefulShutdownTimeout: 0 },
      health,
      options.operations?.logger,
    );
  const app = await buildBaremetalApp({
    services: options.services,
    apiMax: options.apiMax,
    ...(options.auth === undefined ? {} : { auth: options.auth }),
    operations: { ...options.operations, health, drain },
    dashboard: options.dashboard,
  });
  drain.attach(app.server);
  await app.listen({ host: options.host, port: options.port });
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    app,
    url: `http://${host}:${address.port}`,
    address,
    health,
    drain: () => drain.stop(() => app.close()),
  };
}
