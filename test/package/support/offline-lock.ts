/**
 * The lock file of a scratch project that installs the packed toolkit offline, from npm's
 * cache: the tarball as its dependency, and every package this repository installs for
 * production, at the same paths and versions (they are the tarball's dependency tree). Each
 * entry carries its registry address: the cache holds the tarballs but not the registry's
 * documents of the packages, and npm asks for a package's document when its lock entry has
 * no address (ENOTCACHED offline).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './packed.ts';

interface LockEntry {
  readonly version?: string;
  readonly dev?: boolean;
  readonly link?: boolean;
  readonly [key: string]: unknown;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

/** The lock's text, for a project `name` whose package.json has `dependencies` (baton among them). */
export function offlineLock(
  name: string,
  manifest: {
    readonly dependencies: Readonly<Record<string, string>>;
    readonly devDependencies?: Readonly<Record<string, string>>;
  },
): string {
  const tarball = manifest.dependencies.baton;
  if (tarball === undefined) throw new Error(`${name}: package.json does not depend on baton`);
  const pkg = readJson<Record<string, unknown>>(join(ROOT, 'package.json'));
  const lock = readJson<{ packages: Record<string, LockEntry> }>(join(ROOT, 'package-lock.json'));
  const packages: Record<string, unknown> = {
    '': { name, ...manifest },
    'node_modules/baton': {
      version: pkg.version,
      resolved: tarball,
      dependencies: pkg.dependencies,
      bin: pkg.bin,
      engines: pkg.engines,
    },
  };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (!path.startsWith('node_modules/') || entry.dev || entry.link) continue;
    const packageName = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const file = `${packageName.split('/').at(-1)}-${entry.version}.tgz`;
    packages[path] = { resolved: `https://registry.npmjs.org/${packageName}/-/${file}`, ...entry };
  }
  return `${JSON.stringify({ name, lockfileVersion: 3, requires: true, packages }, null, 2)}\n`;
}
