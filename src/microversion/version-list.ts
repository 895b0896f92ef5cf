import { compareVersions, formatVersion, parseVersion } from './version.ts';

/** The supported range of a service, as text, the way configs and messages carry it. */
export interface VersionRange {
  readonly min: string;
  readonly max: string;
}

/** Raised when a service's version list is empty, unparsable or not strictly ascending. */
export class VersionListError extends Error {
  readonly index: number;
  readonly entry: string | undefined;

  constructor(index: number, entry: string | undefined, problem: string) {
    super(`Version list entry ${index} (${JSON.stringify(entry)}): ${problem}`);
    this.name = 'VersionListError';
    this.index = index;
    this.entry = entry;
  }
}

/**
 * A service keeps its versions as a plain array, one line and comment per version (Placement's
 * `VERSIONS`); the range is its first and last element. Checked once at startup so a typo or a
 * misplaced line fails the process, not a request.
 */
export function versionRange(versions: readonly string[]): VersionRange {
  if (versions.length === 0) throw new VersionListError(0, undefined, 'the list is empty');
  let previous = parseVersion(versions[0] as string);
  for (let i = 1; i < versions.length; i++) {
    const entry = versions[i] as string;
    const current = parseVersion(entry);
    if (compareVersions(current, previous) <= 0) {
      throw new VersionListError(i, entry, `must come after ${formatVersion(previous)}`);
    }
    previous = current;
  }
  return { min: versions[0] as string, max: versions[versions.length - 1] as string };
}
