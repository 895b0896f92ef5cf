/**
 * The rehearsal's status file (src/rehearsal/status-file.ts) as the dashboard reads it
 * (src/service/dashboard/rehearsal-status.ts): written at once and on stop, read back whole;
 * a stale, missing or malformed file is no status.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { publishStatus } from '../../src/rehearsal/status-file.ts';
import { readRehearsalStatus } from '../../src/service/dashboard/rehearsal-status.ts';

test('published, read back; the last status written on stop', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'status-file-'));
  try {
    const path = join(dir, 'rehearsal.json');
    let served = 1;
    const publisher = publishStatus(
      path,
      () => ({ step: '1.1', title: 't', served, failed: 0 }),
      60_000,
    );
    served = 42;
    await publisher.stop();
    const status = await readRehearsalStatus(path, Date.now());
    assert.equal(status?.step, '1.1');
    assert.equal(status?.served, 42);
    assert.equal(await readRehearsalStatus(path, Date.now() + 31_000), undefined, 'stale');
    assert.equal(await readRehearsalStatus(join(dir, 'none.json'), Date.now()), undefined);
    assert.equal(await readRehearsalStatus(undefined, Date.now()), undefined);
    await writeFile(path, '{"step": ');
    assert.equal(await readRehearsalStatus(path, Date.now()), undefined, 'malformed');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
