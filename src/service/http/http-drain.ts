/**
 * How an HTTP listener stops after SIGTERM, the same for every service API (Placement, the
 * bare metal API) and for the conductor's RPC listener:
 *
 *   1. `waiting`: `/healthcheck` answers 503 DRAINING at once, and for `[healthcheck]
 *      drain_delay` seconds the listener still accepts and serves, so a balancer polling the
 *      check takes the process out before anything is refused;
 *   2. `closing`: the listener closes; idle keep-alive connections are closed at once, and
 *      each connection closes after the answer it is waiting for (from SIGTERM on, every
 *      answer carries `Connection: close`), so a client holding a keep-alive connection never
 *      keeps the process alive for the keep-alive timeout (72 s in Fastify);
 *   3. the requests in flight finish, for at most `[DEFAULT] graceful_shutdown_timeout`
 *      seconds (0: no limit); past it, every connection is cut and the outcome says how many
 *      requests were, for the process to exit non-zero.
 *
 * A request that still arrives while `closing` (on a connection that was open) is the
 * service's to refuse with a 503 in its own error format (`closing` tells it).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { HealthState } from '../healthcheck.ts';
import type { Logger } from '../logging/service-logger.ts';

export type DrainPhase = 'serving' | 'waiting' | 'closing';

export interface DrainSettings {
  /** `[healthcheck] drain_delay`: seconds the listener serves on with the check failed. */
  readonly drainDelaySeconds: number;
  /** `[DEFAULT] graceful_shutdown_timeout`: seconds requests in flight may take once the listener is closed; 0: no limit. */
  readonly gracefulShutdownTimeout: number;
}

export interface DrainOutcome {
  /** The bound passed with connections still open: they were cut. */
  readonly timedOut: boolean;
  /** Requests in flight when the bound cut them. */
  readonly cut: number;
  /** Seconds from the stop to the last connection closed. */
  readonly seconds: number;
}

/** What a request refused while closing is told (the service wraps it in its error format). */
export const CLOSING_MESSAGE = 'The server is shutting down; retry the request on another server.';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class HttpDrain {
  readonly #settings: DrainSettings;
  readonly #health: HealthState | undefined;
  readonly #logger: Logger | undefined;
  readonly #servers: Server[] = [];
  readonly #inFlight = new Set<ServerResponse>();
  #phase: DrainPhase = 'serving';
  #stopping: Promise<DrainOutcome> | undefined;

  constructor(settings: DrainSettings, health?: HealthState, logger?: Logger) {
    this.#settings = settings;
    this.#health = health;
    this.#logger = logger;
  }

  get phase(): DrainPhase {
    return this.#phase;
  }

  /** The listener is closed: a request arriving now is refused with a 503. */
  get closing(): boolean {
    return this.#phase === 'closing';
  }

  /** Requests being answered now. */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  get settings(): DrainSettings {
    return this.#settings;
  }

  /** Tracks the server's requests; before its own handler, so every answer can be marked. */
  attach(server: Server): void {
    this.#servers.push(server);
    server.prependListener('request', (_request: IncomingMessage, response: ServerResponse) => {
      this.#inFlight.add(response);
      if (this.#phase !== 'serving') response.setHeader('connection', 'close');
      response.once('close', () => {
        this.#inFlight.delete(response);
        // An answer whose headers left before the stop kept its connection alive: close it
        // now it is idle (on the next turn, once the server has marked it so).
        if (this.#phase === 'closing') setImmediate(() => server.closeIdleConnections());
      });
    });
  }

  /**
   * The sequence above; `close` stops the listener and resolves once every connection is
   * closed (Fastify's `app.close()`, `server.close()`). Called twice, the same stop.
   */
  stop(close: () => Promise<void>): Promise<DrainOutcome> {
    this.#stopping ??= this.#stop(close);
    return this.#stopping;
  }

  async #stop(close: () => Promise<void>): Promise<DrainOutcome> {
    const started = performance.now();
    const { drainDelaySeconds: wait, gracefulShutdownTimeout: bound } = this.#settings;
    this.#health?.startDraining();
    this.#phase = 'waiting';
    for (const response of this.#inFlight) {
      if (!response.headersSent) response.setHeader('connection', 'close');
    }
    if (wait > 0) {
      this.#logger?.info(
        { drain_delay: wait },
        'draining: the health check answers 503 DRAINING while the listener still serves',
      );
      await sleep(wait * 1000);
    }
    this.#phase = 'closing';
    const closed = close();
    for (const server of this.#servers) server.closeIdleConnections();
    if (this.#inFlight.size > 0) {
      this.#logger?.info(
        { in_flight: this.#inFlight.size, graceful_shutdown_timeout: bound },
        'listener closed: finishing the requests in flight',
      );
    }
    const seconds = () => Math.round(performance.now() - started) / 1000;
    if (bound <= 0) {
      await closed;
      return { timedOut: false, cut: 0, seconds: seconds() };
    }
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      closed.then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), bound * 1000);
      }),
    ]);
    clearTimeout(timer);
    if (!timedOut) return { timedOut: false, cut: 0, seconds: seconds() };
    const cut = this.#inFlight.size;
    this.#logger?.error(
      { cut, graceful_shutdown_timeout: bound },
      `graceful_shutdown_timeout (${bound} s) passed: cutting ${cut} request(s) in flight`,
    );
    for (const server of this.#servers) server.closeAllConnections();
    await closed;
    return { timedOut: true, cut, seconds: seconds() };
  }
}
