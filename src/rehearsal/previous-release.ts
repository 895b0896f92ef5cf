/**
 * The previous release, built from the commit its release file names: the commit's tree
 * (`git archive`) in a folder of the cache keyed by commit, installed with npm from its own
 * lock file, then built. A prepared folder is reused (`.baton-release-ready` marks it done),
 * so a second rehearsal pays nothing, and one rehearsal at a time prepares a commit (the
 * others wait for it: CI starts four at once on two cores). The working tree's node_modules
 * is copied in first, so npm installs only what the two lock files do not share and removes
 * what the commit lacks (the native SQLite driver is not compiled again); with the same lock
 * file as the working tree, npm is not run at all, only the `build` script if there is one.
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { lockUnlessReady } from './prepare-lock.ts';
import { type CommandResult, runCommand } from './processes.ts';
import { parseReleaseFile, type ReleaseFile } from './release-files.ts';

const READY = '.baton-release-ready';

/** `$XDG_CACHE_HOME/baton/releases`, else `~/.cache/baton/releases`. */
export function releaseCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  const base = xdg !== undefined && isAbsolute(xdg) ? xdg : join(homedir(), '.cache');
  return join(base, 'baton', 'releases');
}

export async function readReleaseFiles(repoRoot: string): Promise<ReleaseFile[]> {
  const dir = join(repoRoot, 'releases');
  const names = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort();
  return Promise.all(
    names.map(async (name) => parseReleaseFile(await readFile(join(dir, name), 'utf8'), name)),
  );
}

/** Whether the commit's package-lock.json is the working tree's, and its node_modules is there. */
async function sameLockFile(repoRoot: string, extracted: string): Promise<boolean> {
  const [ours, theirs] = [
    join(repoRoot, 'package-lock.json'),
    join(extracted, 'package-lock.json'),
  ];
  if (!(existsSync(ours) && existsSync(theirs) && existsSync(join(extracted, 'node_modules')))) {
    return false;
  }
  return (await readFile(ours, 'utf8')) === (await readFile(theirs, 'utf8'));
}

function check(result: CommandResult, what: string): void {
  if (result.status !== 0) {
    throw new Error(`${what} failed (exit ${result.status}): ${result.output.trim().slice(-2000)}`);
  }
}

/** The folder holding the built release; prepared now unless the cache has it. */
export async function preparePreviousRelease(options: {
  readonly repoRoot: string;
  readonly commit: string;
  readonly cacheDir: string;
  readonly say: (line: string) => void;
}): Promise<string> {
  const { commit, cacheDir, say } = options;
  const target = join(cacheDir, commit);
  if (existsSync(join(target, READY))) {
    say(`previous release: reusing ${target}`);
    return target;
  }
  await mkdir(cacheDir, { recursive: true });
  const ready = join(target, READY);
  const told = (line: string) => say(`previous release: ${line}`);
  if (!(await lockUnlessReady(`${target}.lock`, ready, { say: told }))) {
    say(`previous release: reusing ${target}, prepared by another rehearsal`);
    return target;
  }
  try {
    await prepareIn(target, options);
  } finally {
    await rm(`${target}.lock`, { recursive: true, force: true });
  }
  return target;
}

/** Extracts, installs and builds the commit into `target` (under the lock). */
async function prepareIn(
  target: string,
  options: {
    readonly repoRoot: string;
    readonly commit: string;
    readonly say: (line: string) => void;
  },
): Promise<void> {
  const { repoRoot, commit, say } = options;
  const partial = `${target}.partial-${process.pid}`;
  // Under the lock no other preparer of this commit runs: any partial folder of it is what a
  // preparer stopped part-way (Ctrl-C, a kill) left behind.
  const prefix = `${basename(target)}.partial-`;
  for (const entry of await readdir(dirname(target))) {
    if (entry.startsWith(prefix)) {
      say(`previous release: removing ${entry}, left by a preparation that did not finish`);
      await rm(join(dirname(target), entry), { recursive: true, force: true });
    }
  }
  await mkdir(partial, { recursive: true });
  say(`previous release: git archive ${commit.slice(0, 12)} into ${partial}`);
  check(
    await runCommand('sh', [
      '-c',
      `git -C "$0" archive "$1" | tar -x -C "$2"`,
      repoRoot,
      commit,
      partial,
    ]),
    'git archive',
  );
  if (existsSync(join(repoRoot, 'node_modules'))) {
    say("previous release: copying the working tree's node_modules");
    // Its real folder: a node_modules that is a link (a git worktree sharing the main
    // checkout's) would be copied as the link, and npm would then install into the original.
    await cp(await realpath(join(repoRoot, 'node_modules')), join(partial, 'node_modules'), {
      recursive: true,
      verbatimSymlinks: true,
    });
  }
  if (await sameLockFile(repoRoot, partial)) {
    // The commit's dependencies are the working tree's, copied above: nothing to install.
    // This is also what makes a project that depends on a tarball by a relative `file:`
    // path work, which npm could not resolve from the cache's folder.
    say('previous release: same package-lock.json as the working tree, no npm install');
    const build = await runCommand('npm', ['run', '--if-present', 'build'], { cwd: partial });
    check(build, 'npm run build');
    say(`previous release: built in ${build.seconds} s`);
  } else {
    // `npm install` with the commit's lock file, not `npm ci`: see README (the lock lists
    // platform builds of Biome the registry here does not serve). It builds dist/ (prepare).
    say('previous release: npm install (its own lock file), which builds it');
    const install = await runCommand(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline'],
      {
        cwd: partial,
      },
    );
    check(install, 'npm install');
    if (!existsSync(join(partial, 'dist', 'cli', 'main.js'))) {
      check(
        await runCommand('npm', ['run', '--if-present', 'build'], { cwd: partial }),
        'npm run build',
      );
    }
    say(`previous release: installed and built in ${install.seconds} s`);
  }
  await writeFile(join(partial, READY), `${commit}\n`);
  await rm(target, { recursive: true, force: true });
  await rename(partial, target);
}
