// What a test run left out, for bin/test.mjs. Node's runner counts a skipped test in its
// "skipped" line but a skipped `describe` only as one more suite, and the tests inside it are
// not counted at all: a suite that skipped because its server was unreachable vanished from a
// green run. A file that declares no test at all is even counted as one passing test, named
// by its path. Here every skipped or todo test and suite is recorded, and one that no entry of
// the allowlist (test/allowed-skips.txt) names makes the run fail, as does a file with no test.

/**
 * @typedef {{ file: string, test: string, reason: string }} AllowedSkip
 * @typedef {{ file: string, test: string, kind: 'test' | 'suite', reason: string, allowed: boolean }} Skip
 */

/**
 * Parses the allowlist: one skip a line, `file | test name | reason`, the reason being the
 * skip's own message word for word; `#` starts a comment.
 * @param {string} text
 * @returns {AllowedSkip[]}
 */
export function parseAllowedSkips(text) {
  return text.split('\n').flatMap((raw, index) => {
    const line = raw.replace(/(^|\s)#.*$/, '').trim();
    if (line === '') return [];
    const parts = line.split(' | ').map((part) => part.trim());
    if (parts.length !== 3 || parts.some((part) => part === '')) {
      throw new Error(`line ${index + 1}: expected "file | test name | reason", got ${raw}`);
    }
    const [file, test, reason] = /** @type {[string, string, string]} */ (parts);
    return [{ file, test, reason }];
  });
}

/** Collects the skips of a run from the runner's events. */
export class SkipLedger {
  /** @type {Skip[]} */
  skips = [];
  /** @type {string[]} test files that declared no test */
  silent = [];
  /** tests and suites that passed, skipped ones included */
  passed = 0;

  /**
   * @param {AllowedSkip[]} allowed
   * @param {(file: string) => string} name the file name as the allowlist writes it (a skip's
   *   file is the one that declares it, which may be a helper in a support folder)
   */
  constructor(allowed, name) {
    this.allowed = allowed;
    this.name = name;
  }

  /**
   * Takes the data of a `test:pass` event (a skipped or todo test passes).
   * @param {{ name: string, file?: string, skip?: string | boolean, todo?: string | boolean, details?: { type?: string } }} data
   */
  record(data) {
    this.passed++;
    const file = data.file === undefined ? '(no file)' : this.name(data.file);
    // The runner reports a file with no test in it as a test named by the file's path.
    if (data.file !== undefined && data.name === data.file) this.silent.push(file);
    const left = data.skip ?? data.todo;
    if (left === undefined || left === false) return;
    const reason = typeof left === 'string' ? left : data.skip !== undefined ? 'skipped' : 'todo';
    const kind = data.details?.type === 'suite' ? 'suite' : 'test';
    const allowed = this.allowed.some(
      (entry) => entry.file === file && entry.test === data.name && entry.reason === reason,
    );
    this.skips.push({ file, test: data.name, kind, reason, allowed });
  }

  /** The skips no allowlist entry names. */
  unexpected() {
    return this.skips.filter((skip) => !skip.allowed);
  }

  /**
   * The closing lines: counts, then one line per skip.
   * @param {string} allowlist the allowlist's name, as the lines should show it
   */
  report(allowlist) {
    const count = (kind) => this.skips.filter((skip) => skip.kind === kind).length;
    const unexpected = this.unexpected().length;
    const lines = [
      `skipped or left to do: ${count('test')} tests, ${count('suite')} suites (a suite's tests are not counted); ${this.skips.length - unexpected} allowed by ${allowlist}, ${unexpected} not allowed`,
    ];
    for (const skip of this.skips) {
      lines.push(
        `  ${skip.allowed ? 'allowed    ' : 'NOT ALLOWED'} ${skip.kind} ${skip.file} › ${skip.test}: ${skip.reason}`,
      );
    }
    return lines;
  }
}
