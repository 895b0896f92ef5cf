/**
 * A small HTTP listener for a process without an HTTP API of its own (the bare metal
 * conductor) or for the primary of a worker pool: `GET /metrics` answers a scrape,
 * `/healthcheck` the health check (when given a state); anything else is a 404. It takes no
 * part in the service's API: no auth, no versions, nothing logged per scrape.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HealthState } from '../healthcheck.ts';
import type { Scrape } from './process-metrics.ts';

/** The listener could not open its port (in use, not allowed); the message names it. */
export class MetricsListenError extends Error {
  override name = 'MetricsListenError';
}

export interface MetricsListenerOptions {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly scrape: () => Promise<Scrape>;
  readonly health?: HealthState;
  /** Told when a scrape fails (answered 500 with the reason). */
  readonly onError?: (error: unknown) => void;
}

export interface MetricsListener {
  /** `http://host:port`, the real port when 0 was asked. */
  readonly url: string;
  readonly address: AddressInfo;
  close(): Promise<void>;
}

function answer(res: ServerResponse, status: number, type: string, body: string, head: boolean) {
  res.writeHead(status, {
    ...(type === '' ? {} : { 'content-type': type }),
    'content-length': Buffer.byteLength(body),
  });
  res.end(head ? undefined : body);
}

export async function startMetricsListener(
  options: MetricsListenerOptions,
): Promise<MetricsListener> {
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    const head = req.method === 'HEAD';
    if (path === '/metrics' && (req.method === 'GET' || head)) {
      try {
        const scrape = await options.scrape();
        answer(res, 200, scrape.contentType, scrape.body, head);
      } catch (error) {
        options.onError?.(error);
        answer(res, 500, 'text/plain; charset=utf-8', 'scrape failed\n', head);
      }
      return;
    }
    if (path === '/healthcheck' && options.health !== undefined) {
      const health = options.health.answer(req.method ?? 'GET', req.headers.accept);
      answer(res, health.status, health.contentType, health.body, head);
      return;
    }
    answer(res, 404, 'text/plain; charset=utf-8', 'not found: try /metrics\n', head);
  };
  const server = createServer((req, res) => {
    void handle(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    const refused = (error: NodeJS.ErrnoException) =>
      reject(
        new MetricsListenError(
          `cannot listen for metrics on ${options.host}:${options.port}: ${error.code ?? error.message}`,
        ),
      );
    server.once('error', refused);
    server.listen(options.port, options.host, () => {
      server.off('error', refused);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    address,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
