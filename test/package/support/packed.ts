/**
 * `npm pack` of this repository, as the package tests use it. npm runs the `prepare` script
 * first (bin/build.mjs), which keeps a dist/ that is current and rebuilds a stale one, so the
 * tarball always holds a build of the sources under test.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository's root. */
export const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** One file of the tarball, as `npm pack --json` lists it. */
export interface PackedFile {
  readonly path: string;
  readonly size: number;
}

/** What `npm pack --json` reports. */
export interface PackResult {
  readonly filename: string;
  /** Bytes of the tarball. */
  readonly size: number;
  readonly unpackedSize: number;
  readonly entryCount: number;
  readonly files: readonly PackedFile[];
}

/**
 * The environment for an npm run inside a test: without the `npm_*` variables of an enclosing
 * `npm test` (its package, its script, its config), which would otherwise steer the inner npm.
 */
export function cleanNpmEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')),
  );
}

/**
 * Packs the repository into `destination` (or only lists, with `dryRun`). The build's progress
 * line comes before npm's JSON on stdout; the JSON is the part from the first `[` line.
 */
export function npmPack(options: { destination?: string; dryRun?: boolean }): PackResult {
  const args = ['pack', '--json'];
  if (options.dryRun) args.push('--dry-run');
  if (options.destination !== undefined) args.push('--pack-destination', options.destination);
  const out = execFileSync('npm', args, {
    cwd: ROOT,
    env: cleanNpmEnv(),
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const start = out.search(/^\[/m);
  if (start < 0) throw new Error(`npm pack printed no JSON:\n${out}`);
  const [result] = JSON.parse(out.slice(start)) as PackResult[];
  if (result === undefined) throw new Error('npm pack reported no package');
  return result;
}
