/**
 * The tarball installs and works in a project outside the repository, as another team would
 * use it: `npm pack`, then `npm install --offline` of the tarball in a scratch folder under the
 * system's temporary directory, then a program that imports only the package's entry points
 * (scratch-program/main.ts) is type-checked against the installed .d.ts files (no
 * skipLibCheck) and run, and so is docs/toolkit.md's first program. Deep imports into the
 * package are refused, and the `baton` command runs from the installed copy.
 *
 * Offline: npm's cache holds the dependencies' tarballs (this repository's `npm install` put
 * them there) but not their registry documents, so the scratch project gets a package lock
 * written from this repository's (support/offline-lock.ts): the same versions, each with its
 * registry address and checked by integrity, with nothing asked of the registry. Install scripts are off (`--ignore-scripts`): the only one in
 * the package's dependencies is better-sqlite3's, which downloads or compiles its native
 * module; the test copies the one this repository's install made (the same version) instead.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { offlineLock } from './support/offline-lock.ts';
import { cleanNpmEnv, npmPack, ROOT } from './support/packed.ts';

interface Lock {
  readonly packages: Readonly<Record<string, { readonly version?: string }>>;
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

/**
 * The scratch project's package.json and lock: the tarball as its one dependency, @types/node
 * for its own code, and every package this repository installs for production, at the same
 * paths and versions (they are the tarball's dependency tree).
 */
function writeScratchProject(dir: string, tarball: string): void {
  const lock = readJson<Lock>(join(ROOT, 'package-lock.json'));
  const typesNode = lock.packages['node_modules/@types/node']?.version;
  assert.ok(typesNode, 'package-lock.json has no @types/node');
  const manifest = {
    name: 'scratch',
    private: true,
    type: 'module',
    dependencies: { baton: `file:${tarball}` },
    devDependencies: { '@types/node': typesNode },
  };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(
    join(dir, 'package-lock.json'),
    offlineLock('scratch', {
      dependencies: manifest.dependencies,
      devDependencies: manifest.devDependencies,
    }),
  );
  // The repository's own compiler settings, without its sources and with the library check on.
  writeFileSync(
    join(dir, 'tsconfig.json'),
    `${JSON.stringify(
      {
        compilerOptions: {
          target: 'es2023',
          lib: ['es2023'],
          module: 'nodenext',
          moduleResolution: 'nodenext',
          types: ['node'],
          strict: true,
          skipLibCheck: false,
          outDir: 'out',
        },
        files: ['main.ts', 'first-program.ts'],
      },
      null,
      2,
    )}\n`,
  );
  copyFileSync(join(ROOT, 'test/package/scratch-program/main.ts'), join(dir, 'main.ts'));
  writeFileSync(join(dir, 'first-program.ts'), firstProgram());
}

/** The first program of docs/toolkit.md, as a reader copies it. */
function firstProgram(): string {
  const text = readFileSync(join(ROOT, 'docs/toolkit.md'), 'utf8');
  const block = /^```ts\n([\s\S]*?)^```$/m.exec(text)?.[1];
  assert.ok(block, 'docs/toolkit.md has no ts block');
  return block;
}

/** Runs a command in the scratch project; its output, or a failure with everything it printed. */
function run(dir: string, command: string, args: readonly string[]): string {
  const result = spawnSync(command, args, {
    cwd: dir,
    env: cleanNpmEnv(),
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.equal(
    result.status,
    0,
    `${command} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`,
  );
  return result.stdout;
}

describe('the packed toolkit in a scratch project', { timeout: 240_000 }, () => {
  let dir: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'baton-scratch-'));
    const packed = npmPack({ destination: dir });
    writeScratchProject(dir, packed.filename);
    run(dir, 'npm', ['install', '--offline', '--ignore-scripts', '--no-audit', '--no-fund']);
    const release = 'node_modules/better-sqlite3/build/Release';
    mkdirSync(join(dir, release), { recursive: true });
    copyFileSync(
      join(ROOT, release, 'better_sqlite3.node'),
      join(dir, release, 'better_sqlite3.node'),
    );
  });

  after(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('installs outside the repository, offline, with the package as the only dependency', () => {
    assert.ok(!dir.startsWith(ROOT));
    const installed = readJson<{ name: string; version: string }>(
      join(dir, 'node_modules/baton/package.json'),
    );
    assert.equal(installed.name, 'baton');
    assert.equal(
      installed.version,
      readJson<{ version: string }>(join(ROOT, 'package.json')).version,
    );
  });

  it('type-checks a program against the installed .d.ts files, and runs it', () => {
    run(dir, process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', '.']);
    const printed = JSON.parse(run(dir, process.execPath, ['out/main.js', dir])) as unknown;
    assert.deepEqual(printed, {
      // Pinned to the release that knows Volume 1.0: the object goes out as 1.0, without `size`.
      pinnedVersion: '1.0',
      sentVersion: '1.0',
      sentFields: ['id', 'name'],
      // Client 1.0–1.5, server 1.0–1.2 pinned to 1.1: they agree on 1.1, and `latest` is 1.1.
      common: '1.1',
      resolved: '1.1',
      backend: 'sqlite',
      rows: [{ id: 1 }],
    });
  });

  it("runs docs/toolkit.md's first program as written", () => {
    // Compiled with main.ts by the test above.
    const out = run(dir, process.execPath, ['out/first-program.js']);
    assert.match(out, /'myservice_object\.version': '1\.0'/);
    assert.doesNotMatch(out, /size/);
  });

  it('refuses a path inside the package that is not an entry point', () => {
    for (const specifier of ['baton/dist/db/connect.js', 'baton/dist/objects/index.js', 'baton']) {
      const result = spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `import(${JSON.stringify(specifier)}).then(() => console.log('loaded'), (e) => console.log(e.code))`,
        ],
        { cwd: dir, encoding: 'utf8' },
      );
      assert.equal(result.stdout.trim(), 'ERR_PACKAGE_PATH_NOT_EXPORTED', specifier);
    }
  });

  it('gives TypeScript no declarations for a deep path either', () => {
    writeFileSync(
      join(dir, 'deep.ts'),
      "import { openDatabase } from 'baton/dist/db/connect.js';\nconsole.log(openDatabase);\n",
    );
    const result = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules/typescript/bin/tsc'),
        '--ignoreConfig',
        '--noEmit',
        '--strict',
        '--module',
        'nodenext',
        '--moduleResolution',
        'nodenext',
        '--types',
        'node',
        'deep.ts',
      ],
      { cwd: dir, encoding: 'utf8' },
    );
    assert.notEqual(result.status, 0);
    assert.match(
      result.stdout,
      /deep\.ts.*TS2307: Cannot find module 'baton\/dist\/db\/connect\.js'/,
    );
  });

  it('runs the baton command from the installed copy', () => {
    const out = execFileSync(join(dir, 'node_modules/.bin/baton'), ['--version'], {
      cwd: dir,
      encoding: 'utf8',
    });
    assert.match(out, /^baton \d+\.\d+\.\d+ \(placement .*; baremetal .*\)/);
  });
});
