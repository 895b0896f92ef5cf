/**
 * The service's side of Keystone v3, as keystonemiddleware uses it through keystoneauth:
 * the service authenticates with its own credentials (`POST /v3/auth/tokens`, password),
 * keeps that token and renews it before it expires, and validates a user's token with
 * `GET /v3/auth/tokens` (`X-Auth-Token`: its own, `X-Subject-Token`: the user's) at the
 * Identity endpoint its token's catalog lists for `interface` (and `region_name`).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { IdentityServiceUnavailableError } from './errors.ts';
import { ConnectionFailedError, type JsonAnswer, JsonHttpClient } from './json-http.ts';
import { identityV3Url, type KeystoneAuthConfig } from './keystone-auth-config.ts';
import { parseKeystoneTime } from './keystone-token.ts';

/** Keystone does not know the token (unknown, expired, revoked): the caller answers 401. */
export class TokenNotFoundError extends Error {
  override name = 'TokenNotFoundError';
}

interface ServiceToken {
  readonly token: string;
  /** Milliseconds since the epoch. */
  readonly expiresAt: number;
  readonly renewAt: number;
  /** The `…/v3` endpoint that validates tokens. */
  readonly identityUrl: string;
}

/** keystoneauth renews a token with less than this left. */
const RENEW_MARGIN_MS = 120_000;
/** keystoneauth's wait before the first retry of a failed connection, doubled each time. */
const FIRST_RETRY_DELAY_MS = 500;
const MAX_RETRY_DELAY_MS = 60_000;

/** What tests may replace in an IdentityClient: its clock and how a retry waits. */
export interface IdentityClientOptions {
  /** The clock, in milliseconds (tests may replace it). */
  readonly now?: () => number;
  /** How a retry waits (tests may shorten it). */
  readonly pause?: (ms: number) => Promise<void>;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The Identity endpoint of a catalog for an interface and region, or undefined. */
export function identityEndpointOf(
  catalog: unknown,
  wanted: { readonly interface: string; readonly regionName: string | undefined },
): string | undefined {
  if (!Array.isArray(catalog)) return undefined;
  for (const service of catalog) {
    if (!isObject(service) || service.type !== 'identity' || !Array.isArray(service.endpoints)) {
      continue;
    }
    for (const endpoint of service.endpoints) {
      if (!isObject(endpoint) || typeof endpoint.url !== 'string') continue;
      if (endpoint.interface !== wanted.interface) continue;
      const region = endpoint.region_id ?? endpoint.region;
      if (wanted.regionName !== undefined && region !== wanted.regionName) continue;
      return endpoint.url;
    }
  }
  return undefined;
}

/**
 * A service's own client of Keystone: it authenticates with the service's credentials
 * (`[keystone_authtoken]`, `[json_rpc]`), keeps that token fresh, and validates users' tokens.
 */
export class IdentityClient {
  readonly #config: KeystoneAuthConfig;
  readonly #http: JsonHttpClient;
  readonly #now: () => number;
  readonly #pause: (ms: number) => Promise<void>;
  #current: ServiceToken | undefined;
  #obtaining: Promise<ServiceToken> | undefined;

  private constructor(
    config: KeystoneAuthConfig,
    http: JsonHttpClient,
    options: IdentityClientOptions,
  ) {
    this.#config = config;
    this.#http = http;
    this.#now = options.now ?? Date.now;
    this.#pause = options.pause ?? ((ms) => sleep(ms));
  }

  /** A client for these credentials; nothing is asked of Keystone until a token is needed. */
  static async create(
    config: KeystoneAuthConfig,
    options: IdentityClientOptions = {},
  ): Promise<IdentityClient> {
    return new IdentityClient(
      config,
      await JsonHttpClient.create(config.timeoutMs, config.tls),
      options,
    );
  }

  /**
   * The service's own token (obtained at the first ask, renewed before it expires): what a
   * client of another service sends as `X-Auth-Token`. Throws IdentityServiceUnavailableError.
   */
  async token(): Promise<string> {
    return (await this.#serviceToken(false)).token;
  }

  /** Forgets the token, so the next `token()` authenticates again (after a 401 elsewhere). */
  forgetToken(): void {
    this.#current = undefined;
  }

  /**
   * The token's body (`{"token": …}`). Throws TokenNotFoundError when Keystone does not know
   * it, IdentityServiceUnavailableError when Keystone cannot say (down, an error answer, or it
   * refuses the service's own credentials).
   */
  async validate(userToken: string, allowExpired: boolean): Promise<unknown> {
    const query = allowExpired ? '?nocatalog&allow_expired=1' : '?nocatalog';
    // A 401 means the service's own token is no longer good: renew it once and ask again.
    for (const attempt of [1, 2]) {
      const service = await this.#serviceToken(attempt === 2);
      const answer = await this.#send('GET', `${service.identityUrl}/auth/tokens${query}`, {
        'x-auth-token': service.token,
        'x-subject-token': userToken,
        // We check access rules (keystone-authenticator.ts): Keystone may validate such tokens.
        'openstack-identity-access-rules': '1',
      });
      if (answer.status === 200) return answer.body;
      if (answer.status === 404) throw new TokenNotFoundError('Keystone does not know the token');
      if (answer.status !== 401) {
        throw new IdentityServiceUnavailableError(
          `token validation answered ${answer.status} ${errorMessageOf(answer)}`,
        );
      }
      this.#current = undefined;
    }
    throw new IdentityServiceUnavailableError(
      'Identity server rejected authorization necessary to fetch token data',
    );
  }

  /** Closes idle connections to Keystone. */
  close(): void {
    this.#http.close();
  }

  async #serviceToken(renew: boolean): Promise<ServiceToken> {
    const current = this.#current;
    if (!renew && current !== undefined && this.#now() < current.renewAt) return current;
    // One authentication at a time, whoever asks.
    this.#obtaining ??= this.#authenticate().finally(() => {
      this.#obtaining = undefined;
    });
    return this.#obtaining;
  }

  async #authenticate(): Promise<ServiceToken> {
    const config = this.#config;
    const body = {
      auth: {
        identity: {
          methods: ['password'],
          password: { user: { ...config.user, password: config.password } },
        },
        ...(config.scope === undefined ? {} : { scope: config.scope }),
      },
    };
    const answer = await this.#send('POST', `${config.authUrl}/auth/tokens`, {}, body);
    const token = answer.headers['x-subject-token'];
    const tokenBody = isObject(answer.body) && isObject(answer.body.token) ? answer.body.token : {};
    const expiresAt =
      typeof tokenBody.expires_at === 'string'
        ? parseKeystoneTime(tokenBody.expires_at)
        : undefined;
    if (answer.status !== 201 || typeof token !== 'string' || expiresAt === undefined) {
      throw new IdentityServiceUnavailableError(
        `the service could not authenticate as its [keystone_authtoken] user: ${answer.status} ${errorMessageOf(answer)}`,
      );
    }
    const endpoint = identityEndpointOf(tokenBody.catalog, config);
    const now = this.#now();
    // Renewed with two minutes left, or half its life when it lives shorter than four.
    const margin = Math.min(RENEW_MARGIN_MS, (expiresAt - now) / 2);
    const fresh: ServiceToken = {
      token,
      expiresAt,
      renewAt: expiresAt - margin,
      identityUrl: endpoint === undefined ? config.authUrl : identityV3Url(endpoint),
    };
    this.#current = fresh;
    return fresh;
  }

  /** Sends, retrying a failed connection `connectRetries` times; a last failure is a 503. */
  async #send(
    method: string,
    url: string,
    headers: Readonly<Record<string, string>>,
    body?: unknown,
  ): Promise<JsonAnswer> {
    let delay = FIRST_RETRY_DELAY_MS;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.#http.send(method, url, headers, body);
      } catch (error) {
        if (!(error instanceof ConnectionFailedError)) throw error;
        if (attempt >= this.#config.connectRetries) {
          throw new IdentityServiceUnavailableError(`${method} ${url}: ${error.message}`);
        }
        await this.#pause(delay);
        delay = Math.min(delay * 2, MAX_RETRY_DELAY_MS);
      }
    }
  }
}

function errorMessageOf(answer: JsonAnswer): string {
  const error = isObject(answer.body) ? answer.body.error : undefined;
  return isObject(error) && typeof error.message === 'string' ? `(${error.message})` : '';
}
