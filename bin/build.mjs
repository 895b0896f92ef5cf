#!/usr/bin/env node
// `npm run build` (and `npm install`, through the `prepare` script): compiles src/ to dist/
// with tsc (tsconfig.build.json), loads the result once and writes dist/build-info.json, the
// record `baton --version` prints and bin/baton.mjs checks for freshness. The record is written
// last, so an interrupted or failed build leaves none and is never taken for a good one. A
// failure exits non-zero with the compiler's messages, which fails `npm install`.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sourceState } from './build-state.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const dist = join(root, 'dist');

function fail(message) {
  process.stderr.write(`baton build: ${message}\n`);
  process.exit(1);
}

// Taken before compiling: a source edited while tsc runs makes this build stale at once.
const sources = sourceState(root);
// Output of removed sources must not linger.
rmSync(dist, { recursive: true, force: true });

const tsc = join(
  dirname(createRequire(import.meta.url).resolve('typescript/package.json')),
  'bin',
  'tsc',
);
const compiled = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], {
  cwd: root,
  stdio: 'inherit',
});
if (compiled.error) fail(`cannot run tsc: ${compiled.error.message}`);
if (compiled.status !== 0) {
  fail(`tsc failed (status ${compiled.status ?? compiled.signal}); dist/ is incomplete`);
}

// Loading the compiled CLI also proves that the output runs (every import resolves).
let info;
try {
  const { collectBuildInfo } = await import(pathToFileURL(join(dist, 'cli', 'build-info.js')).href);
  info = await collectBuildInfo();
} catch (error) {
  fail(`the compiled code does not load: ${error instanceof Error ? error.message : error}`);
}
writeFileSync(
  join(dist, 'build-info.json'),
  `${JSON.stringify({ ...info, builtAt: new Date().toISOString(), sources }, null, 2)}\n`,
);
process.stdout.write(`baton build: dist/ built (baton ${info.version}, commit ${info.commit})\n`);
