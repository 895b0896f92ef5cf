/**
 * The tarball `npm pack` makes holds what a user of the toolkit needs and nothing else: the
 * compiled JavaScript with its .d.ts types (the reference services' too, since the `baton`
 * command serves them), the command's two scripts, the README and docs/toolkit.md. No test,
 * benchmark, TypeScript source or source map; every entry point of `exports` is in it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { npmPack, type PackResult, ROOT } from './support/packed.ts';

interface PackageJson {
  readonly name: string;
  readonly private?: boolean;
  readonly exports: Readonly<Record<string, string | { types: string; default: string }>>;
  readonly bin: Readonly<Record<string, string>>;
  readonly files: readonly string[];
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as PackageJson;

/** The toolkit's public modules (docs/toolkit.md), each an entry point `baton/<name>`. */
const ENTRY_POINTS = [
  'objects',
  'releases',
  'microversion',
  'rpc',
  'db',
  'service',
  'auth',
  'policy',
  'rehearsal',
];

/** Files outside dist/ that the package holds. */
const TOP_FILES = [
  'README.md',
  'bin/baton.mjs',
  'bin/build-state.mjs',
  'docs/toolkit.md',
  'package.json',
];

describe('npm pack', () => {
  let packed: PackResult;
  let paths: Set<string>;

  before(() => {
    packed = npmPack({ dryRun: true });
    paths = new Set(packed.files.map((file) => file.path));
    process.stdout.write(
      `${packed.filename}: ${packed.size} bytes packed, ${packed.unpackedSize} unpacked, ${packed.entryCount} files\n`,
    );
  });

  it('is a public package whose exports are exactly the entry points', () => {
    assert.equal(pkg.private, undefined);
    assert.deepEqual(
      Object.keys(pkg.exports).sort(),
      [...ENTRY_POINTS.map((name) => `./${name}`), './package.json'].sort(),
    );
    for (const name of ENTRY_POINTS) {
      assert.deepEqual(pkg.exports[`./${name}`], {
        types: `./dist/${name}/index.d.ts`,
        default: `./dist/${name}/index.js`,
      });
    }
  });

  it('holds each entry point with its types, and the command with what it runs', () => {
    for (const name of ENTRY_POINTS) {
      assert.ok(paths.has(`dist/${name}/index.js`), `dist/${name}/index.js`);
      assert.ok(paths.has(`dist/${name}/index.d.ts`), `dist/${name}/index.d.ts`);
    }
    assert.equal(pkg.bin.baton, 'bin/baton.mjs');
    for (const file of TOP_FILES) assert.ok(paths.has(file), file);
    // bin/baton.mjs runs dist/cli/main.js when dist/build-info.json says the build is whole.
    assert.ok(paths.has('dist/cli/main.js'));
    assert.ok(paths.has('dist/build-info.json'));
  });

  it('holds nothing but dist/ and the files above: no tests, sources, benchmarks or maps', () => {
    const stray = [...paths].filter(
      (path) =>
        !TOP_FILES.includes(path) && !(path.startsWith('dist/') && /\.(js|d\.ts|json)$/.test(path)),
    );
    assert.deepEqual(stray, []);
    const sources = [...paths].filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'));
    assert.deepEqual(sources, []);
    assert.deepEqual(
      [...paths].filter((path) => /(^|\/)(test|tests|bench|conformance|tools|src)\//.test(path)),
      [],
    );
    assert.deepEqual(
      [...paths].filter((path) => /\.test\.(js|d\.ts)$/.test(path)),
      [],
    );
  });

  it('stays small: a stray folder in it would show here first', () => {
    // 0.87 MB packed, 3.2 MB unpacked when written; twice that is a mistake, not growth.
    assert.ok(packed.size < 2_000_000, `${packed.size} bytes packed`);
    assert.ok(packed.unpackedSize < 7_000_000, `${packed.unpackedSize} bytes unpacked`);
  });
});
