/**
 * The operations side of a service's Fastify API: the request log (one line per request),
 * the request metrics, `/healthcheck` and `/metrics`. Register it first, before the
 * service's own hooks: the two endpoints are answered before auth, CORS preflights and
 * version negotiation, as oslo.middleware's healthcheck sits in front of a real service's
 * pipeline, and they are neither counted nor logged above debug (a balancer polls them every
 * few seconds). The app is built with `fastifyLoggerOptions(logger)`, so `request.log` is the
 * service logger with the request id bound, for the service's own lines (a 500's stack).
 */
import {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import type { HealthState } from '../healthcheck.ts';
import type { Logger } from '../logging/service-logger.ts';
import type { HttpMetrics } from '../metrics/http-metrics.ts';
import type { Scrape } from '../metrics/process-metrics.ts';
import { type ConnectionLimits, cutByServer } from './connection-limits.ts';
import type { HttpDrain } from './http-drain.ts';

// Types only from the logging and metrics modules: an app that imports this module does not
// load pino or prom-client (~0.1 s) until its composition root builds the operations.

export const HEALTHCHECK_PATH = '/healthcheck';
export const METRICS_PATH = '/metrics';
/** The route label of a request no route matched (an unknown URL). */
export const UNMATCHED_ROUTE = 'unmatched';
/** The microversion label of a request answered before a version was agreed (a 406). */
export const NO_MICROVERSION = 'none';

export interface HttpOperations {
  /** The service logger: one line per request. */
  readonly logger?: Logger | undefined;
  /** Answers `/healthcheck`. */
  readonly health?: HealthState | undefined;
  /** Counts requests and answers `/metrics`. */
  readonly metrics?: { readonly http: HttpMetrics; scrape(): Promise<Scrape> } | undefined;
  /**
   * The stop (http-drain.ts): the service attaches it to its server, and refuses a request
   * arriving while it is `closing` with a 503 in its own error format.
   */
  readonly drain?: HttpDrain | undefined;
  /** The bounds on the time to receive a request and the connections held (the default's when absent). */
  readonly connections?: ConnectionLimits | undefined;
}

/** The Fastify constructor options that make the service logger the app's. */
export function fastifyLoggerOptions(logger: Logger | undefined) {
  if (logger === undefined) return { logger: false } as const;
  // Typed as Fastify's base logger, so the app keeps Fastify's default instance type.
  const loggerInstance: FastifyBaseLogger = logger;
  // The framework's own two lines per request are replaced by the request log below.
  const logController = new LogController({
    disableRequestLogging: true,
    requestIdLogLabel: 'request_id',
  });
  return { loggerInstance, logController };
}

const ERROR_CODE = Symbol('baton.errorCode');
const OPERATIONAL = Symbol('baton.operational');
const ABORTED = Symbol('baton.aborted');
type Marked = { [ERROR_CODE]?: string; [OPERATIONAL]?: true; [ABORTED]?: true };

/** The error code an answer's body carries (`placement.concurrent_update`): 409s are counted by it. */
export function markErrorCode(reply: FastifyReply, code: string): void {
  (reply as unknown as Marked)[ERROR_CODE] = code;
}

const patterns = new Map<string, string>();

/** `/resource_providers/:uuid` → `/resource_providers/{uuid}`, as the API references write it. */
function routePattern(request: FastifyRequest): string {
  const url = request.routeOptions.url;
  if (url === undefined) return UNMATCHED_ROUTE;
  let pattern = patterns.get(url);
  if (pattern === undefined) {
    pattern = url.replace(/:(\w+)/g, '{$1}');
    patterns.set(url, pattern);
  }
  return pattern;
}

function microversionOf(request: FastifyRequest): string {
  // Decorated by the microversion layer; null when the request was refused before agreeing one.
  const resolved = (request as { microversion?: { text?: string } | null }).microversion;
  return resolved?.text ?? NO_MICROVERSION;
}

async function answerOperational(
  ops: HttpOperations,
  request: FastifyRequest,
  reply: FastifyReply,
  path: string,
): Promise<boolean> {
  if (path === HEALTHCHECK_PATH && ops.health !== undefined) {
    const answer = ops.health.answer(request.method, request.headers.accept);
    reply.code(answer.status);
    if (answer.contentType !== '') reply.header('content-type', answer.contentType);
    await reply.send(answer.body);
    return true;
  }
  if (path === METRICS_PATH && ops.metrics !== undefined) {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      await reply.code(405).header('allow', 'GET, HEAD').send('');
      return true;
    }
    const scrape = await ops.metrics.scrape();
    await reply.code(200).header('content-type', scrape.contentType).send(scrape.body);
    return true;
  }
  return false;
}

export function registerOperations(app: FastifyInstance, ops: HttpOperations): void {
  if (ops.health !== undefined || ops.metrics !== undefined) {
    // Callback style: the common path (any other URL) costs no promise per request.
    app.addHook('onRequest', (request, reply, done) => {
      const url = request.url;
      const query = url.indexOf('?');
      const path = query < 0 ? url : url.slice(0, query);
      if (path !== HEALTHCHECK_PATH && path !== METRICS_PATH) {
        done();
        return;
      }
      const marked = reply as unknown as Marked;
      marked[OPERATIONAL] = true;
      // Answered here (done is not called: the service's hooks and routes never see it),
      // or, for a path this process does not serve, passed on as any other URL.
      answerOperational(ops, request, reply, path).then(
        (answered) => {
          if (answered) return;
          delete marked[OPERATIONAL];
          done();
        },
        (error: Error) => done(error),
      );
    });
  }

  const { logger, metrics } = ops;
  if (logger === undefined && metrics === undefined) return;
  app.addHook('onResponse', (request, reply, done) => {
    const marked = reply as unknown as Marked;
    const operational = marked[OPERATIONAL] === true;
    const route = operational ? (request.url.split('?')[0] ?? '') : routePattern(request);
    if (!operational) {
      metrics?.http.record({
        method: request.method,
        route,
        status: reply.statusCode,
        microversion: microversionOf(request),
        seconds: reply.elapsedTime / 1000,
        errorCode: marked[ERROR_CODE],
      });
    }
    // An aborted request was logged when it was seen (reportClientAbort).
    if (marked[ABORTED] !== true) {
      const level = operational ? 'debug' : reply.statusCode >= 500 ? 'error' : 'info';
      logRequest(request, reply, route, level, 'request');
    }
    done();
  });
}

/** The request line: request.log is the service logger with this request's id bound. */
function logRequest(
  request: FastifyRequest,
  reply: FastifyReply,
  route: string,
  level: 'debug' | 'info' | 'warn' | 'error',
  message: string,
): void {
  // The service logger says which levels it writes (an app without one logs nothing anyway).
  const log = request.log as FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };
  if (log.isLevelEnabled !== undefined && !log.isLevelEnabled(level)) return;
  const marked = reply as unknown as Marked;
  request.log[level](
    {
      method: request.method,
      path: request.url,
      route,
      status: reply.statusCode,
      microversion: microversionOf(request),
      latency_ms: Math.round(reply.elapsedTime * 1000) / 1000,
      bytes: Number(reply.getHeader('content-length') ?? 0),
      remote_address: request.ip,
      ...(marked[ERROR_CODE] === undefined ? {} : { error_code: marked[ERROR_CODE] }),
      ...(marked[ABORTED] === true ? { aborted: true } : {}),
    },
    message,
  );
}

/**
 * The client went away before its request was received (an aborted upload; request-body.ts's
 * isClientAbort tells): its request line, now, as one warning without a stack (no answer can
 * reach the client, and the request may never finish as far as the server can tell).
 */
export function reportClientAbort(request: FastifyRequest, reply: FastifyReply): void {
  (reply as unknown as Marked)[ABORTED] = true;
  // Cut by the server itself (too slow, or evicted): counted in its rate-limited report.
  if (cutByServer(request.raw)) return;
  logRequest(
    request,
    reply,
    routePattern(request),
    'warn',
    'request aborted: the client closed the connection before sending all of it',
  );
}
