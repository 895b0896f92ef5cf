/**
 * HTTP basic authentication against an Apache htpasswd file of bcrypt entries, as ironic-lib's
 * `auth_basic.BasicAuthMiddleware` does it (Ironic's `auth_strategy = http_basic`): the same
 * checks in the same order, the same messages, and its answer, `{"error": {"message", "code"}}`
 * with `WWW-Authenticate: Basic realm="Baremetal API"` on a 401. The file is read for every
 * request (an edit takes effect at once, as in ironic-lib); reading it is the caller's
 * (`readUserFile`), the rest is pure.
 */
import { createHash } from 'node:crypto';
import { bcryptVerify } from './bcrypt.ts';
import type { AuthOutcome, AuthRequest, RequestAuthenticator } from './keystone-authenticator.ts';

/** The `WWW-Authenticate` challenge of a 401: the realm ironic-lib names. */
export const BASIC_REALM = 'Basic realm="Baremetal API"';

/** ironic-lib's refusals: BadRequest (400), Unauthorized (401), ConfigInvalid (500). */
export class HttpBasicAuthError extends Error {
  override name = 'HttpBasicAuthError';
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
    this.headers = status === 401 ? { 'www-authenticate': BASIC_REALM } : {};
  }
}

/** ironic-lib's answer body: `webob`'s compact JSON. */
export function httpBasicErrorBody(error: HttpBasicAuthError): string {
  return JSON.stringify({ error: { message: error.message, code: error.status } });
}

const unauthorized = (message = 'Incorrect username or password') =>
  new HttpBasicAuthError(401, message);

const configInvalid = (detail: string) =>
  new HttpBasicAuthError(500, `Invalid configuration file. ${detail}`);

/** parse_entry: `user:$2b$…`; only bcrypt digests are supported. */
export function parseUserEntry(entry: string): { username: string; crypted: string } {
  const colon = entry.indexOf(':');
  const username = entry.slice(0, colon);
  const crypted = entry.slice(colon + 1);
  if (!['$2y$', '$2a$', '$2b$'].includes(crypted.slice(0, 4))) {
    throw configInvalid(`Only bcrypt digested passwords are supported for ${username}`);
  }
  return { username, crypted };
}

/** validate_auth_file: every entry with a colon must be bcrypt (checked at start). */
export function validateUserFile(text: string): void {
  for (const line of text.split('\n')) {
    const entry = line.trim();
    if (entry !== '' && entry.includes(':')) parseUserEntry(entry);
  }
}

/** parse_header: the token of `Authorization: Basic <token>`. */
export function basicToken(header: string | undefined): string {
  if (header === undefined) throw unauthorized('Authorization required');
  const parts = header.trim().split(/\s+/);
  if (parts.length < 2 || parts[0] === '') {
    throw new HttpBasicAuthError(400, 'Could not parse Authorization header');
  }
  const type = parts[0] as string;
  if (type.toLowerCase() !== 'basic') {
    throw new HttpBasicAuthError(400, `Unsupported authorization type "${type}"`);
  }
  return header.trim().slice(type.length).trim();
}

const STRICT_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** parse_token: the user name (UTF-8) and the password (bytes) of a base64 `user:password`. */
export function basicCredentials(token: string): { username: string; password: Uint8Array } {
  const bad = () => new HttpBasicAuthError(400, 'Could not decode authorization token');
  if (!STRICT_BASE64.test(token)) throw bad();
  const pair = Buffer.from(token, 'base64');
  const colon = pair.indexOf(0x3a);
  if (colon < 0) throw bad();
  let username: string;
  try {
    username = new TextDecoder('utf-8', { fatal: true }).decode(pair.subarray(0, colon));
  } catch {
    throw bad();
  }
  return { username, password: new Uint8Array(pair.subarray(colon + 1)) };
}

/** Where the authenticator reads its users from, and where it says why it refused one. */
export interface HttpBasicAuthenticatorOptions {
  /** Reads `[DEFAULT] http_basic_auth_user_file` (throws when it cannot). */
  readonly readUserFile: () => Promise<string>;
  /** Told why a request was refused (ironic-lib logs these at info). */
  readonly log?: (message: string) => void;
}

/** Matches already checked: bcrypt costs tens of milliseconds a request. */
const CACHE_SIZE = 1000;

export class HttpBasicAuthenticator implements RequestAuthenticator {
  // The header is the middleware's to read (it pops it); the identity is its to set.
  readonly strippedHeaders = ['authorization', 'x-user', 'x-user-name'];
  readonly #options: HttpBasicAuthenticatorOptions;
  readonly #matched = new Set<string>();

  constructor(options: HttpBasicAuthenticatorOptions) {
    this.#options = options;
  }

  async authenticate(request: AuthRequest): Promise<AuthOutcome> {
    const raw = request.headers.authorization;
    const header = Array.isArray(raw) ? raw[raw.length - 1] : (raw as string | undefined);
    const { username, password } = basicCredentials(basicToken(header));
    let text: string;
    try {
      text = await this.#options.readUserFile();
    } catch (error) {
      this.#options.log?.(`Problem reading auth user file: ${(error as Error).message}`);
      throw configInvalid('Problem reading auth user file');
    }
    const entry = text
      .split('\n')
      .map((line) => line.trim())
      .find((line) => line !== '' && line.startsWith(`${username}:`));
    if (entry === undefined) {
      this.#options.log?.(`User ${username} not found`);
      throw unauthorized();
    }
    const { crypted } = parseUserEntry(entry);
    if (!this.#matches(password, crypted)) {
      this.#options.log?.(`Password for ${username} does not match`);
      throw unauthorized();
    }
    return {
      credentials: { userId: username, userName: username, roles: [], isAdminProject: true },
      headers: { 'x-user': username, 'x-user-name': username },
    };
  }

  #matches(password: Uint8Array, crypted: string): boolean {
    const key = `${crypted}\0${createHash('sha256').update(password).digest('hex')}`;
    if (this.#matched.has(key)) return true;
    if (!bcryptVerify(password, crypted)) return false;
    if (this.#matched.size >= CACHE_SIZE) this.#matched.clear();
    this.#matched.add(key);
    return true;
  }
}
