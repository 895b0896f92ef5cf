import { type CompiledHeaderStyle, compileHeaderStyle, STANDARD_HEADER } from './header-style.ts';
import {
  findRequestedVersion,
  type HeaderBag,
  headerValue,
  requestedVersionHeader,
  STANDARD_KEY,
} from './request-header.ts';
import { ResolvedVersion, type ResponseHeader } from './resolved-version.ts';
import type { MicroversionServerConfig } from './server-config.ts';
import { ServerConfigError } from './server-config.ts';
import {
  MalformedVersionError,
  NoHandlerForVersionError,
  VersionNotAcceptableError,
  type VersionServerError,
} from './server-errors.ts';
import {
  compareVersions,
  formatVersion,
  isLatest,
  minVersion,
  tryParseVersion,
  type Version,
  versionInRange,
} from './version.ts';

// Bounds the per-version cache: a range spanning two majors makes every 1.N valid.
const MAX_CACHED_VERSIONS = 4096;
// Bounds the memo of raw header values; clients send few distinct ones, attackers many.
const MAX_MEMO = 256;
const MAX_MEMO_KEY = 64;
const KEY_BASE = 1_000_000;

function configVersion(field: string, text: string | undefined): Version {
  const version = text === undefined ? undefined : tryParseVersion(text);
  if (version === undefined) {
    throw new ServerConfigError(field, `${JSON.stringify(text)} is not an "X.Y" version`);
  }
  return version;
}

function checkServiceType(serviceType: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(serviceType)) {
    throw new ServerConfigError('serviceType', `${JSON.stringify(serviceType)} is not a token`);
  }
  return serviceType.toLowerCase();
}

/**
 * The framework-free server side of microversions: from request headers to either the version
 * to answer at or the error to answer with, plus the headers and error bodies that go with them.
 * Built once per service at startup; the per-request work is a header scan and a cache lookup.
 */
export class VersionNegotiator {
  readonly serviceType: string;
  readonly style: CompiledHeaderStyle;
  readonly min: Version;
  /** Effective max: the declared max lowered by the release pin. */
  readonly max: Version;
  readonly declaredMax: Version;
  readonly minText: string;
  readonly maxText: string;
  /** Answer for requests that name no version (the service's minimum). */
  readonly defaultVersion: ResolvedVersion;
  /** Answer for `latest`. */
  readonly latestVersion: ResolvedVersion;
  readonly vary: string;
  readonly #config: MicroversionServerConfig;
  readonly #serviceKey: string;
  readonly #cache = new Map<number, ResolvedVersion>();
  readonly #standardMemo = new Map<string, ResolvedVersion>();
  readonly #legacyMemo = new Map<string, ResolvedVersion>();

  constructor(config: MicroversionServerConfig) {
    this.#config = config;
    this.serviceType = config.serviceType;
    this.#serviceKey = checkServiceType(config.serviceType);
    this.style = compileHeaderStyle(config.headers);
    this.min = configVersion('min', config.min);
    this.declaredMax = configVersion('max', config.max);
    if (compareVersions(this.min, this.declaredMax) > 0) {
      throw new ServerConfigError('max', `${config.max} is below min ${config.min}`);
    }
    let max = this.declaredMax;
    if (config.pinnedMax !== undefined) {
      const pinned = configVersion('pinnedMax', config.pinnedMax);
      if (compareVersions(pinned, this.min) < 0) {
        throw new ServerConfigError('pinnedMax', `${config.pinnedMax} is below min ${config.min}`);
      }
      max = minVersion(max, pinned);
    }
    this.max = max;
    this.minText = formatVersion(this.min);
    this.maxText = formatVersion(this.max);
    this.vary = this.style.vary;
    this.defaultVersion = this.resolvedFor(this.min);
    this.latestVersion = this.resolvedFor(this.max);
  }

  /** The version a request asks for, or the error it must be answered with. */
  resolve(headers: HeaderBag): ResolvedVersion | VersionServerError {
    // Read here rather than through versionHeaderValues: no object per request.
    const { style } = this;
    const standard = style.readsStandard ? headerValue(headers, STANDARD_KEY) : undefined;
    const legacyKey = style.legacyKey;
    const legacy = legacyKey === undefined ? undefined : headerValue(headers, legacyKey);
    return this.resolveValues(standard, legacy);
  }

  /**
   * From the values of the standard and legacy headers (undefined: absent). Clients repeat the
   * same value on every request, so a value already resolved is answered from a memo (when it
   * is the request's only version header) without scanning it again.
   */
  resolveValues(
    standard: string | undefined,
    legacy: string | undefined,
  ): ResolvedVersion | VersionServerError {
    let memo: Map<string, ResolvedVersion> | undefined;
    let key: string | undefined;
    if (standard === undefined) {
      if (legacy === undefined) return this.defaultVersion;
      memo = this.#legacyMemo;
      key = legacy;
    } else if (legacy === undefined) {
      memo = this.#standardMemo;
      key = standard;
    }
    if (memo !== undefined && key !== undefined) {
      const hit = memo.get(key);
      if (hit !== undefined) return hit;
    }
    const resolved = this.#resolveUncached(standard, legacy);
    if (memo !== undefined && key !== undefined && resolved instanceof ResolvedVersion) {
      if (memo.size < MAX_MEMO && key.length <= MAX_MEMO_KEY) memo.set(key, resolved);
    }
    return resolved;
  }

  #resolveUncached(
    standard: string | undefined,
    legacy: string | undefined,
  ): ResolvedVersion | VersionServerError {
    const text = findRequestedVersion(standard, legacy, this.#serviceKey);
    if (text === undefined) return this.defaultVersion;
    const version = tryParseVersion(text);
    if (version === undefined) {
      if (isLatest(text)) return this.latestVersion;
      return new MalformedVersionError(
        requestedVersionHeader(standard, this.style, this.#serviceKey),
        text,
        this.#config.malformedStatus,
        this.minText,
        this.maxText,
      );
    }
    if (!versionInRange(version, this.min, this.max)) {
      return new VersionNotAcceptableError(
        requestedVersionHeader(standard, this.style, this.#serviceKey),
        version,
        this.minText,
        this.maxText,
      );
    }
    return this.resolvedFor(version);
  }

  /** For routes outside versioning (a root document): a bad or missing header means the default. */
  resolveLenient(headers: HeaderBag): ResolvedVersion {
    const resolved = this.resolve(headers);
    return resolved instanceof ResolvedVersion ? resolved : this.defaultVersion;
  }

  /** The shared answer for a version already known to be in range. */
  resolvedFor(version: Version): ResolvedVersion {
    // A numeric key: building a string key would allocate on every request.
    const cacheable = version.major < KEY_BASE && version.minor < KEY_BASE;
    const key = version.major * KEY_BASE + version.minor;
    const cached = cacheable ? this.#cache.get(key) : undefined;
    if (cached !== undefined) return cached;
    const text = formatVersion(version);
    const resolved = new ResolvedVersion(version, text, this.#headersFor(text));
    if (cacheable && this.#cache.size < MAX_CACHED_VERSIONS) this.#cache.set(key, resolved);
    return resolved;
  }

  /** A 404 for a route that has no handler at this version. */
  notFound(resolved: ResolvedVersion): NoHandlerForVersionError {
    return new NoHandlerForVersionError(resolved.version, this.minText, this.maxText);
  }

  /** The service's wire-format body for an error; the status is `error.status`. */
  errorBody(error: VersionServerError, requestId?: string, version?: ResolvedVersion): unknown {
    return this.#config.formatError({
      status: error.status,
      title: error.title,
      detail: error.message,
      min: error.min,
      max: error.max,
      version: version?.text,
      requestId,
      error,
    });
  }

  // Names in lower case: HTTP does not care, HTTP/2 requires it, Fastify lower-cases them
  // anyway (at a string allocation per call when they are not).
  #headersFor(text: string): ResponseHeader[] {
    const { style } = this;
    const value = style.versionName === STANDARD_HEADER ? `${this.serviceType} ${text}` : text;
    const headers: ResponseHeader[] = [[style.versionKey, value]];
    if (style.minimumName !== undefined) {
      headers.push([style.minimumName.toLowerCase(), this.minText]);
    }
    if (style.maximumName !== undefined) {
      headers.push([style.maximumName.toLowerCase(), this.maxText]);
    }
    return headers;
  }
}
