/** What authentication answers when it lets a request no further. */

/**
 * No token, or one Keystone (or the cache) does not accept: keystonemiddleware's 401, with
 * `WWW-Authenticate: Keystone uri="<www_authenticate_uri>"`. Why is kept for the log only.
 */
export class AuthenticationRequiredError extends Error {
  override name = 'AuthenticationRequiredError';
  readonly status = 401;
  /** The `WWW-Authenticate` value; undefined for an auth that names no identity service. */
  readonly wwwAuthenticate: string | undefined;
  readonly reason: string;
  constructor(reason: string, wwwAuthenticate?: string) {
    super('The request you have made requires authentication.');
    this.reason = reason;
    this.wwwAuthenticate = wwwAuthenticate;
  }
}

/**
 * keystonemiddleware's 401 body, whatever the request's Accept: JSON as Python's json.dumps
 * writes it, typed application/json.
 */
export const KEYSTONE_UNAUTHORIZED_BODY =
  '{"error": {"code": 401, "title": "Unauthorized", "message": "The request you have made requires authentication."}}';

/**
 * Keystone could not be asked (unreachable, timed out, an error answer, or it refused the
 * service's own credentials): the request is refused with a 503, never let through.
 */
export class IdentityServiceUnavailableError extends Error {
  override name = 'IdentityServiceUnavailableError';
  readonly status = 503;
  /** What went wrong, for the log (the client sees only `message`). */
  readonly reason: string;
  constructor(reason: string) {
    super('The Keystone service is temporarily unavailable.');
    this.reason = reason;
  }
}

/** A process would serve without real authentication on an address others can reach. */
export class UnsafeListenError extends Error {
  override name = 'UnsafeListenError';
}
