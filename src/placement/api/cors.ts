/**
 * CORS as oslo.middleware does it in front of Placement, on when `[cors] allowed_origin` is
 * set. It sits outside auth: every OPTIONS request is answered 200 with an empty body
 * (the app underneath would refuse it), carrying the preflight headers only when origin,
 * method and requested headers are all allowed. Other requests from an allowed origin get
 * Access-Control-Allow-Origin and friends on whatever the app answers.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PlacementConfig } from '../config.ts';

/** Headers a browser may always send (oslo.middleware's list). */
const SIMPLE_HEADERS = [
  'Accept',
  'Accept-Language',
  'Content-Type',
  'Cache-Control',
  'Content-Language',
  'Expires',
  'Last-Modified',
  'Pragma',
];

export interface CorsSettings {
  readonly allowedOrigins: readonly string[];
  readonly allowHeaders: readonly string[];
  readonly exposeHeaders: readonly string[];
  readonly allowMethods: readonly string[];
  readonly maxAge: number;
  readonly allowCredentials: boolean;
}

export function corsSettingsOf(config: PlacementConfig): CorsSettings {
  return {
    allowedOrigins: config.corsAllowedOrigins,
    allowHeaders: config.corsAllowHeaders,
    exposeHeaders: config.corsExposeHeaders,
    allowMethods: config.corsAllowMethods,
    maxAge: config.corsMaxAge,
    allowCredentials: config.corsAllowCredentials,
  };
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

/** The origin to answer with: the request's, or `*` when only the wildcard allows it. */
function allowedOrigin(settings: CorsSettings, origin: string): string | undefined {
  if (settings.allowedOrigins.includes(origin)) return origin;
  return settings.allowedOrigins.includes('*') ? '*' : undefined;
}

/** Preflight headers (CORS section 6.2), or none when anything is not allowed. */
export function preflightHeaders(
  settings: CorsSettings,
  request: FastifyRequest,
): Record<string, string> {
  const origin = header(request, 'origin');
  if (origin === undefined) return {};
  const answerOrigin = allowedOrigin(settings, origin);
  if (answerOrigin === undefined) return {};
  const method = header(request, 'access-control-request-method');
  if (method === undefined) return {};
  const requested = (header(request, 'access-control-request-headers') ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (!settings.allowMethods.includes(method)) return {};
  const permitted = new Set(
    [...settings.allowHeaders, ...SIMPLE_HEADERS].map((h) => h.toUpperCase()),
  );
  if (!requested.every((name) => permitted.has(name.toUpperCase()))) return {};
  const headers: Record<string, string> = {
    vary: 'Origin',
    'access-control-allow-origin': answerOrigin,
  };
  if (settings.allowCredentials) headers['access-control-allow-credentials'] = 'true';
  if (settings.maxAge) headers['access-control-max-age'] = String(settings.maxAge);
  headers['access-control-allow-methods'] = method;
  if (requested.length > 0) headers['access-control-allow-headers'] = requested.join(',');
  return headers;
}

/** Headers of an actual request's answer (CORS section 6.1). */
function applyRequestHeaders(settings: CorsSettings, request: FastifyRequest, reply: FastifyReply) {
  const origin = header(request, 'origin');
  if (origin === undefined || reply.hasHeader('access-control-allow-origin')) return;
  const answerOrigin = allowedOrigin(settings, origin);
  if (answerOrigin === undefined) return;
  const vary = reply.getHeader('vary');
  reply.header('vary', vary === undefined || vary === '' ? 'Origin' : `${String(vary)},Origin`);
  reply.header('access-control-allow-origin', answerOrigin);
  if (settings.allowCredentials) reply.header('access-control-allow-credentials', 'true');
  if (settings.exposeHeaders.length > 0) {
    reply.header('access-control-expose-headers', settings.exposeHeaders.join(','));
  }
}

/**
 * Registers the CORS hooks when origins are configured. Call it before the auth hook: a
 * preflight never needs a token.
 */
export function registerCors(app: FastifyInstance, settings: CorsSettings): void {
  if (settings.allowedOrigins.length === 0) return;
  app.addHook('onRequest', (request, reply, done) => {
    if (request.method !== 'OPTIONS') {
      done();
      return;
    }
    reply.code(200).headers(preflightHeaders(settings, request)).send();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.method !== 'OPTIONS') applyRequestHeaders(settings, request, reply);
    done(null, payload);
  });
}
