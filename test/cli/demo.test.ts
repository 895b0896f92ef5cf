import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

test('the demo shows a pinned send, a receive at latest, a pinned DB write and a negotiated microversion', async () => {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', main, 'demo'], {
    timeout: 60_000,
  });
  assert.match(stdout, /Release pin: 2026\.1 \(API max 1\.5, RPC cap 1\.40\)/);
  assert.match(stdout, /"ironic_object\.version": "1\.14"/);
  assert.match(stdout, /"changed": \[[^\]]*"meta"/);
  assert.match(stdout, /"version": "1\.14"\n\}/);
  assert.match(stdout, /"sent": "1\.5",\s*"negotiated": true/);
});
