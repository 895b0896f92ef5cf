/**
 * bin/test.mjs counts what a run left out: skipped and todo tests and suites, each checked
 * against the allowlist, and files that declare no test. The ledger is tested on events as
 * the runner emits them, then a real run of a fixture that skips in every way must fail.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseAllowedSkips, SkipLedger } from '../../bin/skips.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** bin/test.mjs as a separate run: without the variable that tells node it is a test's child. */
function runTests(args: string[], env: NodeJS.ProcessEnv = {}) {
  const { NODE_TEST_CONTEXT: _, ...outer } = process.env;
  return spawnSync(process.execPath, ['--import', 'tsx', 'bin/test.mjs', ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 300_000,
    env: { ...outer, ...env },
  });
}

describe('the skip ledger', () => {
  const allowed = parseAllowedSkips(
    [
      '# a comment',
      '',
      'test/a.test.ts | writes while another waits | one writer at a time  # why, here',
    ].join('\n'),
  );
  const ledger = () => new SkipLedger(allowed, (file) => file.replace('/root/', ''));

  it('reads file, test name and reason, and refuses a line without all three', () => {
    assert.deepEqual(allowed, [
      {
        file: 'test/a.test.ts',
        test: 'writes while another waits',
        reason: 'one writer at a time',
      },
    ]);
    assert.throws(() => parseAllowedSkips('test/a.test.ts | no reason'), /line 1: expected/);
  });

  it('counts a skipped suite, a skipped test and a todo, and allows only what the list names', () => {
    const l = ledger();
    l.record({ name: 'ran', file: '/root/test/a.test.ts' });
    l.record({
      name: 'postgresql unavailable',
      file: '/root/test/db/support/backends.ts',
      skip: 'connection refused',
      details: { type: 'suite' },
    });
    l.record({
      name: 'writes while another waits',
      file: '/root/test/a.test.ts',
      skip: 'one writer at a time',
    });
    l.record({
      name: 'writes while another waits',
      file: '/root/test/a.test.ts',
      skip: 'another reason',
    });
    l.record({ name: 'later', file: '/root/test/a.test.ts', todo: true });
    assert.deepEqual(
      l.skips.map((s) => [s.kind, s.test, s.reason, s.allowed]),
      [
        ['suite', 'postgresql unavailable', 'connection refused', false],
        ['test', 'writes while another waits', 'one writer at a time', true],
        ['test', 'writes while another waits', 'another reason', false],
        ['test', 'later', 'todo', false],
      ],
    );
    assert.equal(l.unexpected().length, 3);
    assert.match(
      l.report('allowed.txt')[0] ?? '',
      /^skipped or left to do: 3 tests, 1 suites .*1 allowed by allowed\.txt, 3 not allowed$/,
    );
  });

  it('takes a passing test named by its own file for a file that declares no test', () => {
    const l = ledger();
    l.record({ name: '/root/test/empty.test.ts', file: '/root/test/empty.test.ts' });
    l.record({ name: 'a test', file: '/root/test/b.test.ts' });
    assert.deepEqual(l.silent, ['test/empty.test.ts']);
  });
});

describe('bin/test.mjs on a file that skips in every way', () => {
  it('lists each skip, fails on those not allowed and on a file with no test', () => {
    const run = runTests([
      '--allowed-skips',
      'test/fixtures/skips/allowed.txt',
      'test/fixtures/skips/skipping.fixture.ts',
      'test/fixtures/skips/empty.fixture.ts',
    ]);
    assert.equal(run.status, 1, run.stdout + run.stderr);
    const out = run.stdout;
    assert.match(
      out,
      /skipped or left to do: 3 tests, 1 suites .*1 allowed by test\/fixtures\/skips\/allowed\.txt, 3 not allowed/,
    );
    assert.match(
      out,
      /NOT ALLOWED suite test\/fixtures\/skips\/skipping\.fixture\.ts › a suite skipped as a whole: its server is unreachable/,
    );
    assert.match(
      out,
      /allowed +test test\/fixtures\/skips\/skipping\.fixture\.ts › a skipped test the allowlist names: cannot happen on this backend/,
    );
    assert.match(out, /NOT ALLOWED test .* › a test that skips itself: decided while running/);
    assert.match(out, /NOT ALLOWED test .* › a test left to do: not written yet/);
    assert.match(
      out,
      /declares no test \(counted as one passing test\): test\/fixtures\/skips\/empty\.fixture\.ts/,
    );
  });

  it('passes when every skip is allowed', () => {
    const run = runTests(['test/db/migrations/resume.test.ts'], { CI: 'true' });
    assert.equal(run.status, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /2 allowed by test\/allowed-skips\.txt, 0 not allowed/);
  });

  it('fails a run whose only file declares no test', () => {
    const run = runTests(['test/fixtures/skips/empty.fixture.ts']);
    assert.equal(run.status, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /declares no test/);
  });
});
