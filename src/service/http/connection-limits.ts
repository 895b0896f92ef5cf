/**
 * Bounds on what a client may hold of an HTTP API (issue 22 §4), so that slow or idle clients
 * can never stop others from being served:
 *
 * - the time to receive a request, its head and body (`[DEFAULT] request_receive_timeout`):
 *   a client trickling its request is cut once it passes it (Node's `requestTimeout`; the
 *   service's clientError handler answers 408 in its own format);
 * - the time a connection may stay silent (`[DEFAULT] client_socket_timeout`, oslo.service's
 *   name): an idle one is closed;
 * - the connections held at once (`[DEFAULT] max_client_connections`): past it, the oldest
 *   connection that is still sending a request or idle between requests is closed to make
 *   room for the new one (a connection whose request is being answered is never closed), so
 *   new clients are served while a flood of slow ones cannot fill the descriptor table. When
 *   every connection is busy answering, the new one is refused.
 *
 * A client may half-close its connection once its request is sent: the answer still goes out.
 *
 * Cut connections are logged as warnings, at most one line per ten seconds with the counts
 * (a flood of slow clients must not flood the log).
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';

export interface ConnectionLimits {
  /** Seconds to receive a whole request (head and body); 0: no limit. */
  readonly requestReceiveTimeout: number;
  /** Seconds a connection may stay silent before it is closed; 0: no limit. */
  readonly clientSocketTimeout: number;
  /** Connections held at once; the oldest waiting one makes room for a new one. */
  readonly maxClientConnections: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  requestReceiveTimeout: 60,
  clientSocketTimeout: 900,
  maxClientConnections: 2000,
};

/** Node checks the request timeouts at this interval; a bound is kept within a quarter of it. */
function checkingInterval(requestMs: number): number {
  if (requestMs === 0) return 30_000;
  return Math.min(30_000, Math.max(100, Math.floor(requestMs / 4)));
}

/** The Fastify constructor options that enforce the time bounds. */
export function fastifyConnectionOptions(limits: ConnectionLimits) {
  const requestTimeout = limits.requestReceiveTimeout * 1000;
  // The head alone within Node's default minute, never past the whole request's bound.
  const headersTimeout = requestTimeout === 0 ? 60_000 : Math.min(60_000, requestTimeout);
  return {
    requestTimeout,
    connectionTimeout: limits.clientSocketTimeout * 1000,
    http: {
      requestTimeout,
      headersTimeout,
      connectionsCheckingInterval: checkingInterval(requestTimeout),
    },
  };
}

type ServerSocket = Socket & {
  _httpMessage?: { req?: IncomingMessage } | null;
};

/** Requests whose connection the server cut (counted in the report, not logged one by one). */
const cutRequests = new WeakSet<IncomingMessage>();

/**
 * True when the server itself cut this request's connection (too slow, or evicted): its
 * handler sees an aborted body, but the report above already counts it, so it is not logged
 * again as a client's abort (fastify-operations.ts), which would flood the log under a flood.
 */
export function cutByServer(request: IncomingMessage): boolean {
  return cutRequests.has(request);
}

/** True while the connection waits on its client: a request not fully received, or idle. */
function waitingOnClient(socket: Socket): boolean {
  const response = (socket as ServerSocket)._httpMessage;
  return response?.req?.complete !== true;
}

const REPORT_INTERVAL_MS = 10_000;

/** Counts the cut connections and logs them, at most one warning line per interval. */
class CutReport {
  readonly #log: FastifyBaseLogger;
  readonly #limits: ConnectionLimits;
  #timedOut = 0;
  #evicted = 0;
  #refused = 0;
  #timer: NodeJS.Timeout | undefined;
  #lastReport = 0;

  constructor(log: FastifyBaseLogger, limits: ConnectionLimits) {
    this.#log = log;
    this.#limits = limits;
  }

  note(kind: 'timedOut' | 'evicted' | 'refused'): void {
    if (kind === 'timedOut') this.#timedOut++;
    else if (kind === 'evicted') this.#evicted++;
    else this.#refused++;
    const wait = this.#lastReport + REPORT_INTERVAL_MS - Date.now();
    if (wait <= 0) this.#report();
    else this.#timer ??= setTimeout(() => this.#report(), wait).unref();
  }

  /** Reports what is counted and not yet said (the server closes). */
  flush(): void {
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#report();
  }

  #report(): void {
    this.#timer = undefined;
    this.#lastReport = Date.now();
    const counts = {
      request_timed_out: this.#timedOut,
      evicted: this.#evicted,
      refused: this.#refused,
    };
    this.#timedOut = 0;
    this.#evicted = 0;
    this.#refused = 0;
    const parts: string[] = [];
    if (counts.request_timed_out > 0) {
      parts.push(
        `${counts.request_timed_out} not received within request_receive_timeout (${this.#limits.requestReceiveTimeout} s)`,
      );
    }
    if (counts.evicted > 0) {
      parts.push(
        `${counts.evicted} waiting on their client closed to make room (max_client_connections ${this.#limits.maxClientConnections})`,
      );
    }
    if (counts.refused > 0) {
      parts.push(`${counts.refused} refused: every connection was being answered`);
    }
    this.#log.warn(counts, `slow or excess client connections cut: ${parts.join('; ')}`);
  }
}

const reports = new WeakMap<Server, CutReport>();

/**
 * Holds at most `maxClientConnections` connections on `server` (above), and reports the cut
 * ones through `log`. Call once, before the server listens.
 */
export function limitConnections(
  server: Server,
  limits: ConnectionLimits,
  log: FastifyBaseLogger,
): void {
  const report = new CutReport(log, limits);
  reports.set(server, report);
  // A client that half-closes after sending its request (`shutdown(SHUT_WR)`, `curl` with
  // `--no-keepalive` through some proxies) still gets its answer: Node otherwise aborts the
  // request at the client's end of stream.
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  server.once('close', () => report.flush());
  // Oldest first: a Set keeps the order the connections were accepted in.
  const open = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    if (open.size <= limits.maxClientConnections) return;
    for (const held of open) {
      if (held !== socket && waitingOnClient(held)) {
        const request = (held as ServerSocket)._httpMessage?.req;
        if (request !== undefined) cutRequests.add(request);
        open.delete(held);
        held.destroy();
        report.note('evicted');
        return;
      }
    }
    open.delete(socket);
    socket.destroy();
    report.note('refused');
  });
}

/**
 * A request not received in time was cut on `server` (its clientError handler calls this,
 * with the request under way on the connection if there is one).
 */
export function noteRequestTimeout(server: Server, request?: IncomingMessage): void {
  if (request !== undefined) cutRequests.add(request);
  reports.get(server)?.note('timedOut');
}
