/**
 * `auth_strategy = keystone`: keystonemiddleware's auth_token, request by request. The user's
 * token (`X-Auth-Token`) is validated against Keystone (or found in the token cache, for
 * `token_cache_time` seconds) and refused once expired; an optional service token
 * (`X-Service-Token`) is validated the same way, and when it holds one of
 * `service_token_roles` the user's token may be expired (Keystone is asked with
 * `allow_expired`). A missing or refused token is a 401 naming where to authenticate; a
 * Keystone that cannot answer is a 503, never a pass. What the request then carries is the
 * header set keystonemiddleware writes, and the credentials oslo.context reads from it.
 */
import { AuthenticationRequiredError } from './errors.ts';
import {
  IdentityClient,
  type IdentityClientOptions,
  TokenNotFoundError,
} from './identity-client.ts';
import type { KeystoneAuthConfig } from './keystone-auth-config.ts';
import {
  type AccessRule,
  AUTH_HEADERS,
  isExpired,
  type KeystoneToken,
  MalformedTokenError,
  readKeystoneToken,
  tokenHeaders,
} from './keystone-token.ts';
import {
  credentialsFromHeaders,
  type HeaderBag,
  type RequestCredentials,
} from './request-credentials.ts';
import { DEFAULT_MAX_CACHED_TOKENS, TokenCache } from './token-cache.ts';

/** What a request to authenticate is, framework aside. */
export interface AuthRequest {
  readonly method: string;
  /** The path, without the query. */
  readonly path: string;
  readonly headers: HeaderBag;
}

/** An authenticated request: its credentials, and the headers the auth layer sets on it. */
export interface AuthOutcome {
  readonly credentials: RequestCredentials;
  /** Header names (lower case) to set; the auth layer's own names are removed first. */
  readonly headers: Readonly<Record<string, string>>;
}

/** Any auth strategy a service's hook runs (Keystone, or a development mode). */
export interface RequestAuthenticator {
  /** Throws AuthenticationRequiredError (401) or IdentityServiceUnavailableError (503). */
  authenticate(request: AuthRequest): Promise<AuthOutcome> | AuthOutcome;
  /** Header names the client may not set itself (removed from every request it sees). */
  readonly strippedHeaders: readonly string[];
  /** Releases what the authenticator holds (connections, timers). */
  close?(): void;
}

/**
 * How a KeystoneAuthenticator is built: the identity client's options and the size of its token
 * cache.
 */
export interface KeystoneAuthenticatorOptions extends IdentityClientOptions {
  readonly maxCachedTokens?: number;
}

function header(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[value.length - 1] : (value as string | undefined);
}

/** keystonemiddleware's `_path_matches`: `{tag}` and `*` match one segment, `**` any. */
export function accessRulePathMatches(path: string, pattern: string): boolean {
  const tokens = pattern.match(/\{[^}]*\}|\*\*|\*|[^{}*]+/g) ?? [];
  const source = tokens
    .map((token) => {
      if (token === '**') return '.*';
      if (token === '*' || token.startsWith('{')) return '[^/]+';
      return token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('');
  return new RegExp(`^${source}$`).test(path);
}

function allowedByAccessRules(
  rules: readonly AccessRule[],
  request: AuthRequest,
  serviceType: string,
): boolean {
  return rules.some(
    (rule) =>
      rule.method === request.method &&
      rule.service === serviceType &&
      accessRulePathMatches(request.path, rule.path),
  );
}

export class KeystoneAuthenticator implements RequestAuthenticator {
  readonly strippedHeaders: readonly string[];
  readonly #config: KeystoneAuthConfig;
  readonly #client: IdentityClient;
  readonly #cache: TokenCache<KeystoneToken>;
  readonly #now: () => number;
  readonly #wwwAuthenticate: string;

  private constructor(
    config: KeystoneAuthConfig,
    client: IdentityClient,
    options: KeystoneAuthenticatorOptions,
    stripped: readonly string[],
  ) {
    this.#config = config;
    this.#client = client;
    this.#now = options.now ?? Date.now;
    this.#cache = new TokenCache({
      ttlSeconds: config.tokenCacheSeconds,
      maxEntries: options.maxCachedTokens ?? DEFAULT_MAX_CACHED_TOKENS,
      now: this.#now,
    });
    this.#wwwAuthenticate = `Keystone uri="${config.wwwAuthenticateUri}"`;
    this.strippedHeaders = stripped;
  }

  /** Reads the TLS files now; Keystone is first asked at the first request (it may be down). */
  static async create(
    config: KeystoneAuthConfig,
    options: KeystoneAuthenticatorOptions = {},
  ): Promise<KeystoneAuthenticator> {
    return new KeystoneAuthenticator(
      config,
      await IdentityClient.create(config, options),
      options,
      // keystonemiddleware overwrites the system scope rather than removing it: the same end.
      [...AUTH_HEADERS, 'openstack-system-scope'],
    );
  }

  /** `Keystone uri="…"`, sent with every 401. */
  get wwwAuthenticate(): string {
    return this.#wwwAuthenticate;
  }

  async authenticate(request: AuthRequest): Promise<AuthOutcome> {
    const userToken = (
      header(request.headers, 'x-auth-token') ?? header(request.headers, 'x-storage-token')
    )?.trim();
    const serviceToken = header(request.headers, 'x-service-token')?.trim();

    let service: KeystoneToken | undefined;
    let allowExpired = false;
    if (serviceToken) {
      service = await this.#valid(serviceToken, false);
      if (service === undefined) throw this.#refusal('invalid service token');
      const holdsRole = service.roles.some((role) => this.#config.serviceTokenRoles.includes(role));
      if (this.#config.serviceTokenRolesRequired && !holdsRole) {
        throw this.#refusal('service token without a service role');
      }
      allowExpired = holdsRole;
    }
    if (!userToken) throw this.#refusal('no user token');
    const user = await this.#valid(userToken, allowExpired);
    if (user === undefined) throw this.#refusal('invalid user token');
    if (user.accessRules !== undefined && serviceToken === undefined) {
      const type = this.#config.serviceType;
      if (type === undefined || !allowedByAccessRules(user.accessRules, request, type)) {
        throw this.#refusal('the token access rules do not allow this request');
      }
    }

    const headers: Record<string, string> = {
      ...tokenHeaders(user, 'user'),
      'x-identity-status': 'Confirmed',
    };
    if (service !== undefined) {
      Object.assign(headers, tokenHeaders(service, 'service'));
      headers['x-service-identity-status'] = 'Confirmed';
    }
    return { credentials: credentialsFromHeaders(headers), headers };
  }

  /** Closes the identity client's connections. */
  close(): void {
    this.#client.close();
  }

  /** The token when Keystone (or the cache) accepts it and it has not expired, else undefined. */
  async #valid(token: string, allowExpired: boolean): Promise<KeystoneToken | undefined> {
    // Keystone's tokens are printable ASCII; anything else is not one (and is not sent on).
    if (!/^[\x21-\x7e]+$/.test(token)) return undefined;
    let found: KeystoneToken;
    try {
      found = await this.#cache.getOrValidate(
        token,
        async (subject) => readKeystoneToken(await this.#client.validate(subject, allowExpired)),
        allowExpired ? 'allow-expired' : '',
      );
    } catch (error) {
      if (error instanceof TokenNotFoundError || error instanceof MalformedTokenError) {
        return undefined;
      }
      throw error;
    }
    if (!allowExpired && isExpired(found, this.#now())) return undefined;
    return found;
  }

  #refusal(reason: string): AuthenticationRequiredError {
    return new AuthenticationRequiredError(reason, this.#wwwAuthenticate);
  }
}
