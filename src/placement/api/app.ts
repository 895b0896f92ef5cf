/**
 * The Placement HTTP application: request ids, CORS, auth, microversions, JSON bodies,
 * routes, and every error answered in Placement's format (a 500 never shows a stack).
 */
import { randomUUID } from 'node:crypto';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import {
  AuthenticationRequiredError,
  answerAuthenticationRequired,
  IdentityServiceUnavailableError,
  type RequestAuthenticator,
  registerAuthHook,
} from '../../auth/index.ts';
import { ConcurrentUpdateError, isDatabaseUnavailable } from '../../db/index.ts';
import type { ResolvedVersion } from '../../microversion/index.ts';
import { boundedMessage } from '../../python-compat/excerpt.ts';
import {
  DEFAULT_CONNECTION_LIMITS,
  fastifyConnectionOptions,
  limitConnections,
} from '../../service/http/connection-limits.ts';
import {
  fastifyLoggerOptions,
  type HttpOperations,
  markErrorCode,
  registerOperations,
  reportClientAbort,
} from '../../service/http/fastify-operations.ts';
import { CLOSING_MESSAGE } from '../../service/http/http-drain.ts';
import {
  isClientAbort,
  RequestBodyTooLargeError,
  registerLazyBody,
} from '../../service/http/request-body.ts';
import { effectiveAccept } from './accept.ts';
import { answerClientError, isBodyUnread } from './client-errors.ts';
import { corsSettingsOf, registerCors } from './cors.ts';
import { placementJson } from './error-body.ts';
import { badRequest, ErrorCodes, PlacementHttpError } from './errors.ts';
import { FEATURES } from './features.ts';
import { NOAUTH2 } from './noauth.ts';
import { OPENAPI_PATH_PREFIX, registerOpenApiRoute } from './openapi-route.ts';
import { pyInt } from './python-version-header.ts';
import { NUL_REFUSED, webobContentType } from './request-body.ts';
import type { PlacementServices } from './request-context.ts';
import { registerRoot } from './root.ts';
import { RESOURCE_ROUTES } from './routes.ts';
import { registerVersionNegotiation, VersionRefusedError } from './versions.ts';
import { renderWebobError, webobDefaultJson } from './webob-error.ts';
import { wsgiPath } from './wsgi-path.ts';

/** PostgreSQL's character_not_in_repertoire: a NUL in a text parameter. */
const PG_NUL_IN_TEXT = '22021';

/** The detail of a 503 while the database cannot answer. */
const DATABASE_UNAVAILABLE = 'The database is unavailable. Please retry the request later.';

export interface PlacementAppOptions {
  readonly services: PlacementServices;
  /** Max microversion lowered by a release pin during a rolling upgrade. */
  readonly pinnedMax?: string | (() => string | undefined);
  /**
   * The process's request log, metrics and health check (service.ts builds them); absent,
   * nothing is logged or counted and `/healthcheck` and `/metrics` are unknown URLs.
   */
  readonly operations?: HttpOperations;
  /** `auth_strategy = keystone`'s authenticator (server.ts builds it); absent: noauth2. */
  readonly authenticator?: RequestAuthenticator;
}

interface ErrorAnswer {
  readonly status: number;
  readonly message: string;
  readonly code?: string | undefined;
  /** Raised past the real service's handler: no `Vary` (see HttpErrorOptions). */
  readonly escapesHandler?: boolean;
  /** From the auth layer: WebOb's default JSON body, no version headers. */
  readonly outsidePlacement?: boolean;
  /** A refused version header: no version headers; the range when it is a 406. */
  readonly versionRefused?: VersionRefusedError;
}

/** Sends an error the way the real service's WebOb renders it for this request. */
export function sendPlacementError(
  request: FastifyRequest,
  reply: FastifyReply,
  answer: ErrorAnswer,
) {
  // Undefined (not null) for a URL the router refused (frameworkErrors): no version agreed.
  const version = (request.microversion ?? null) as ResolvedVersion | null;
  const noVersion =
    answer.outsidePlacement === true ||
    answer.versionRefused !== undefined ||
    answer.status >= 500 ||
    version === null;
  if (noVersion) reply.removeHeader('openstack-api-version');
  if (noVersion || answer.escapesHandler === true) reply.removeHeader('vary');
  if (answer.status === 409) markErrorCode(reply, answer.code ?? ErrorCodes.DEFAULT);
  reply.code(answer.status);
  if (request.method === 'HEAD') {
    // WebOb skips rendering for HEAD: its bare response type and no body.
    return reply.header('content-type', 'text/html; charset=UTF-8').send('');
  }
  const facts = {
    method: request.method,
    accept: effectiveAccept(request.headers.accept),
    contentType: webobContentType(request.headers['content-type']).environ,
  };
  const json = answer.outsidePlacement
    ? { format: webobDefaultJson, stripped: false }
    : {
        format: placementJson({
          code: answer.code,
          requestId: request.id,
          // A 500 escapes the version layer but its body still knows the agreed version.
          showsCode:
            version === null || answer.versionRefused !== undefined
              ? undefined
              : version.atLeast(FEATURES.errorCodes),
          range: answer.versionRefused?.range,
        }),
        stripped: true,
      };
  // Whatever echoed the input, the answer stays a few kilobytes (docs/security.md).
  const message = boundedMessage(answer.message);
  const rendered = renderWebobError(answer.status, message, facts, json);
  return reply.header('content-type', rendered.contentType).send(Buffer.from(rendered.body));
}

export async function buildPlacementApp(options: PlacementAppOptions): Promise<FastifyInstance> {
  const limits = options.operations?.connections ?? DEFAULT_CONNECTION_LIMITS;
  const app = Fastify({
    ...fastifyLoggerOptions(options.operations?.logger),
    // The time to receive a request and to stay silent, bounded (connection-limits.ts).
    ...fastifyConnectionOptions(limits),
    genReqId: () => `req-${randomUUID()}`,
    requestIdHeader: false,
    exposeHeadRoutes: false,
    // Paths are matched exactly, as the real service's router does; path parameters may be
    // long (255-character trait and class names, and longer ones refused by the handler).
    routerOptions: {
      ignoreTrailingSlash: false,
      ignoreDuplicateSlashes: false,
      maxParamLength: 8192,
    },
    // While the server drains after SIGTERM, a request that still arrives on an open connection
    // is refused by the hook below in Placement's own format, not with Fastify's 503 body.
    return503OnClosing: false,
    // Route on the path as a WSGI server decodes it (`%2F` separates, bytes stay bytes).
    rewriteUrl: (request) => wsgiPath(request.url ?? '/'),
    // A URL the router cannot take apart: answered in Placement's format, not Fastify's.
    frameworkErrors: (error, request, reply) => {
      reply.header('x-openstack-request-id', request.id);
      reply.header('openstack-request-id', request.id);
      const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400;
      return sendPlacementError(request, reply, { status, message: error.message });
    },
    // What Node's HTTP parser refuses: in Placement's format too (client-errors.ts).
    clientErrorHandler(this: unknown, error, socket) {
      // Fastify calls it with the app as `this`.
      answerClientError(this as FastifyInstance, error, socket);
    },
  });
  app.decorate('placement', options.services);
  // The connections held, bounded: slow clients make room for new ones.
  limitConnections(app.server, limits, app.log);
  // First: /healthcheck and /metrics come before CORS, auth and versions (oslo.middleware's
  // healthcheck sits in front of the real pipeline), and every request is logged and counted.
  if (options.operations !== undefined) registerOperations(app, options.operations);

  // Bodies are read by the handler when it gets to them (after auth and policy, as the real
  // service reads them) and parsed there, so content-type and JSON errors are answered in
  // Placement's words (415 / 400) rather than by the framework; the size limit holds while
  // reading (src/service/http/request-body.ts).
  registerLazyBody(app, options.services.config.maxRequestBodySize);

  // The real service sends `x-openstack-request-id`; `openstack-request-id` is kept as well
  // for clients of Baton's earlier releases (docs/placement.md).
  const drain = options.operations?.drain;
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-openstack-request-id', request.id);
    reply.header('openstack-request-id', request.id);
    // Stopping, the listener closed: a request still arriving on an open connection is
    // refused in Placement's format (the client retries elsewhere; the connection closes).
    if (drain?.closing) {
      sendPlacementError(request, reply, { status: 503, message: CLOSING_MESSAGE });
      return;
    }
    done();
  });
  // CORS sits outside auth (a preflight needs no token), as the real middleware stack orders it.
  registerCors(app, corsSettingsOf(options.services.config));
  // Auth comes before microversions, as the real middleware stack orders them; `/` (the
  // version document) needs no token, as the real service's auth wrapper lets it through;
  // nor do Baton's OpenAPI documents, which describe the API and hold no data.
  registerAuthHook(app, {
    authenticator: options.authenticator ?? NOAUTH2,
    isPublic: (path) => path === '/' || path === '' || path.startsWith(OPENAPI_PATH_PREFIX),
  });
  registerVersionNegotiation(app, options.pinnedMax);
  // The real handler's first checks, as Python reads CONTENT_LENGTH. Node lets only digits
  // through; other values come from requests it could not frame (client-errors.ts), whose
  // body is then read as empty.
  app.addHook('onRequest', (request, _reply, done) => {
    const length = request.headers['content-length'];
    const value = length === undefined || length === '' ? undefined : pyInt(length);
    if (isBodyUnread(request.raw)) {
      delete request.headers['content-length'];
      delete request.headers['transfer-encoding'];
    }
    if (value !== undefined && 'error' in value) {
      done(
        new PlacementHttpError(400, 'content-length header must be an integer', {
          escapesHandler: true,
        }),
      );
      return;
    }
    if (value !== undefined && BigInt(value.value) > 0n && !request.headers['content-type']) {
      done(
        new PlacementHttpError(400, 'content-type header required when content-length > 0', {
          escapesHandler: true,
        }),
      );
      return;
    }
    done();
  });
  // A URL carrying a NUL: refused on every database alike (PostgreSQL cannot store or
  // compare one; the others would), in the words PostgreSQL's refusal gets (docs/security.md).
  app.addHook('preHandler', (request, _reply, done) => {
    if (/%00/.test(request.raw.url ?? '') || (request.url ?? '').includes('\u0000')) {
      done(badRequest(NUL_REFUSED));
      return;
    }
    done();
  });

  app.setErrorHandler((error: FastifyError | PlacementHttpError, request, reply) => {
    // An aborted upload: the client is gone; one warning line (fastify-operations.ts).
    if (isClientAbort(error, request)) {
      reply.code(400);
      reportClientAbort(request, reply);
      return sendPlacementError(request, reply, { status: 400, message: error.message });
    }
    // keystonemiddleware answers these itself, in front of Placement (docs/security.md).
    if (error instanceof AuthenticationRequiredError) {
      return answerAuthenticationRequired(reply, error);
    }
    if (error instanceof IdentityServiceUnavailableError) {
      request.log.error({ reason: error.reason }, 'Keystone unavailable: token not validated');
      return sendPlacementError(request, reply, {
        status: 503,
        message: error.message,
        outsidePlacement: true,
      });
    }
    if (error instanceof ConcurrentUpdateError) {
      // A generation moved under a writer that did not translate it itself.
      return sendPlacementError(request, reply, {
        status: 409,
        message: 'A concurrent update changed the resource; re-read it and retry.',
        code: ErrorCodes.CONCURRENT_UPDATE,
      });
    }
    if (isDatabaseUnavailable(error)) {
      // Stopped, restarting or unreachable: a client can retry (the pool reconnects by itself).
      request.log.error({ err: error }, 'database unavailable: answered 503');
      return sendPlacementError(request, reply, {
        status: 503,
        message: DATABASE_UNAVAILABLE,
      });
    }
    if (error instanceof VersionRefusedError) {
      return sendPlacementError(request, reply, {
        status: error.status,
        message: error.message,
        versionRefused: error,
      });
    }
    if (error instanceof RequestBodyTooLargeError) {
      return sendPlacementError(request, reply, { status: 413, message: error.message });
    }
    if (error instanceof PlacementHttpError) {
      for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
      return sendPlacementError(request, reply, error);
    }
    if ((error as { code?: unknown }).code === PG_NUL_IN_TEXT) {
      // A NUL in a value PostgreSQL is asked to compare: the real service answers a 500
      // with psycopg2's sentence; Baton the same sentence as a 400 (docs/placement.md).
      return sendPlacementError(request, reply, {
        status: 400,
        message: NUL_REFUSED,
      });
    }
    const status = (error as FastifyError).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      return sendPlacementError(request, reply, { status, message: error.message });
    }
    // The id bound to request.log is the body's request_id and the x-openstack-request-id.
    request.log.error({ err: error }, 'unexpected error answered with 500');
    return sendPlacementError(request, reply, {
      status: 500,
      message: 'An unexpected error occurred; it has been logged with this request id.',
    });
  });
  // An unknown URL: the real router raises its 404 past the handlers.
  app.setNotFoundHandler((request, reply) =>
    sendPlacementError(request, reply, { status: 404, message: '', escapesHandler: true }),
  );

  registerRoot(app);
  registerOpenApiRoute(app);
  for (const register of RESOURCE_ROUTES) register(app);
  return app;
}
