import type { FeatureGate } from './features.ts';
import { compareVersions, formatVersion, type Version } from './version.ts';
import { VersionWindowsError, type WindowProblem, type WindowSelector } from './version-windows.ts';

/**
 * One implementation (a schema, a handler) and the versions it serves, bounded by gates of the
 * API's features table: from `since` (included) up to `until` (excluded: the gate that brought
 * the next implementation), open when `until` is omitted. Bounds are gates rather than `X.Y`
 * so the window says why it ends, and it works for version lists with holes (Ironic has no
 * 1.81 in Baton's list) because meeting windows share a gate instead of adjacent numbers.
 */
export interface FeatureWindow<T> {
  readonly since: FeatureGate;
  readonly until?: FeatureGate;
  readonly use: T;
}

/**
 * The implementations of one route or schema choice across versions, validated when declared:
 * ascending, each starting at the gate the previous one stops at (no gap, no overlap), only the
 * last open, all gates from one API. `select` picks by version on the request path.
 */
export class FeatureWindows<T> implements WindowSelector<T> {
  /** What the windows choose between, for messages and tests ("PUT /allocations body"). */
  readonly label: string;
  readonly windows: readonly FeatureWindow<T>[];

  constructor(label: string, windows: readonly FeatureWindow<T>[]) {
    this.label = label;
    const fail = (problem: WindowProblem, index: number, detail: string) =>
      new VersionWindowsError(problem, index, `${label}: ${detail}`);
    const first = windows[0];
    if (first === undefined) throw fail('empty', 0, 'no window');
    windows.forEach((window, index) => {
      const { since, until } = window;
      if (!since.sameApi(first.since) || (until !== undefined && !until.sameApi(first.since))) {
        throw fail(
          'mixed-apis',
          index,
          `gates from another API's features table than ${first.since}`,
        );
      }
      if (until !== undefined && compareVersions(since, until) >= 0) {
        throw fail('inverted', index, `since ${since} is not before until ${until}`);
      }
      if (index === 0) return;
      const previous = windows[index - 1] as FeatureWindow<T>;
      if (previous.until === undefined) {
        throw fail('open-not-last', index - 1, 'only the last window may omit until');
      }
      const order = compareVersions(since, previous.until);
      if (order < 0) {
        throw fail(
          'overlap',
          index,
          `starts at ${since}, before ${previous.until} where the previous window stops`,
        );
      }
      if (order > 0) {
        throw fail(
          'gap',
          index,
          `starts at ${since}; versions from ${previous.until} up to it are unserved`,
        );
      }
    });
    this.windows = Object.freeze([...windows]);
  }

  /** The gate from which some window serves. */
  get since(): FeatureGate {
    return (this.windows[0] as FeatureWindow<T>).since;
  }

  /** The gate from which no window serves any more, or undefined when the last is open. */
  get until(): FeatureGate | undefined {
    return (this.windows[this.windows.length - 1] as FeatureWindow<T>).until;
  }

  /** The implementation serving `version`, or undefined (below `since`, or at/after `until`). */
  select(version: Version): T | undefined {
    const windows = this.windows;
    for (let i = 0; i < windows.length; i++) {
      const window = windows[i] as FeatureWindow<T>;
      if (compareVersions(version, window.since) < 0) return undefined;
      if (window.until === undefined || compareVersions(version, window.until) < 0) {
        return window.use;
      }
    }
    return undefined;
  }

  /**
   * Like `select`, for callers only reachable where a window serves (a schema choice inside a
   * route gated from `since`): a miss is a programming error, not a client's, so it throws.
   */
  expect(version: Version): T {
    const chosen = this.select(version);
    if (chosen === undefined) {
      throw new Error(`${this.label}: no window serves ${formatVersion(version)}`);
    }
    return chosen;
  }
}
