// Keeps the SQLite driver that `npm install` compiled (2 minutes of CPU: its prebuilt binaries
// are on GitHub, which this machine cannot reach) in npm's prebuild cache, the place its
// installer (prebuild-install) looks before downloading. The next install on this machine
// unpacks it in a second; a machine without it compiles as before.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';

const pkgDir = resolve('node_modules/better-sqlite3');
const binary = join(pkgDir, 'build/Release/better_sqlite3.node');
if (!existsSync(binary)) process.exit(0);
const { version } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
// The address prebuild-install asks for; its own code names the cache file after it.
const url =
  `https://github.com/WiseLibs/better-sqlite3/releases/download/v${version}/` +
  `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
const { cachedPrebuild } = createRequire(join(pkgDir, 'package.json'))('prebuild-install/util');
const cached = cachedPrebuild(url);
if (existsSync(cached)) process.exit(0);
mkdirSync(dirname(cached), { recursive: true });
const partial = `${cached}.${process.pid}.tmp`;
execFileSync('tar', ['-czf', partial, '-C', pkgDir, 'build/Release/better_sqlite3.node']);
renameSync(partial, cached);
console.log(`kept the compiled SQLite driver for later installs: ${cached}`);
