/**
 * A microversion value `X.Y`: two non-negative integers compared as a tuple, so 1.9 < 1.15.
 *
 * Parsing is strict about shape and lenient only where both reference services are: Placement
 * (microversion_parse) and Ironic run Python's `int()` on each part, so `01.2` means 1.2 there
 * and it does here too. Anything else that is not `digits.digits` is rejected: `1`, `1.2.3`,
 * `+1.2`, `1.-2`, ` 1.2` (callers trim header whitespace themselves), `1_0.2`.
 */
export interface Version {
  readonly major: number;
  readonly minor: number;
}

/** The special request value meaning "the newest version the server supports". */
export const LATEST = 'latest';

/** The format every error message shows to the user. */
export const VERSION_FORMAT = 'X.Y';

// 15 digits keeps every part a safe integer; longer parts are refused rather than rounded.
const MAX_DIGITS = 15;
const DOT = 46;
const ZERO = 48;
const NINE = 57;

/** Raised when a text is not a valid `X.Y` version; `input` is the text as given. */
export class InvalidVersionError extends Error {
  readonly input: string;
  readonly expected = VERSION_FORMAT;

  constructor(input: string) {
    super(
      `Invalid version ${JSON.stringify(input)}: expected "${VERSION_FORMAT}", two integers separated by a dot (for example "1.10")`,
    );
    this.name = 'InvalidVersionError';
    this.input = input;
  }
}

/** A version from its two numbers. */
export function makeVersion(major: number, minor: number): Version {
  return { major, minor };
}

/** Parses `X.Y`; returns undefined instead of throwing so the request path never pays for a throw. */
export function tryParseVersion(text: string): Version | undefined {
  const end = text.length;
  let i = 0;
  let major = 0;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === DOT) break;
    if (c < ZERO || c > NINE || i >= MAX_DIGITS) return undefined;
    major = major * 10 + (c - ZERO);
  }
  const dot = i;
  if (dot === 0 || dot >= end - 1) return undefined;
  let minor = 0;
  for (i = dot + 1; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < ZERO || c > NINE || i - dot > MAX_DIGITS) return undefined;
    minor = minor * 10 + (c - ZERO);
  }
  return { major, minor };
}

/** Parses `X.Y`; throws InvalidVersionError for anything else. */
export function parseVersion(text: string): Version {
  const version = tryParseVersion(text);
  if (version === undefined) throw new InvalidVersionError(text);
  return version;
}

/** Canonical text: no leading zeros, so `format(parse('01.2')) === '1.2'`. */
export function formatVersion(version: Version): string {
  return `${version.major}.${version.minor}`;
}

/** Negative, zero or positive, like a sort comparator; tuple order on (major, minor). */
export function compareVersions(a: Version, b: Version): number {
  return a.major !== b.major ? a.major - b.major : a.minor - b.minor;
}

/** Whether two versions are the same. */
export function versionsEqual(a: Version, b: Version): boolean {
  return a.major === b.major && a.minor === b.minor;
}

/** The lower of two versions. */
export function minVersion(a: Version, b: Version): Version {
  return compareVersions(a, b) <= 0 ? a : b;
}

/** The higher of two versions. */
export function maxVersion(a: Version, b: Version): Version {
  return compareVersions(a, b) >= 0 ? a : b;
}

/** True when `min <= version <= max`. */
export function versionInRange(version: Version, min: Version, max: Version): boolean {
  return compareVersions(version, min) >= 0 && compareVersions(version, max) <= 0;
}

/** `latest` is matched case-insensitively, as Ironic does (Placement only takes lower case). */
export function isLatest(text: string): boolean {
  return text.length === 6 && (text === LATEST || text.toLowerCase() === LATEST);
}
