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
 * client knows (the seed's default). A cached range with nothing in common is not trusted: the
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
