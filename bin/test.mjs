#!/usr/bin/env node
// `npm run test:unit`: runs every test file with Node's test runner, three files at a time, the
// longest ones first. The suite spends most of its time waiting on real peers (Python clients,
// uWSGI, Ironic, Keystone, database servers), so three files fit two cores; starting the
// longest first keeps one of them from beginning last and stretching the run (the runner's
// command line sorts files by name, so `run()` is used to keep this order).
//
// A green run must have run what it names: every skipped or todo test and suite is counted and
// listed after the runner's summary (bin/skips.mjs), and one that test/allowed-skips.txt does not
// name, a file that declares no test, or a run in which no test ran, fails it.
//
// Usage: node --import tsx bin/test.mjs [--concurrency N] [--allowed-skips FILE] [file...]
// Without files, runs all of test/**/*.test.ts. Exit 1 when a test fails, a skip is not allowed
// or a file ran no test.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parseAllowedSkips, SkipLedger } from './skips.mjs';

const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');

function testFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The files test/long-running.txt names, in its order; a name that no longer exists is an error. */
function longRunning(all) {
  const listed = readFileSync(join(root, 'test/long-running.txt'), 'utf8')
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter((line) => line !== '')
    .map((line) => join(root, line));
  const missing = listed.filter((file) => !all.includes(file));
  if (missing.length > 0) {
    process.stderr.write(
      `bin/test.mjs: test/long-running.txt names files that do not exist: ${missing
        .map((file) => relative(root, file))
        .join(', ')}\n`,
    );
    process.exit(64);
  }
  return listed;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    concurrency: { type: 'string', default: '3' },
    'allowed-skips': { type: 'string', default: join(root, 'test/allowed-skips.txt') },
  },
});
const concurrency = Number(values.concurrency);
if (!Number.isInteger(concurrency) || concurrency < 1) {
  process.stderr.write(`bin/test.mjs: --concurrency must be a positive integer\n`);
  process.exit(64);
}

let files;
if (positionals.length > 0) {
  files = positionals.map((file) => resolve(file));
} else {
  const all = testFiles(join(root, 'test')).sort();
  const first = longRunning(all);
  files = [...first, ...all.filter((file) => !first.includes(file))];
}

// The servers and commands the tests run look for their config files where oslo.config looks
// for the real services' (~/.ironic, /etc/ironic…: src/service/config-files.ts). This machine's
// /etc holds the real Ironic's ironic.conf (installed for the comparison tests), which is not
// the tests' to read: `/etc` is an empty folder for the run, unless the caller chose one.
if (process.env.BATON_SYSCONFDIR === undefined) {
  process.env.BATON_SYSCONFDIR = mkdtempSync(join(tmpdir(), 'baton-test-etc-'));
}

const ledger = new SkipLedger(
  parseAllowedSkips(readFileSync(values['allowed-skips'], 'utf8')),
  (file) => relative(root, file),
);
let failed = false;
// Seconds per file: its top-level tests and suites, which run one after another in the file.
const fileSeconds = new Map();
const timeFile = (data) => {
  if (data.nesting !== 0 || data.file === undefined) return;
  const seconds = (data.details?.duration_ms ?? 0) / 1000;
  fileSeconds.set(data.file, (fileSeconds.get(data.file) ?? 0) + seconds);
};
const stream = run({ files, concurrency });
stream.on('test:pass', (data) => {
  ledger.record(data);
  timeFile(data);
});
stream.on('test:fail', (data) => {
  failed = true;
  timeFile(data);
});
const out = stream.compose(spec);
out.pipe(process.stdout, { end: false });
out.on('end', () => {
  const allowlist = relative(root, values['allowed-skips']);
  const lines = ledger.report(allowlist);
  // Where the run's time went: test/long-running.txt orders the longest first from these.
  const slowest = [...fileSeconds].sort((a, b) => b[1] - a[1]).slice(0, 25);
  if (slowest.length > 1) {
    lines.push('', `slowest files (seconds, ${concurrency} at a time):`);
    for (const [file, seconds] of slowest)
      lines.push(`  ${seconds.toFixed(0).padStart(5)}  ${relative(root, file)}`);
  }
  const unexpected = ledger.unexpected().length;
  if (unexpected > 0) {
    lines.push(
      `${unexpected} left out without an entry in ${allowlist}: a skip proves nothing, so it fails the run`,
    );
  }
  const silent = ledger.silent;
  for (const file of silent) lines.push(`declares no test (counted as one passing test): ${file}`);
  const none = ledger.passed === 0 && !failed;
  if (none) lines.push('no test ran');
  process.stdout.write(`\n${lines.join('\n')}\n`);
  process.exitCode = failed || unexpected > 0 || silent.length > 0 || none ? 1 : 0;
});
