import {
  MicroversionsUnsupportedError,
  NoCommonVersionError,
  type RangeSource,
  VersionRejectedError,
} from './client-errors.ts';
import {
  type Exchange,
  type ExchangeContext,
  exchange,
  probeVersionDocument,
} from './client-exchange.ts';
import {
  type FirstAttempt,
  firstAttempt,
  highestCommonVersion,
  isStateChanging,
  knowledgeAfterSuccess,
  outsideRange,
  parseUserChoice,
  type Range,
  type UserChoice,
} from './client-negotiation.ts';
import { compileHeaderStyle, type HeaderStyle } from './header-style.ts';
import { compareVersions, formatVersion, parseVersion, type Version } from './version.ts';
import { defaultVersionCache, type VersionCache } from './version-cache.ts';
import type { VersionRange } from './version-list.ts';

/** How a MicroversionClient talks to its service. */
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
  /** The one version of a server that predates microversions (the microversion spec: 1.0). */
  readonly unversionedVersion?: string;
  /** The fetch to use (default: the global one). */
  readonly fetch?: typeof fetch;
}

/** One request: method, headers and body. */
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
  /**
   * Version the server answered at (the unversioned version for an old server); undefined for
   * an error that carried no version header, which says nothing about versions.
   */
  readonly version: string | undefined;
  /** Version header value of the request that produced `response` (`latest` included). */
  readonly sent: string;
  /**
   * True when the answer (or the negotiation) showed microversions; false when a success showed
   * the server predates them (use case 3A); undefined when an error without version headers
   * (a 401 from an authentication layer, a proxy's 404 or 502) did not say.
   */
  readonly microversions: boolean | undefined;
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
 * microversion spec. User input is validated in the constructor, before any request.
 * Only a success (2xx/3xx) without version headers says the server predates microversions;
 * other errors are handed back as they came, and nothing is learned from them.
 */
export class MicroversionClient {
  readonly endpoint: string;
  readonly client: Range;
  readonly choice: UserChoice;
  readonly #context: ExchangeContext;
  readonly #cache: VersionCache;
  readonly #unversioned: Version;
  readonly #min: string;
  readonly #max: string;

  constructor(options: MicroversionClientOptions) {
    this.endpoint = options.endpoint;
    this.client = {
      min: parseVersion(options.supported.min),
      max: parseVersion(options.supported.max),
    };
    this.#min = formatVersion(this.client.min);
    this.#max = formatVersion(this.client.max);
    this.#unversioned = parseVersion(options.unversionedVersion ?? '1.0');
    this.#cache = options.cache ?? defaultVersionCache;
    this.#context = {
      // Called through a wrapper: some fetch implementations insist on their own `this`.
      fetch: options.fetch ?? ((input, request) => fetch(input, request)),
      style: compileHeaderStyle(options.headers),
      serviceType: options.serviceType,
    };
    this.choice = parseUserChoice(options.requested, this.client);
  }

  /**
   * Sends a request at the negotiated version, negotiating first when the server's versions are not
   * known yet.
   */
  async request(path: string, init: ClientRequest = {}): Promise<MicroversionResponse> {
    const method = (init.method ?? 'GET').toUpperCase();
    const { choice } = this;
    if (
      choice.kind === 'version' &&
      isStateChanging(method) &&
      this.#cache.get(this.endpoint)?.microversions !== true
    ) {
      await this.#checkBeforeChange(init, method, choice.text);
    }
    const attempt = firstAttempt(
      choice,
      this.client,
      this.#cache.get(this.endpoint),
      this.#unversioned,
    );
    const first = await exchange(this.#context, this.#url(path), init, attempt.text);
    switch (first.kind) {
      case 'versioned-success':
        this.#learn(first.range);
        return this.#answer(first, attempt.text, false);
      case 'unversioned-success':
        return this.#oldServer(first.response, attempt, method);
      case 'error':
        return this.#answer(first, attempt.text, false);
      case 'version-refused':
        return this.#negotiate(path, init, attempt, first);
    }
  }

  /**
   * A state-changing request with the user's version: against a server that predates
   * microversions it would run at the base API before use case 3B could be seen, so the
   * version document is asked first (once; a range learned is cached and skips this).
   */
  async #checkBeforeChange(init: ClientRequest, method: string, requested: string) {
    const probe = await probeVersionDocument(this.#context, this.endpoint, init, requested);
    if (probe.kind === 'unversioned') {
      this.#cache.set(this.endpoint, { microversions: false });
      const state = { method, stateChanging: true, sent: false };
      throw new MicroversionsUnsupportedError(
        requested,
        this.endpoint,
        state,
        this.#min,
        this.#max,
      );
    }
    if (probe.kind === 'versioned') this.#learn(probe.range);
  }

  /**
   * A 406 about the version: use cases 5, 6, 7A and 7B. A 406 whose server range includes the
   * version sent did not refuse that version (Ironic's 406 for an `Accept` it cannot serve
   * carries no version header at all): it is handed back like any other error.
   */
  async #negotiate(
    path: string,
    init: ClientRequest,
    attempt: FirstAttempt,
    first: Exchange,
  ): Promise<MicroversionResponse> {
    let server = first.range;
    let source: RangeSource = 'response';
    if (server === undefined) {
      // Refused without a range: the version document may state it (use case 7's range).
      const probe = await probeVersionDocument(this.#context, this.endpoint, init, undefined);
      if (probe.kind === 'versioned' && probe.range !== undefined) {
        server = probe.range;
        source = 'version-document';
      }
    }
    if (server !== undefined && !outsideRange(attempt.text, server)) {
      return this.#answer(first, attempt.text, false);
    }
    if (attempt.userSpecified || server === undefined) {
      throw this.#rejected(attempt.text, server, attempt.userSpecified, source);
    }
    const common = highestCommonVersion(this.client, server);
    if (common === undefined) {
      const range = { min: formatVersion(server.min), max: formatVersion(server.max) };
      throw new NoCommonVersionError(attempt.text, range, this.#min, this.#max);
    }
    const text = formatVersion(common);
    this.#cache.set(this.endpoint, { microversions: true, min: server.min, max: server.max });

    const second = await exchange(this.#context, this.#url(path), init, text);
    const range = second.range ?? server;
    if (second.kind === 'version-refused' && outsideRange(text, range)) {
      throw this.#rejected(text, range, false, second.range === undefined ? source : 'response');
    }
    if (second.kind === 'versioned-success') this.#learn(second.range);
    // The server showed microversions in its refusal: a success without version headers was
    // made at `text`; an error without them still says nothing.
    const success = second.kind === 'versioned-success' || second.kind === 'unversioned-success';
    const version = textOf(second.versions.version) ?? (success ? text : undefined);
    return this.#report(second.response, text, version, true, true, {
      min: second.versions.min ?? server.min,
      max: second.versions.max ?? server.max,
    });
  }

  /** A success with no version header at all: a server that predates microversions. */
  async #oldServer(
    response: Response,
    attempt: FirstAttempt,
    method: string,
  ): Promise<MicroversionResponse> {
    this.#cache.set(this.endpoint, { microversions: false });
    const unversioned = formatVersion(this.#unversioned);
    if (this.choice.kind === 'version') {
      // Use case 3B: never pretend the user's version was honoured; say what already happened.
      const state = {
        method,
        stateChanging: isStateChanging(method),
        sent: true,
        status: response.status,
        body: await response.text(),
      };
      throw new MicroversionsUnsupportedError(
        attempt.text,
        this.endpoint,
        state,
        this.#min,
        this.#max,
      );
    }
    if (this.choice.kind === 'none' && compareVersions(this.#unversioned, this.client.min) < 0) {
      // Use case 3A, but this client cannot speak the base version.
      await response.body?.cancel();
      const range = { min: unversioned, max: unversioned };
      throw new NoCommonVersionError(attempt.text, range, this.#min, this.#max);
    }
    // Use case 3A proceeds at the base version; use case 9 (`latest`) reports it, no crash.
    return this.#report(response, attempt.text, unversioned, false, false, undefined);
  }

  /** A versioned success, or an error handed back as it came (nothing learned from it). */
  #answer(answer: Exchange, sent: string, negotiated: boolean): MicroversionResponse {
    const { versions } = answer;
    if (!versions.aware) {
      return this.#report(answer.response, sent, undefined, undefined, negotiated, undefined);
    }
    // A server that states no current version answered at what was asked (or its max for latest).
    const fallback = sent === 'latest' ? versions.max : undefined;
    const version = textOf(versions.version ?? fallback) ?? sent;
    return this.#report(answer.response, sent, version, true, negotiated, versions);
  }

  #report(
    response: Response,
    sent: string,
    version: string | undefined,
    microversions: boolean | undefined,
    negotiated: boolean,
    server: { min: Version | undefined; max: Version | undefined } | undefined,
  ): MicroversionResponse {
    const parsed =
      version === undefined ? undefined : parseVersion(version === 'latest' ? this.#max : version);
    const { min, max } = this.client;
    return {
      response,
      version,
      sent,
      microversions,
      negotiated,
      serverMin: textOf(server?.min),
      serverMax: textOf(server?.max),
      clientMin: this.#min,
      clientMax: this.#max,
      beyondClient:
        parsed !== undefined &&
        (compareVersions(parsed, min) < 0 || compareVersions(parsed, max) > 0),
    };
  }

  /** Only a success, or a range the server stated, updates what the cache knows. */
  #learn(range: Range | undefined): void {
    const known = this.#cache.get(this.endpoint);
    const next = knowledgeAfterSuccess(known, range);
    if (next === known) return;
    if (next === undefined) this.#cache.delete(this.endpoint);
    else this.#cache.set(this.endpoint, next);
  }

  #rejected(
    requested: string,
    server: Range | undefined,
    user: boolean,
    source: RangeSource,
  ): VersionRejectedError {
    const range =
      server === undefined
        ? undefined
        : { min: formatVersion(server.min), max: formatVersion(server.max) };
    return new VersionRejectedError(requested, range, user, this.#min, this.#max, source);
  }

  #url(path: string): string {
    const base = this.endpoint.endsWith('/') ? this.endpoint.slice(0, -1) : this.endpoint;
    return path.startsWith('/') ? base + path : `${base}/${path}`;
  }
}
