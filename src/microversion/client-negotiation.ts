import { InvalidRequestedVersionError } from './client-errors.ts';
import {
  compareVersions,
  formatVersion,
  isLatest,
  LATEST,
  maxVersion,
  minVersion,
  tryParseVersion,
  type Version,
  versionInRange,
} from './version.ts';
import type { KnownServerVersions } from './version-cache.ts';

/** A range of versions, both ends included. */
export interface Range {
  readonly min: Version;
  readonly max: Version;
}

/** What the user asked the client for, validated (use case 4) before any request is made. */
export type UserChoice =
  | { readonly kind: 'none' }
  | { readonly kind: 'latest' }
  | { readonly kind: 'version'; readonly version: Version; readonly text: string };

/**
 * Validates the user's version: `latest`, or `X.Y` inside the client's own range (a version the
 * client does not know could not be interpreted; `latest` is the documented way to go beyond).
 */
export function parseUserChoice(requested: string | undefined, client: Range): UserChoice {
  if (requested === undefined) return { kind: 'none' };
  if (isLatest(requested)) return { kind: 'latest' };
  const version = tryParseVersion(requested);
  const min = formatVersion(client.min);
  const max = formatVersion(client.max);
  if (version === undefined) throw new InvalidRequestedVersionError(requested, 'format', min, max);
  if (!versionInRange(version, client.min, client.max)) {
    throw new InvalidRequestedVersionError(requested, 'outside-client-range', min, max);
  }
  return { kind: 'version', version, text: formatVersion(version) };
}

/** The highest version both sides support, or undefined when the ranges do not meet. */
export function highestCommonVersion(client: Range, server: Range): Version | undefined {
  const top = minVersion(client.max, server.max);
  const bottom = maxVersion(client.min, server.min);
  return compareVersions(top, bottom) >= 0 ? top : undefined;
}

/** The version header value of a first attempt, and whether the user chose it. */
export interface FirstAttempt {
  readonly text: string;
  readonly userSpecified: boolean;
}

/**
 * First attempt: the user's choice as given (`latest` is sent as `latest`, use case 9); otherwise
 * what the cache allows (use case 7A's remembered outcome), otherwise the newest version the
 * client knows (the microversion spec's default). A cached range with nothing in common is not trusted: the
 * client asks again with its max, so a server upgraded since then gets a fresh chance.
 */
export function firstAttempt(
  choice: UserChoice,
  client: Range,
  known: KnownServerVersions | undefined,
  unversioned: Version,
): FirstAttempt {
  if (choice.kind === 'latest') return { text: LATEST, userSpecified: true };
  if (choice.kind === 'version') return { text: choice.text, userSpecified: true };
  if (known !== undefined) {
    const common = known.microversions
      ? highestCommonVersion(client, known)
      : versionInRange(unversioned, client.min, client.max)
        ? unversioned
        : undefined;
    if (common !== undefined) return { text: formatVersion(common), userSpecified: false };
  }
  return { text: formatVersion(client.max), userSpecified: false };
}

// Methods that change state: if one reaches a server that ignores the version, it has run.
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

/** POST, PUT, PATCH, DELETE and any other method HTTP does not call safe. */
export function isStateChanging(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase());
}

/**
 * What a response means for negotiation. Only a success says anything about a server that
 * predates microversions (use cases 3A/3B); an error without version headers may come from an
 * authentication layer, a proxy or a route that does not exist, in front of any server.
 */
export type ResponseKind =
  /** 2xx/3xx with version headers: answered at a version. */
  | 'versioned-success'
  /** 2xx/3xx without any: the server ignored the version header (use case 3). */
  | 'unversioned-success'
  /** 406 about the version (the server's range, when stated, is read by the caller). */
  | 'version-refused'
  /** Any other answer (401, 403, 404, 5xx, a 406 at an accepted version): passed through. */
  | 'error';

export interface ResponseFacts {
  readonly status: number;
  /** Some version header was present. */
  readonly aware: boolean;
  /** The version the answer says it was made at, if any. */
  readonly version: Version | undefined;
}

export function classifyResponse(facts: ResponseFacts, sent: string): ResponseKind {
  if (facts.status < 400) return facts.aware ? 'versioned-success' : 'unversioned-success';
  if (facts.status !== 406) return 'error';
  // A 406 made at the version sent accepted that version: it is about something else (an
  // `Accept` header the service cannot serve), not a version to negotiate away from. A version
  // refusal carries no current version (Placement, Ironic) or the default (Baton's plugin).
  const accepted =
    facts.version !== undefined && (isLatest(sent) || formatVersion(facts.version) === sent);
  return accepted ? 'error' : 'version-refused';
}

/** The version sent lies outside the server's range (`latest` never does). */
export function outsideRange(sent: string, range: Range): boolean {
  if (isLatest(sent)) return false;
  const version = tryParseVersion(sent);
  return version === undefined || !versionInRange(version, range.min, range.max);
}

function sameRange(a: Range, b: Range): boolean {
  return compareVersions(a.min, b.min) === 0 && compareVersions(a.max, b.max) === 0;
}

/**
 * What the cache should hold after a versioned success: the range the answer (or the version
 * document) stated, replacing whatever was there; without a range, a remembered "no
 * microversions" is forgotten (it is wrong now: a stale entry heals) and a remembered range kept.
 */
export function knowledgeAfterSuccess(
  known: KnownServerVersions | undefined,
  range: Range | undefined,
): KnownServerVersions | undefined {
  if (range === undefined) return known?.microversions ? known : undefined;
  if (known?.microversions && sameRange(known, range)) return known;
  return { microversions: true, min: range.min, max: range.max };
}
