import {
  MicroversionsUnsupportedError,
  NoCommonVersionError,
  VersionRejectedError,
} from './client-errors.ts';
import {
  type FirstAttempt,
  firstAttempt,
  highestCommonVersion,
  parseUserChoice,
  type Range,
  type UserChoice,
} from './client-negotiation.ts';
import {
  type CompiledHeaderStyle,
  compileHeaderStyle,
  type HeaderStyle,
  STANDARD_HEADER,
} from './header-style.ts';
import {
  parseJsonBody,
  readRangeFromBody,
  readServerVersions,
  type ServerVersions,
} from './response-versions.ts';
import { compareVersions, formatVersion, parseVersion, type Version } from './version.ts';
import { defaultVersionCache, type VersionCache } from './version-cache.ts';
import type { VersionRange } from './version-list.ts';

export interface MicroversionClientOptions {
  /** Base URL of the service, e.g. `http://127.0.0.1:6385/v1`. Also the cache key. */
  readonly endpoint: string;
  /** Service type, for the standard header: `placement`, `baremetal`. */
  readonly serviceType: string;
  readonly headers: HeaderStyle;
  /** The versions this client's code understands. */
  readonly supported: VersionRange;
  /** The user's choice: `X.Y` or `latest`; omitted means "newest the client knows". */
  readonly requested?: string | undefined;
  /** Where negotiation results are kept; defaults to a process-wide cache. */
  readonly cache?: VersionCache;
  /** The one version of a server that predates microversions (the seed: 1.0). */
  readonly unversionedVersion?: string;
  readonly fetch?: typeof fetch;
}

export interface ClientRequest {
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Replayable bodies only: a negotiation retry sends the body again. */
  readonly body?: string | Uint8Array;
  readonly signal?: AbortSignal;
}

/** A response with what was learned about versions while getting it. */
export interface MicroversionResponse {
  readonly response: Response;
  /** Version the server answered at (the unversioned version for an old server). */
  readonly version: string;
  /** Version header value of the request that produced `response` (`latest` included). */
  readonly sent: string;
  /** False when the server predates microversions (use case 3A). */
  readonly microversions: boolean;
  /** True when a 406 made the client retry at a lower version (use case 7A). */
  readonly negotiated: boolean;
  readonly serverMin: string | undefined;
  readonly serverMax: string | undefined;
  readonly clientMin: string;
  readonly clientMax: string;
  /** The server answered at a version outside the client's range (possible with `latest`). */
  readonly beyondClient: boolean;
}

function textOf(version: Version | undefined): string | undefined {
  return version === undefined ? undefined : formatVersion(version);
}

/**
 * An HTTP client that negotiates the microversion with one endpoint, per the use cases of the
 * microversion seed (001). User input is validated in the constructor, before any request.
 */
export class MicroversionClient {
  readonly endpoint: string;
  readonly client: Range;
  readonly choice: UserChoice;
  readonly #style: CompiledHeaderStyle;
  readonly #serviceType: string;
  readonly #cache: VersionCache;
  readonly #unversioned: Version;
  readonly #fetch: typeof fetch;
  readonly #min: string;
  readonly #max: string;

  constructor(options: MicroversionClientOptions) {
    this.endpoint = options.endpoint;
    this.#serviceType = options.serviceType;
    this.#style = compileHeaderStyle(options.headers);
    this.client = {
      min: parseVersion(options.supported.min),
      max: parseVersion(options.supported.max),
    };
    this.#min = formatVersion(this.client.min);
    this.#max = formatVersion(this.client.max);
    this.#unversioned = parseVersion(options.unversionedVersion ?? '1.0');
    this.#cache = options.cache ?? defaultVersionCache;
    // Called through a wrapper: some fetch implementations insist on their own `this`.
    this.#fetch = options.fetch ?? ((input, request) => fetch(input, request));
    this.choice = parseUserChoice(options.requested, this.client);
  }

  async request(path: string, init: ClientRequest = {}): Promise<MicroversionResponse> {
    const attempt = firstAttempt(
      this.choice,
      this.client,
      this.#cache.get(this.endpoint),
      this.#unversioned,
    );
    const first = await this.#send(path, init, attempt.text);
    if (first.versions.aware && first.response.status !== 406) {
      return this.#answer(first.response, attempt.text, first.versions, false);
    }
    if (!first.versions.aware) return this.#oldServer(first.response, attempt);

    // A 406 from a server that knows microversions: negotiate, unless the user chose.
    const server = first.range;
    if (attempt.userSpecified || server === undefined) {
      throw this.#rejected(attempt.text, server, attempt.userSpecified);
    }
    const common = highestCommonVersion(this.client, server);
    const range = { min: formatVersion(server.min), max: formatVersion(server.max) };
    if (common === undefined)
      throw new NoCommonVersionError(attempt.text, range, this.#min, this.#max);
    const text = formatVersion(common);
    if (text === attempt.text) throw this.#rejected(text, server, false);
    this.#cache.set(this.endpoint, { microversions: true, min: server.min, max: server.max });

    const second = await this.#send(path, init, text);
    if (second.response.status === 406) throw this.#rejected(text, second.range, false);
    const { versions } = second;
    const learned = {
      ...versions,
      min: versions.min ?? server.min,
      max: versions.max ?? server.max,
    };
    return this.#answer(second.response, text, learned, true);
  }

  async #send(path: string, init: ClientRequest, versionText: string) {
    const headers: Record<string, string> = { ...init.headers };
    headers[this.#style.versionName] =
      this.#style.versionName === STANDARD_HEADER
        ? `${this.#serviceType} ${versionText}`
        : versionText;
    let response = await this.#fetch(this.#url(path), {
      method: init.method ?? 'GET',
      headers,
      body: init.body,
      signal: init.signal,
    });
    let versions = readServerVersions(response.headers, this.#style, this.#serviceType);
    let range: Range | undefined;
    if (response.status === 406) {
      // Placement states its range only in the 406 body; read it, keep the body for the caller.
      const text = await response.text();
      const fromBody = readRangeFromBody(parseJsonBody(text));
      if (fromBody !== undefined) versions = { ...versions, aware: true };
      range =
        versions.min !== undefined && versions.max !== undefined
          ? { min: versions.min, max: versions.max }
          : fromBody;
      response = new Response(text, {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      });
    }
    return { response, versions, range };
  }

  /** No version header at all: a server that predates microversions. */
  async #oldServer(response: Response, attempt: FirstAttempt): Promise<MicroversionResponse> {
    const unversioned = formatVersion(this.#unversioned);
    if (this.choice.kind === 'version') {
      // Use case 3B: never pretend the user's version was honoured.
      await response.body?.cancel();
      throw new MicroversionsUnsupportedError(
        attempt.text,
        this.endpoint,
        response.status,
        this.#min,
        this.#max,
      );
    }
    if (this.choice.kind === 'none') {
      // Use case 3A: proceed at the base version, if this client can still speak it.
      const { client } = this;
      if (compareVersions(this.#unversioned, client.min) < 0) {
        await response.body?.cancel();
        const range = { min: unversioned, max: unversioned };
        throw new NoCommonVersionError(attempt.text, range, this.#min, this.#max);
      }
      this.#cache.set(this.endpoint, { microversions: false });
    }
    // Use case 9 against an old server lands here too: report the base version, no crash.
    return this.#report(response, attempt.text, unversioned, false, false, undefined);
  }

  #answer(
    response: Response,
    sent: string,
    versions: ServerVersions,
    negotiated: boolean,
  ): MicroversionResponse {
    // A server that states no current version answered at what was asked (or its max for latest).
    const fallback = sent === 'latest' ? versions.max : undefined;
    const version = textOf(versions.version ?? fallback) ?? sent;
    return this.#report(response, sent, version, true, negotiated, versions);
  }

  #report(
    response: Response,
    sent: string,
    version: string,
    microversions: boolean,
    negotiated: boolean,
    versions: ServerVersions | undefined,
  ): MicroversionResponse {
    const parsed = parseVersion(version === 'latest' ? this.#max : version);
    const { min, max } = this.client;
    return {
      response,
      version,
      sent,
      microversions,
      negotiated,
      serverMin: textOf(versions?.min),
      serverMax: textOf(versions?.max),
      clientMin: this.#min,
      clientMax: this.#max,
      beyondClient: compareVersions(parsed, min) < 0 || compareVersions(parsed, max) > 0,
    };
  }

  #rejected(requested: string, server: Range | undefined, user: boolean): VersionRejectedError {
    const range =
      server === undefined
        ? undefined
        : { min: formatVersion(server.min), max: formatVersion(server.max) };
    return new VersionRejectedError(requested, range, user, this.#min, this.#max);
  }

  #url(path: string): string {
    const base = this.endpoint.endsWith('/') ? this.endpoint.slice(0, -1) : this.endpoint;
    return path.startsWith('/') ? base + path : `${base}/${path}`;
  }
}
