import { compareVersions, formatVersion, tryParseVersion, type Version } from './version.ts';
import type { VersionRange } from './version-list.ts';

/**
 * One implementation of a route and the versions it serves, both ends included. `max` omitted
 * means "up to whatever the service's max is", so only the last window may leave it open.
 */
export interface VersionWindow<H> {
  readonly min: string;
  readonly max?: string;
  readonly handler: H;
}

/** What is wrong with a set of version windows. */
export type WindowProblem =
  | 'empty'
  | 'bad-version'
  | 'inverted'
  | 'overlap'
  | 'gap'
  | 'open-not-last'
  | 'outside-range'
  | 'mixed-apis';

/** What serves a request at a version: the implementation, or undefined when none does. */
export interface WindowSelector<H> {
  /** The handler for a version, or undefined when no window holds it. */
  select(version: Version): H | undefined;
}

/** A route's windows are wrong; raised when the route is declared, never at request time. */
export class VersionWindowsError extends Error {
  readonly problem: WindowProblem;
  /** Index of the offending window in the declared list. */
  readonly index: number;

  constructor(problem: WindowProblem, index: number, detail: string) {
    super(`Invalid version windows (${problem}) at window ${index}: ${detail}`);
    this.name = 'VersionWindowsError';
    this.problem = problem;
    this.index = index;
  }
}

interface Bounds<H> {
  readonly min: Version;
  readonly max: Version | undefined;
  readonly handler: H;
}

function windowVersion(text: string | undefined, index: number, end: string): Version {
  const version = text === undefined ? undefined : tryParseVersion(text);
  if (version === undefined) {
    throw new VersionWindowsError(
      'bad-version',
      index,
      `${end} ${JSON.stringify(text)} is not X.Y`,
    );
  }
  return version;
}

/** Windows meet when the next starts right after the previous ends: X.Y then X.(Y+1), or (X+1).0. */
function follows(next: Version, previous: Version): boolean {
  return (
    (next.major === previous.major && next.minor === previous.minor + 1) ||
    (next.major === previous.major + 1 && next.minor === 0)
  );
}

function checkRange<H>(bounds: readonly Bounds<H>[], range: VersionRange): void {
  const min = windowVersion(range.min, -1, 'range min');
  const max = windowVersion(range.max, -1, 'range max');
  bounds.forEach((window, index) => {
    const top = window.max ?? window.min;
    if (compareVersions(window.min, min) < 0 || compareVersions(top, max) > 0) {
      throw new VersionWindowsError(
        'outside-range',
        index,
        `reaches outside the service's range ${range.min} to ${range.max}`,
      );
    }
  });
}

/** The selector for one route, validated: windows in ascending order, no overlap, no gap. */
export class CompiledWindows<H> implements WindowSelector<H> {
  readonly #windows: readonly Bounds<H>[];

  constructor(windows: readonly VersionWindow<H>[], range?: VersionRange) {
    if (windows.length === 0) throw new VersionWindowsError('empty', 0, 'a route needs a window');
    const bounds = windows.map((window, index): Bounds<H> => {
      const min = windowVersion(window.min, index, 'min');
      const max = window.max === undefined ? undefined : windowVersion(window.max, index, 'max');
      if (max !== undefined && compareVersions(min, max) > 0) {
        throw new VersionWindowsError('inverted', index, `min ${window.min} > max ${window.max}`);
      }
      return { min, max, handler: window.handler };
    });
    for (let i = 1; i < bounds.length; i++) {
      const previous = bounds[i - 1] as Bounds<H>;
      const current = bounds[i] as Bounds<H>;
      if (previous.max === undefined) {
        throw new VersionWindowsError('open-not-last', i - 1, 'only the last window may omit max');
      }
      if (compareVersions(current.min, previous.max) <= 0) {
        throw new VersionWindowsError(
          'overlap',
          i,
          `starts at ${formatVersion(current.min)}, not after ${formatVersion(previous.max)}`,
        );
      }
      if (!follows(current.min, previous.max)) {
        throw new VersionWindowsError(
          'gap',
          i,
          `starts at ${formatVersion(current.min)}, leaving a gap after ${formatVersion(previous.max)}`,
        );
      }
    }
    if (range !== undefined) checkRange(bounds, range);
    this.#windows = bounds;
  }

  /** The handler whose window contains `version`, or undefined (the route does not exist there). */
  select(version: Version): H | undefined {
    const windows = this.#windows;
    for (let i = 0; i < windows.length; i++) {
      const window = windows[i] as Bounds<H>;
      if (compareVersions(version, window.min) < 0) return undefined;
      if (window.max === undefined || compareVersions(version, window.max) <= 0) {
        return window.handler;
      }
    }
    return undefined;
  }
}

/** Throws `VersionWindowsError` when the windows are not a valid, contiguous cover. */
export function validateWindows<H>(
  windows: readonly VersionWindow<H>[],
  range?: VersionRange,
): void {
  new CompiledWindows(windows, range);
}
