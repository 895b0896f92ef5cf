/**
 * The previous release of a project whose lock file has not changed since: built from the
 * commit with a copy of the working tree's node_modules, npm not run (a `file:../` dependency
 * on a tarball would not resolve from the cache folder), only the project's `build` script.
 * A partial folder a killed preparation left is removed.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { preparePreviousRelease } from '../../src/rehearsal/previous-release.ts';

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.org',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.org',
    },
  }).trim();

describe('the previous release of a project with an unchanged lock file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'baton-previous-release-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("reuses the working tree's node_modules and runs only the build script", async () => {
    const project = join(dir, 'project');
    mkdirSync(join(project, 'node_modules/dep'), { recursive: true });
    // A dependency npm could not install from the cache folder: the copy must be what serves.
    const manifest = {
      name: 'project',
      private: true,
      dependencies: { dep: 'file:../nowhere/dep-1.0.0.tgz' },
      scripts: { build: "node -e \"require('fs').writeFileSync('built', 'yes')\"" },
    };
    writeFileSync(join(project, 'package.json'), JSON.stringify(manifest));
    writeFileSync(join(project, 'package-lock.json'), '{"lockfileVersion": 3}\n');
    writeFileSync(join(project, 'node_modules/dep/index.js'), 'export default 1;\n');
    writeFileSync(join(project, '.gitignore'), 'node_modules/\n');
    git(project, 'init', '--quiet');
    git(project, 'add', '.');
    git(project, 'commit', '--quiet', '-m', 'release 1');
    const commit = git(project, 'rev-parse', 'HEAD');
    // What a preparation killed part-way left: removed by the next one.
    const leftover = join(dir, 'cache', `${commit}.partial-999999`);
    mkdirSync(join(leftover, 'node_modules'), { recursive: true });
    const said: string[] = [];
    const built = await preparePreviousRelease({
      repoRoot: project,
      commit,
      cacheDir: join(dir, 'cache'),
      say: (line) => said.push(line),
    });
    assert.equal(built, join(dir, 'cache', commit));
    assert.equal(
      readFileSync(join(built, 'node_modules/dep/index.js'), 'utf8'),
      'export default 1;\n',
    );
    assert.equal(readFileSync(join(built, 'built'), 'utf8'), 'yes');
    assert.ok(
      said.includes('previous release: same package-lock.json as the working tree, no npm install'),
    );
    assert.ok(!said.some((line) => line.includes('npm install (its own lock file)')));
    assert.ok(existsSync(join(built, '.baton-release-ready')));
    assert.equal(existsSync(leftover), false, 'the partial folder left behind is removed');
    assert.ok(said.some((line) => line.includes(`removing ${commit}.partial-999999`)));
  });
});
