#!/usr/bin/env node
// `npm run build` (and `npm install`, through the `prepare` script): compiles src/ to dist/
// with tsc (tsconfig.build.json), loads the result once and writes dist/build-info.json, the
// record `baton --version` prints and bin/baton.mjs checks for freshness. The record is written
// last, so an interrupted or failed build leaves none and is never taken for a good one. A
// failure exits non-zero with the compiler's messages, which fails `npm install`.
//
// A build of the current sources is kept (`--force` remakes it): npm runs `prepare` on every
// `npx baton …` too, and rebuilding there would cost seconds each time. A new build is made in
// a folder beside dist/ and swapped in whole, so processes running from dist/ never see it
// half-written (they did: a server started during a rebuild found modules missing).
import { spawnSync } from 'node:child_process';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildStatus, readBuildRecord, sourceState } from './build-state.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const dist = join(root, 'dist');
// Beside dist/, at the same depth: source maps and the package root resolve the same from it.
const building = join(root, `.dist-building-${process.pid}`);

function fail(message) {
  rmSync(building, { recursive: true, force: true });
  process.stderr.write(`baton build: ${message}\n`);
  process.exit(1);
}

/** dist/ holds a build of these sources, made at this commit (a commit since changes the record). */
async function buildIsCurrent() {
  if (buildStatus(root) !== 'current') return false;
  try {
    const { collectBuildInfo } = await import(
      pathToFileURL(join(dist, 'cli', 'build-info.js')).href
    );
    return (await collectBuildInfo()).commit === readBuildRecord(root)?.commit;
  } catch {
    return false;
  }
}

if (!process.argv.includes('--force') && (await buildIsCurrent())) {
  process.stdout.write('baton build: dist/ is current (`npm run build -- --force` remakes it)\n');
  process.exit(0);
}

// Taken before compiling: a source edited while tsc runs makes this build stale at once.
const sources = sourceState(root);
// A fresh folder: output of removed sources must not linger.
rmSync(building, { recursive: true, force: true });

const tsc = join(
  dirname(createRequire(import.meta.url).resolve('typescript/package.json')),
  'bin',
  'tsc',
);
const compiled = spawnSync(
  process.execPath,
  [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', building],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
if (compiled.error) fail(`cannot run tsc: ${compiled.error.message}`);
if (compiled.status !== 0) {
  fail(`tsc failed (status ${compiled.status ?? compiled.signal}); dist/ is unchanged`);
}

// Loading the compiled CLI also proves that the output runs (every import resolves).
let info;
try {
  const { collectBuildInfo } = await import(
    pathToFileURL(join(building, 'cli', 'build-info.js')).href
  );
  info = await collectBuildInfo();
} catch (error) {
  fail(`the compiled code does not load: ${error instanceof Error ? error.message : error}`);
}
writeFileSync(
  join(building, 'build-info.json'),
  `${JSON.stringify({ ...info, builtAt: new Date().toISOString(), sources }, null, 2)}\n`,
);
// Two renames: dist/ is absent only between them, never partly written.
const old = join(root, `.dist-old-${process.pid}`);
try {
  renameSync(dist, old);
} catch (error) {
  if (error.code !== 'ENOENT') fail(`cannot replace dist/: ${error.message}`);
}
renameSync(building, dist);
rmSync(old, { recursive: true, force: true });
process.stdout.write(`baton build: dist/ built (baton ${info.version}, commit ${info.commit})\n`);
