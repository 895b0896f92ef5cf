/**
 * The bare metal HTTP application, answering as the real Ironic 21.4.4's API does: the
 * healthcheck first, then the version header on every path but the root document, the routes,
 * and every error in the real body (`{"error_message": …}`, a fault or a WebOb error; see
 * error-body.ts). A 500 never shows a stack: it is a bug, logged with the request id.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import {
  AuthenticationRequiredError,
  answerAuthenticationRequired,
  HttpBasicAuthError,
  httpBasicErrorBody,
  IdentityServiceUnavailableError,
  type RequestAuthenticator,
  registerAuthHook,
} from '../../auth/index.ts';
import { isDatabaseUnavailable } from '../../db/index.ts';
import type { ResolvedVersion, VersionNegotiator } from '../../microversion/index.ts';
import type { RuleSet } from '../../policy/index.ts';
import {
  NoRpcServerError,
  RpcAuthenticationError,
  RpcConnectionLostError,
  RpcTimeoutError,
} from '../../rpc/index.ts';
import {
  DEFAULT_CONNECTION_LIMITS,
  fastifyConnectionOptions,
  limitConnections,
} from '../../service/http/connection-limits.ts';
import {
  fastifyLoggerOptions,
  type HttpOperations,
  registerOperations,
  reportClientAbort,
} from '../../service/http/fastify-operations.ts';
import { CLOSING_MESSAGE } from '../../service/http/http-drain.ts';
import {
  DEFAULT_MAX_REQUEST_BODY_SIZE,
  isClientAbort,
  registerUnreadBodyDiscard,
} from '../../service/http/request-body.ts';
import { HealthState } from '../../service/index.ts';
import { DatabaseUnavailableError } from '../common/errors.ts';
import { registerAccessChecks } from './access.ts';
import { answerClientError } from './client-errors.ts';
import type { BaremetalApiServices } from './context.ts';
import { type DashboardFeed, registerDashboard } from './dashboard.ts';
import { faultBody, webobBody } from './error-body.ts';
import { ClientSideError, HttpAbort, Restatused } from './errors.ts';
import { registerRoutes } from './routes.ts';
import { ironicNegotiator, resolveIronicVersion, VersionRefusal } from './version-header.ts';
import { pathOf, rewriteIronicUrl } from './wsgi-path.ts';

const REQUEST_ID_HEADER = 'openstack-request-id';

export interface BaremetalAppOptions {
  readonly services: BaremetalApiServices;
  /**
   * The highest microversion to serve: a value, or a function read at each request (the pool's
   * maximum, which follows the live processes: src/service/pool-api-max.ts).
   */
  readonly apiMax?: string | undefined | (() => string | undefined);
  /**
   * The process's request log, metrics and health check (the toolkit's operations); absent, a
   * health check of its own, since the API always answers `/healthcheck` (its drain uses it).
   */
  readonly operations?: HttpOperations;
  /** The dashboard's feed; without it there is no dashboard (`/dashboard` is a 404). */
  readonly dashboard?: DashboardFeed | undefined;
  /**
   * `auth_strategy = keystone`: the token validation (its authenticator) and Ironic's policy.
   * Absent (`noauth`): no token is asked for and nothing is checked, as in the real service.
   */
  readonly auth?: {
    readonly authenticator: RequestAuthenticator;
    /** Ironic's policy (keystone); absent under `http_basic`, which checks none, as noauth. */
    readonly policy?: RuleSet;
  };
}

/**
 * Ironic's public routes (its `acl_public_routes`): served without a token. Baton adds its
 * OpenAPI documents (public as `/` is). The dashboard is not public: under Keystone it needs
 * an admin token, besides answering loopback clients only (api/dashboard.ts).
 */
const PUBLIC_ROUTE = /^(\/|\/v1|\/v1\/lookup|\/v1\/heartbeat\/[a-z0-9-]+|\/openapi\/[^/]+)$/;

/** The status the real service answers an error with, and whether it is a fault. */
interface ErrorAnswer {
  readonly status: number;
  readonly message: string;
  readonly webob: boolean;
  readonly headers: Readonly<Record<string, string>>;
}

function statusOf(code: unknown): number | undefined {
  return typeof code === 'number' && Number.isInteger(code) && code >= 400 && code < 600
    ? code
    : undefined;
}

/** How an error is answered: WebOb's errors as they are, faults by their `code`, else 500. */
export function errorAnswer(error: unknown): ErrorAnswer {
  if (error instanceof HttpAbort) {
    return {
      status: error.status,
      message: error.description,
      webob: true,
      headers: error.headers,
    };
  }
  if (error instanceof Restatused) {
    return { status: error.status, message: error.message, webob: false, headers: {} };
  }
  if (isDatabaseUnavailable(error)) {
    // The API's own reads and writes: the client can retry once the database is back.
    const unavailable = new DatabaseUnavailableError();
    return { status: unavailable.code, message: unavailable.message, webob: false, headers: {} };
  }
  if (
    error instanceof RpcTimeoutError ||
    error instanceof RpcConnectionLostError ||
    error instanceof NoRpcServerError
  ) {
    // The conductor did not answer (broker or link down, conductor gone): the client retries.
    return { status: 503, message: error.message, webob: false, headers: {} };
  }
  if (error instanceof RpcAuthenticationError) {
    // Nothing ran. Keystone out of reach (either side) passes; refused credentials are ours.
    const status = error.status === 503 ? 503 : 500;
    return { status, message: error.message, webob: false, headers: {} };
  }
  const coded = statusOf((error as { code?: unknown } | null)?.code);
  if (coded !== undefined) {
    return { status: coded, message: (error as Error).message, webob: false, headers: {} };
  }
  // A body past `[oslo_middleware] max_request_body_size`: oslo.middleware's words.
  if ((error as { code?: unknown } | null)?.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    return { status: 413, message: 'Request is too large.', webob: false, headers: {} };
  }
  // Fastify's own refusals (a body too large, a content type it will not read).
  const framework = statusOf((error as { statusCode?: unknown } | null)?.statusCode);
  if (framework !== undefined && framework < 500) {
    return { status: framework, message: (error as Error).message, webob: false, headers: {} };
  }
  return {
    status: 500,
    message: error instanceof Error ? error.message : String(error),
    webob: false,
    headers: {},
  };
}

const VERSION_HEADERS = [
  'x-openstack-ironic-api-version',
  'x-openstack-ironic-api-minimum-version',
  'x-openstack-ironic-api-maximum-version',
];

/** Sends an error in the real service's body; WebOb's errors drop the handler's headers. */
export function sendError(request: FastifyRequest, reply: FastifyReply, error: unknown) {
  // ironic-lib's basic auth answers in front of Ironic, in its own format.
  if (error instanceof HttpBasicAuthError) {
    for (const name of VERSION_HEADERS) reply.removeHeader(name);
    reply.code(error.status).headers(error.headers);
    return reply
      .header('content-type', 'application/json')
      .send(Buffer.from(httpBasicErrorBody(error)));
  }
  // keystonemiddleware answers these in front of Ironic, in its own words (docs/security.md).
  if (error instanceof AuthenticationRequiredError) {
    for (const name of VERSION_HEADERS) reply.removeHeader(name);
    return answerAuthenticationRequired(reply, error);
  }
  if (error instanceof IdentityServiceUnavailableError) {
    request.log.error({ reason: error.reason }, 'Keystone unavailable: token not validated');
    for (const name of VERSION_HEADERS) reply.removeHeader(name);
    return reply.code(503).type('application/json').send(faultBody(503, error.message));
  }
  // An aborted upload: the client is gone; one warning line (fastify-operations.ts).
  if (isClientAbort(error, request)) {
    reply.code(400);
    reportClientAbort(request, reply);
    return reply.type('application/json').send(faultBody(400, (error as Error).message));
  }
  const answer = errorAnswer(error);
  if (answer.status >= 500) request.log.error({ err: error }, 'unexpected error');
  if (answer.webob) {
    for (const name of [...VERSION_HEADERS, REQUEST_ID_HEADER]) reply.removeHeader(name);
  }
  for (const [name, value] of Object.entries(answer.headers)) reply.header(name, value);
  const body = answer.webob
    ? webobBody(answer.status, answer.message)
    : faultBody(answer.status, answer.message);
  return reply.code(answer.status).type('application/json').send(body);
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The version this request is answered at; set before any route handler runs. */
    microversion: ResolvedVersion;
  }
}

/** The negotiator for the maximum in force now (one per maximum, built when first needed). */
function negotiatorsFor(apiMax: BaremetalAppOptions['apiMax']): () => VersionNegotiator {
  if (typeof apiMax !== 'function') {
    const fixed = ironicNegotiator(apiMax);
    return () => fixed;
  }
  const built = new Map<string | undefined, VersionNegotiator>();
  return () => {
    const max = apiMax();
    let negotiator = built.get(max);
    if (negotiator === undefined) {
      negotiator = ironicNegotiator(max);
      built.set(max, negotiator);
    }
    return negotiator;
  };
}

export async function buildBaremetalApp(options: BaremetalAppOptions): Promise<FastifyInstance> {
  const bodyLimit = options.services.settings.maxRequestBodySize ?? DEFAULT_MAX_REQUEST_BODY_SIZE;
  const negotiatorNow = negotiatorsFor(options.apiMax);
  const operations: HttpOperations =
    options.operations?.health === undefined
      ? { ...options.operations, health: new HealthState() }
      : options.operations;
  const drain = operations.drain;
  const limits = operations.connections ?? DEFAULT_CONNECTION_LIMITS;
  const app = Fastify({
    ...fastifyLoggerOptions(operations.logger),
    // The time to receive a request and to stay silent, bounded (connection-limits.ts).
    ...fastifyConnectionOptions(limits),
    genReqId: () => `req-${randomUUID()}`,
    requestIdHeader: false,
    exposeHeadRoutes: false,
    routerOptions: {
      ignoreTrailingSlash: false,
      ignoreDuplicateSlashes: false,
      maxParamLength: 8192,
    },
    // A request reaching a closing server is refused by the hook below in the service's
    // format, not with Fastify's own 503 body (service/http/http-drain.ts).
    return503OnClosing: false,
    // `[oslo_middleware] max_request_body_size`, enforced while the body is read: a 413.
    bodyLimit: bodyLimit,
    rewriteUrl: rewriteIronicUrl,
    // A URL the router refuses (a 414 past maxParamLength) comes before the hooks: its fault
    // still carries the request id, as every fault does.
    frameworkErrors: (error, request, reply) => {
      reply.header(REQUEST_ID_HEADER, request.id);
      return sendError(request, reply, error);
    },
    // What Node's HTTP parser refuses: a fault with a request id too (client-errors.ts).
    clientErrorHandler(this: unknown, error, socket) {
      // Fastify calls it with the app as `this`.
      answerClientError(this as FastifyInstance, error, socket);
    },
  });
  // First: /healthcheck and /metrics, before the version header (oslo.middleware's healthcheck
  // sits in front of the real pipeline), and every request logged and counted.
  registerOperations(app, operations);
  // The connections held, bounded: slow clients make room for new ones.
  limitConnections(app.server, limits, app.log);
  app.decorate('baremetal', options.services);
  app.decorate('baremetalVersions', { getter: negotiatorNow });
  app.decorateRequest('microversion', null as unknown as ResolvedVersion);

  // Bodies are read as bytes and decoded by the handlers as the real service decodes them
  // (strict UTF-8: request-body.ts); one refused or cut short is not kept reading forever.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  registerUnreadBodyDiscard(app, bodyLimit);

  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    // Stopping, the listener closed: a request still arriving on an open connection is
    // refused as the service's other faults are (the client retries elsewhere).
    if (drain?.closing) {
      reply.code(503).type('application/json').send(faultBody(503, CLOSING_MESSAGE));
      return;
    }
    done();
  });
  // Keystone's auth sits in front of Ironic (before its version header); the public routes
  // pass without a token, as the real AuthPublicRoutes lets them.
  if (options.auth !== undefined) {
    registerAuthHook(app, {
      authenticator: options.auth.authenticator,
      isPublic: (path) => PUBLIC_ROUTE.test(path.replace(/(.)\/+$/, '$1')),
    });
  }
  registerAccessChecks(app, options.auth?.policy);

  app.addHook('onRequest', (request, reply, done) => {
    const path = pathOf(request.raw).routed;
    const negotiator = negotiatorNow();
    if (path === '/') {
      request.microversion = negotiator.defaultVersion;
      done();
      return;
    }
    const resolved = resolveIronicVersion(negotiator, request.headers);
    if (resolved instanceof VersionRefusal) {
      for (const [name, value] of resolved.headers) reply.header(name, value);
      // `/v1` refuses inside its handler (a fault); deeper paths while routing (WebOb's error).
      done(
        path === '/v1'
          ? new ClientSideError(resolved.description, resolved.status)
          : new HttpAbort(
              resolved.status,
              resolved.description,
              Object.fromEntries(resolved.headers),
            ),
      );
      return;
    }
    request.microversion = resolved;
    for (const [name, value] of resolved.headers) reply.header(name, value);
    done();
  });

  app.setErrorHandler((error, request, reply) => sendError(request, reply, error));
  app.setNotFoundHandler((request, reply) => sendError(request, reply, new HttpAbort(404)));

  registerRoutes(app);
  if (options.dashboard !== undefined) registerDashboard(app, options.dashboard);
  return app;
}
