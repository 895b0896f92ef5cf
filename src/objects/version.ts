/**
 * Object versions: `X.Y` (oslo also tolerates `X.Y.Z` on the wire).
 * Parts are integers compared as tuples, so 1.9 < 1.15.
 */

const VERSION_PATTERN = /^(0|[1-9]\d*)\.(0|[1-9]\d*)(?:\.(0|[1-9]\d*))?$/;

export type VersionTuple = readonly number[];

const cache = new Map<string, VersionTuple | null>();

/** The integer tuple of a version string, or null when it is not a version. */
export function parseObjectVersion(version: string): VersionTuple | null {
  let parsed = cache.get(version);
  if (parsed === undefined) {
    const match = VERSION_PATTERN.exec(version);
    parsed = match
      ? match
          .slice(1)
          .filter((part) => part !== undefined)
          .map(Number)
      : null;
    if (cache.size < 10_000) cache.set(version, parsed);
  }
  return parsed;
}

export function isObjectVersion(version: string): boolean {
  return parseObjectVersion(version) !== null;
}

function tupleOf(version: string): VersionTuple {
  const parsed = parseObjectVersion(version);
  if (parsed === null) throw new RangeError(`'${version}' is not an object version (X.Y)`);
  return parsed;
}

/** Negative when a < b, zero when equal, positive when a > b. */
export function compareObjectVersions(a: string, b: string): number {
  if (a === b) return 0;
  const left = tupleOf(a);
  const right = tupleOf(b);
  const length = Math.max(left.length, right.length);
  for (let i = 0; i < length; i++) {
    const diff = (left[i] ?? 0) - (right[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

/**
 * Whether an object at `requested` can be handled by code at `current`:
 * same major version and current >= requested (oslo's `is_compatible`).
 * A three-part requested version is never compatible with a two-part
 * current one, as in oslo (the serializer strips the `.Z` first).
 */
export function isCompatibleVersion(requested: string, current: string): boolean {
  const req = tupleOf(requested);
  const cur = tupleOf(current);
  if (req[0] !== cur[0]) return false;
  return compareObjectVersions(current, requested) >= 0;
}

/** The highest of several versions. */
export function maxObjectVersion(versions: readonly string[]): string {
  if (versions.length === 0) throw new RangeError('maxObjectVersion needs at least one version');
  let best = versions[0] as string;
  for (const version of versions) if (compareObjectVersions(version, best) > 0) best = version;
  return best;
}

/** `X.Y` of an `X.Y.Z` version; other versions unchanged. */
export function stripPatchVersion(version: string): string {
  const tuple = parseObjectVersion(version);
  return tuple !== null && tuple.length === 3 ? `${tuple[0]}.${tuple[1]}` : version;
}
