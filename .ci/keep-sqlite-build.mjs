// Keeps the SQLite driver that `npm install` compiled (2 minutes of CPU: its prebuilt binaries
// are on GitHub, which this machine cannot reach) in npm's prebuild cache, the place its
// installer (prebuild-install) looks before downloading. The next install on this machine
// unpacks it in a second; a machine without it compiles as before.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join } from 'node:path';

const pkgDir = 'node_modules/better-sqlite3';
const binary = join(pkgDir, 'build/Release/better_sqlite3.node');
if (!existsSync(binary)) process.exit(0);
const { version } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
// The address prebuild-install asks for, and the cache file name it derives from it.
const url =
  `https://github.com/WiseLibs/better-sqlite3/releases/download/v${version}/` +
  `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
const cacheDir = join(process.env.npm_config_cache ?? join(homedir(), '.npm'), '_prebuilds');
const digest = createHash('sha512').update(url).digest('hex').slice(0, 6);
const cached = join(cacheDir, `${digest}-${basename(url).replace(/[^a-zA-Z0-9.]+/g, '-')}`);
if (existsSync(cached)) process.exit(0);
mkdirSync(cacheDir, { recursive: true });
const partial = `${cached}.${process.pid}.tmp`;
execFileSync('tar', ['-czf', partial, '-C', pkgDir, 'build/Release/better_sqlite3.node']);
renameSync(partial, cached);
console.log(`kept the compiled SQLite driver for later installs: ${cached}`);
