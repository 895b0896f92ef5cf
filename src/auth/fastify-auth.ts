/**
 * The auth hook a service's Fastify app registers: an early `onRequest` hook, so a request is
 * authenticated before anything reads its body and later hooks (policy checks made before the
 * body is read) find `request.credentials` set. Headers the auth layer owns are removed from
 * the request and those of the outcome set, as keystonemiddleware rewrites the WSGI environ,
 * so no code downstream can read a value the client forged. Errors (401, 503) go to the app's
 * error handler, which answers them in the service's format (`answerAuthenticationRequired`
 * writes keystonemiddleware's 401).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { type AuthenticationRequiredError, KEYSTONE_UNAUTHORIZED_BODY } from './errors.ts';
import type { RequestAuthenticator } from './keystone-authenticator.ts';
import type { RequestCredentials } from './request-credentials.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth hook; undefined on the paths it lets through unauthenticated. */
    credentials: RequestCredentials | undefined;
  }
}

export interface AuthHookOptions {
  readonly authenticator: RequestAuthenticator;
  /** Paths (without the query) served without a token, e.g. a version document at `/`. */
  readonly isPublic?: (path: string) => boolean;
}

/**
 * Adds the authentication hook to a Fastify app: each request is authenticated before its handler
 * runs, and one without valid credentials is answered 401.
 */
export function registerAuthHook(app: FastifyInstance, options: AuthHookOptions): void {
  const { authenticator } = options;
  app.decorateRequest('credentials', undefined);
  app.addHook('onRequest', async (request) => {
    const path = request.url.split('?', 1)[0] ?? '';
    if (options.isPublic?.(path) === true) return;
    const outcome = await authenticator.authenticate({
      method: request.method,
      path,
      headers: request.headers,
    });
    for (const name of authenticator.strippedHeaders) delete request.headers[name];
    Object.assign(request.headers, outcome.headers);
    request.credentials = outcome.credentials;
  });
  if (authenticator.close !== undefined) {
    const close = authenticator.close.bind(authenticator);
    app.addHook('onClose', async () => close());
  }
}

/** keystonemiddleware's 401: its JSON body whatever the Accept, and where to authenticate. */
export function answerAuthenticationRequired(
  reply: FastifyReply,
  error: AuthenticationRequiredError,
): FastifyReply {
  reply.code(401);
  if (error.wwwAuthenticate !== undefined) reply.header('www-authenticate', error.wwwAuthenticate);
  // A Buffer, so the framework adds no charset to the type.
  return reply
    .header('content-type', 'application/json')
    .send(Buffer.from(KEYSTONE_UNAUTHORIZED_BODY));
}
