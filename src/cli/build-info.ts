/**
 * What `baton --version` prints: the release of the toolkit (package.json), the release each
 * service's code is, and the commit. The build (bin/build.mjs) collects them once into
 * dist/build-info.json, so the compiled command loads no service; run from the sources (tests,
 * tsx), they are collected when asked. The commit is the checkout's, read with git when asked
 * (bin/baton.mjs runs dist/ only when it matches the sources, so that is the running code's;
 * a commit made since the build does not make it stale), else the build's; `unknown` outside a
 * git checkout; `-dirty` when the build's inputs differ from it.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { releaseLabel } from '../releases/release-label.ts';
import { loadService, SERVICE_NAMES } from './service-catalog.ts';

export interface BuildInfo {
  /** The toolkit's release (package.json `version`). */
  readonly version: string;
  /** Each service's release, by service name. */
  readonly releases: Readonly<Record<string, string>>;
  /** Short commit hash, `-dirty` when the build's inputs have uncommitted changes; or `unknown`. */
  readonly commit: string;
}

/** The package root: two levels up from src/cli and from dist/cli alike. */
const PACKAGE_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Written by the build beside the compiled tree; absent beside the sources. */
const BUILD_RECORD = new URL('../build-info.json', import.meta.url);
/** What a build is made from: changes here make a checkout "dirty" for the version. */
const BUILD_INPUTS = ['src', 'package.json', 'tsconfig.json', 'tsconfig.build.json'];

function git(root: string, ...args: string[]): string | undefined {
  const run = spawnSync('git', ['-C', root, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return run.status === 0 ? run.stdout.trim() : undefined;
}

/** The commit of the checkout at `root`; `unknown` without git or when `root` is not one. */
export function commitOf(root: string): string {
  const [top, head] =
    git(root, 'rev-parse', '--show-toplevel', '--short', 'HEAD')?.split('\n') ?? [];
  // A copy unpacked inside some other repository must not report that repository's commit.
  if (top === undefined || head === undefined || realpathSync(top) !== realpathSync(root)) {
    return 'unknown';
  }
  const changes = git(root, 'status', '--porcelain', '--', ...BUILD_INPUTS);
  return changes === undefined || changes === '' ? head : `${head}-dirty`;
}

/** Reads the package, the services' definitions and git (what the build records). */
export async function collectBuildInfo(root: string = PACKAGE_ROOT): Promise<BuildInfo> {
  const pkg = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')) as { version: string };
  const releases: Record<string, string> = {};
  for (const name of SERVICE_NAMES) releases[name] = (await loadService(name)).release;
  return { version: pkg.version, releases, commit: commitOf(root) };
}

/** The build's record when running compiled (with the checkout's commit), else collected now. */
export async function readBuildInfo(): Promise<BuildInfo> {
  let text: string;
  try {
    text = readFileSync(BUILD_RECORD, 'utf8');
  } catch {
    return collectBuildInfo();
  }
  const { version, releases, commit } = JSON.parse(text) as BuildInfo;
  const now = commitOf(PACKAGE_ROOT);
  return { version, releases, commit: now === 'unknown' ? commit : now };
}

/** `baton 0.1.0 (placement 2026.1 (gazpacho); baremetal 2023.1 (antelope); commit abc1234)` */
export function versionLine(info: BuildInfo): string {
  const releases = Object.entries(info.releases).map(
    ([name, release]) => `${name} ${releaseLabel(release)}`,
  );
  return `baton ${info.version} (${[...releases, `commit ${info.commit}`].join('; ')})`;
}
