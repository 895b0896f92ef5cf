/**
 * docs/tutorial.md as a newcomer follows it, from an empty folder to a passing rehearsal with
 * the packed toolkit: every code block in order, in a scratch folder outside the repository
 * where the tarball lies next to the project (`../baton-0.1.0.tgz`, as the tutorial packs
 * it). A block marked `<!-- tutorial: file PATH -->` is written to PATH, one marked
 * `<!-- tutorial: run -->` runs in bash in the folder the blocks before it left; every other
 * block must say why it is not run. The rehearsal at the end runs with short steps and must
 * pass: no failed request, a clean data check, what only release 2 serves asked and answered.
 *
 * Offline, as test/package/scratch-install.test.ts installs: npm's cache holds the
 * dependencies' tarballs but not their registry documents, so before the tutorial's
 * `npm install` the project gets a lock written from this repository's (the same versions,
 * each with its registry address and integrity), and install scripts are off, the native
 * SQLite driver copied from this repository's install instead. The release cache is the
 * test's own (XDG_CACHE_HOME), so release 1 is built as a reader's first run builds it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { RehearsalReport } from '../../src/rehearsal/report.ts';
import { offlineLock } from '../package/support/offline-lock.ts';
import { cleanNpmEnv, npmPack, ROOT } from '../package/support/packed.ts';
import { codeBlocksOf } from '../support/markdown-blocks.ts';

interface Block {
  readonly line: number;
  readonly marker: string | undefined;
  readonly body: string;
}

/** The tutorial's code blocks, each with the comment line just above it. */
function tutorialBlocks(): Block[] {
  return codeBlocksOf(ROOT, 'docs/tutorial.md').map((block) => ({
    ...block,
    body: `${block.body}\n`,
  }));
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

/** Before the tutorial's `npm install`: the lock it resolves from, offline. */
function writeOfflineLock(project: string): void {
  const manifest = readJson<{ name: string; dependencies: Record<string, string> }>(
    join(project, 'package.json'),
  );
  writeFileSync(
    join(project, 'package-lock.json'),
    offlineLock(manifest.name, { dependencies: manifest.dependencies }),
  );
}

describe('docs/tutorial.md, followed as written', { timeout: 300_000 }, () => {
  const scratch = mkdtempSync(join(tmpdir(), 'baton-tutorial-'));
  after(() => rmSync(scratch, { recursive: true, force: true }));

  it('marks every block: a file to write, commands to run, or why not', () => {
    const unmarked = tutorialBlocks().filter(
      (block) =>
        block.marker === undefined ||
        !/^<!-- (tutorial: (file \S+|run)|not run: .+) -->$/.test(block.marker),
    );
    assert.deepEqual(
      unmarked.map((block) => `docs/tutorial.md:${block.line}`),
      [],
    );
  });

  it('goes from an empty folder to a passing rehearsal with the packed toolkit', (t) => {
    assert.ok(!scratch.startsWith(ROOT));
    npmPack({ destination: scratch });
    const report = join(scratch, 'report.json');
    const env = {
      ...cleanNpmEnv(),
      npm_config_offline: 'true',
      npm_config_ignore_scripts: 'true',
      XDG_CACHE_HOME: join(scratch, 'cache'),
      GIT_AUTHOR_NAME: 'Newcomer',
      GIT_AUTHOR_EMAIL: 'newcomer@example.org',
      GIT_COMMITTER_NAME: 'Newcomer',
      GIT_COMMITTER_EMAIL: 'newcomer@example.org',
    };
    let cwd = scratch;
    const timings: string[] = [];
    let lastOutput = '';
    for (const block of tutorialBlocks()) {
      const marker = block.marker ?? '';
      const file = /^<!-- tutorial: file (\S+) -->$/.exec(marker)?.[1];
      if (file !== undefined) {
        mkdirSync(dirname(join(cwd, file)), { recursive: true });
        writeFileSync(join(cwd, file), block.body);
        continue;
      }
      if (marker !== '<!-- tutorial: run -->') continue;
      const installs = /^npm install\b/m.test(block.body);
      if (installs) writeOfflineLock(cwd);
      // Short steps here: the reader's 10 s a step shows the same.
      const script = block.body.replace(
        /^npx baton rehearse (.*)$/m,
        `npx baton rehearse $1 --step-seconds 2 --json ${report}`,
      );
      const pwdFile = join(scratch, 'pwd');
      const started = performance.now();
      const result = spawnSync('bash', ['-e', '-c', `${script}\npwd > "${pwdFile}"`], {
        cwd,
        env,
        encoding: 'utf8',
        timeout: 240_000,
        maxBuffer: 64 * 1024 * 1024,
      });
      timings.push(
        `docs/tutorial.md:${block.line}: ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      assert.equal(
        result.status,
        0,
        `docs/tutorial.md:${block.line} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`,
      );
      cwd = readFileSync(pwdFile, 'utf8').trim();
      lastOutput = result.stdout;
      if (installs) {
        const release = 'node_modules/better-sqlite3/build/Release';
        mkdirSync(join(cwd, release), { recursive: true });
        copyFileSync(
          join(ROOT, release, 'better_sqlite3.node'),
          join(cwd, release, 'better_sqlite3.node'),
        );
      }
    }
    t.diagnostic(timings.join('\n'));
    // Release 1 was built with the project's own node_modules: its `file:../` dependency on
    // the tarball would not resolve from the cache folder.
    assert.match(lastOutput, /same package-lock\.json as the working tree, no npm install/);
    const rehearsed = readJson<RehearsalReport>(report);
    assert.equal(rehearsed.ok, true);
    assert.equal(rehearsed.service, 'notes');
    assert.equal(rehearsed.previous.name, '1');
    assert.equal(rehearsed.total.failed, 0);
    assert.deepEqual(rehearsed.dataCheck.problems, []);
    assert.ok(rehearsed.steps.every((step) => step.figures.requests > 0));
    // The schema grew at step 0, and every row is at Note 1.1 at the end.
    assert.match(rehearsed.steps[0]?.commands[0]?.output ?? '', /applied 0002_add_note_topic/);
    assert.deepEqual(Object.keys(rehearsed.steps.at(-1)?.versions.Note ?? {}), ['1.1']);
    // What only release 2 serves was asked, and answered.
    for (const kind of ['create-topic', 'show-topic']) {
      assert.ok((rehearsed.total.byKind[kind] ?? 0) > 0, `no ${kind} request`);
    }
  });
});
