/**
 * A listening bare metal API and its drain. Stopping an API process behind a load balancer
 * must not fail a request, so `drain()`:
 *
 *   1. fails the health check (`/healthcheck` answers 503) and asks every client to close its
 *      connection after the answer it is given (`Connection: close`);
 *   2. keeps serving for `[api] drain_wait` seconds, time for the balancer's checks to take
 *      the process out of rotation;
 *   3. stops accepting connections and waits for the requests in flight to be answered.
 *
 * The process then leaves the services table and closes the database (service.ts).
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { HttpOperations } from '../../service/http/fastify-operations.ts';
import { HealthState } from '../../service/index.ts';
import { buildBaremetalApp } from './app.ts';
import type { BaremetalApiServices } from './context.ts';

export interface ApiListenOptions {
  readonly services: BaremetalApiServices;
  /** The API maximum of the caps in force. */
  readonly apiMax?: string | undefined;
  readonly host: string;
  readonly port: number;
  /** `[api] drain_wait`, in milliseconds. */
  readonly drainWaitMs: number;
  /** The process's log, metrics and health check; a health check of its own when absent. */
  readonly operations?: HttpOperations;
}

export interface ListeningApi {
  readonly app: FastifyInstance;
  /** `http://host:port` as listening (the real port when 0 was asked). */
  readonly url: string;
  readonly address: AddressInfo;
  readonly health: HealthState;
  /** The drain above; resolves once the last request in flight is answered. */
  drain(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function listenBaremetalApi(options: ApiListenOptions): Promise<ListeningApi> {
  const health = options.operations?.health ?? new HealthState();
  const app = await buildBaremetalApp({
    services: options.services,
    apiMax: options.apiMax,
    operations: { ...options.operations, health },
  });
  await app.listen({ host: options.host, port: options.port });
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let draining: Promise<void> | undefined;
  return {
    app,
    url: `http://${host}:${address.port}`,
    address,
    health,
    drain() {
      draining ??= (async () => {
        health.startDraining();
        await sleep(options.drainWaitMs);
        await app.close();
      })();
      return draining;
    },
  };
}
