/**
 * The compiled build: `npm install` makes it (the `prepare` script), `baton` runs it, a failed
 * build fails loudly, and sources edited since the last build are never run stale. The
 * scratch-copy test builds a copy of the checkout (its sources, bin/ and settings, with this
 * checkout's node_modules) exactly as `npm install` does, through `npm run prepare`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// Each service's release as OpenStack names its series: the year number, the name beside it.
const VERSION_LINE =
  /^baton (\d+\.\d+\.\d+) \(placement (\d{4}\.\d+) \([a-z]+\); baremetal \d{4}\.\d+ \(antelope\); commit ([0-9a-f]{7,}(?:-dirty)?|unknown)\)\n$/;

/** npm's own variables would tell a nested npm what the outer one runs. */
const cleanEnv = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')),
);

function run(cwd: string, file: string, ...args: string[]) {
  const result = spawnSync(file, args, { cwd, env: cleanEnv, encoding: 'utf8', timeout: 300_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('the compiled build', () => {
  it('is what npm install makes: prepare runs the build, and dist/ holds it', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
      bin: Record<string, string>;
    };
    assert.equal(pkg.scripts.prepare, 'npm run build');
    assert.equal(pkg.scripts.build, 'node bin/build.mjs');
    assert.equal(pkg.bin.baton, 'bin/baton.mjs');
    for (const script of ['start', 'baton', 'demo']) {
      assert.match(pkg.scripts[script] ?? '', /^exec node bin\/baton\.mjs\b/, script);
    }
    assert.ok(
      existsSync(join(ROOT, 'dist', 'build-info.json')),
      'npm install builds dist/ (run `npm run build`)',
    );
    assert.ok(existsSync(join(ROOT, 'dist', 'python-compat', 'os-traits.json')));
  });

  it("baton --version prints the release, the services' releases and the commit", () => {
    const result = run(ROOT, process.execPath, 'bin/baton.mjs', '--version');
    assert.equal(result.status, 0, result.stderr);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    const [, version, placement, commit] = VERSION_LINE.exec(result.stdout) ?? [];
    assert.equal(version, pkg.version, result.stdout);
    assert.equal(placement, '2026.1');
    const head = run(ROOT, 'git', 'rev-parse', '--short', 'HEAD').stdout.trim();
    assert.match(commit ?? '', new RegExp(`^${head}(-dirty)?$`), 'the checkout’s commit');
  });

  it('in a fresh copy: a failed build fails loudly; a good one runs; an edit is not run stale', () => {
    const copy = mkdtempSync(join(tmpdir(), 'baton-build-'));
    for (const entry of ['package.json', '.npmrc', 'tsconfig.json', 'tsconfig.build.json']) {
      cpSync(join(ROOT, entry), join(copy, entry));
    }
    for (const dir of ['bin', 'src']) cpSync(join(ROOT, dir), join(copy, dir), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
    const source = join(copy, 'src', 'cli', 'data-dir.ts');
    const good = readFileSync(source, 'utf8');

    writeFileSync(source, `${good}\nexport const broken: number = 'not a number';\n`);
    const failed = run(copy, 'npm', 'run', 'prepare');
    assert.notEqual(failed.status, 0, 'a failed build fails the install');
    assert.match(failed.stdout + failed.stderr, /error TS2322/);
    assert.match(failed.stderr, /baton build: tsc failed/);
    assert.ok(!existsSync(join(copy, 'dist', 'build-info.json')), 'no record of a failed build');

    writeFileSync(source, good);
    const built = run(copy, 'npm', 'run', 'prepare');
    assert.equal(built.status, 0, built.stdout + built.stderr);
    const record = JSON.parse(readFileSync(join(copy, 'dist', 'build-info.json'), 'utf8'));
    assert.equal(record.commit, 'unknown', 'a copy outside any git checkout');
    // npm runs `prepare` again on `npx baton …`: a current build is kept, not remade.
    const again = run(copy, 'npm', 'run', 'prepare');
    assert.equal(again.status, 0, again.stdout + again.stderr);
    assert.match(again.stdout, /baton build: dist\/ is current/);
    assert.deepEqual(
      JSON.parse(readFileSync(join(copy, 'dist', 'build-info.json'), 'utf8')),
      record,
      'the same build',
    );

    const version = run(copy, process.execPath, 'bin/baton.mjs', '--version');
    assert.equal(version.stderr, '', 'the build is current: no notice');
    assert.equal(version.status, 0);
    assert.match(version.stdout, VERSION_LINE);
    assert.match(version.stdout, /commit unknown\)/);
    const help = run(copy, process.execPath, 'bin/baton.mjs', 'placement', 'serve', '--help');
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /--workers <n>/);

    // Edited after the build: run from the sources, with a notice, never the old build.
    appendFileSync(source, '\nexport const EDITED_AFTER_BUILD = true;\n');
    const later = new Date(Date.now() + 5_000);
    utimesSync(source, later, later);
    const stale = run(copy, process.execPath, 'bin/baton.mjs', '--version');
    assert.equal(stale.status, 0, stale.stderr);
    assert.match(stale.stderr, /^baton: dist\/ is older than src\/ \(`npm run build` remakes it\)/);
    assert.equal(stale.stderr.trim().split('\n').length, 1, 'a one-line notice');
    assert.match(stale.stdout, VERSION_LINE);

    // Rebuilt beside dist/ and swapped in: the new record, no folder left over.
    const rebuilt = run(copy, 'npm', 'run', 'prepare');
    assert.equal(rebuilt.status, 0, rebuilt.stdout + rebuilt.stderr);
    assert.match(rebuilt.stdout, /baton build: dist\/ built/);
    const newer = JSON.parse(readFileSync(join(copy, 'dist', 'build-info.json'), 'utf8'));
    assert.notEqual(newer.builtAt, record.builtAt);
    assert.deepEqual(
      readdirSync(copy).filter((name) => name.includes('dist')),
      ['dist'],
      'only dist/ remains',
    );
    const fresh = run(copy, process.execPath, 'bin/baton.mjs', '--version');
    assert.equal(fresh.stderr, '', 'current again');
  });
});
