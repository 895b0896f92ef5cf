import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('bin/baton.mjs runs the CLI: its status and output are the command’s', () => {
  const help = spawnSync(process.execPath, ['bin/baton.mjs', 'placement', '--help'], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /serve/);
  const bad = spawnSync(process.execPath, ['bin/baton.mjs', 'no-such-command'], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.equal(bad.status, 64);
});
