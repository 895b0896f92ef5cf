import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { lockUnlessReady } from '../../src/rehearsal/prepare-lock.ts';

function scratch() {
  const dir = mkdtempSync(join(tmpdir(), 'prepare-lock-'));
  return { lock: join(dir, 'thing.lock'), ready: join(dir, 'thing.ready') };
}

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid as number;
}

describe('lockUnlessReady', () => {
  it('takes a free lock, writing its pid; refuses once the thing is ready', async () => {
    const { lock, ready } = scratch();
    assert.equal(await lockUnlessReady(lock, ready), true);
    assert.equal(readFileSync(join(lock, 'pid'), 'utf8').trim(), String(process.pid));
    writeFileSync(ready, '');
    assert.equal(await lockUnlessReady(`${lock}2`, ready), false);
    assert.equal(existsSync(`${lock}2`), false);
  });

  it('waits while a live process holds it, and reuses what that process prepared', async () => {
    const { lock, ready } = scratch();
    assert.equal(await lockUnlessReady(lock, ready), true);
    const said: string[] = [];
    const started = Date.now();
    setTimeout(() => writeFileSync(ready, ''), 300);
    assert.equal(
      await lockUnlessReady(lock, ready, { pollMs: 50, say: (l) => said.push(l) }),
      false,
    );
    assert.ok(Date.now() - started >= 250);
    assert.deepEqual(said, [`another process (pid ${process.pid}) prepares it; waiting`]);
  });

  it('takes over the lock of a process that is gone, or of one that died taking it', async () => {
    const { lock, ready } = scratch();
    mkdirSync(lock);
    writeFileSync(join(lock, 'pid'), `${await deadPid()}\n`);
    assert.equal(await lockUnlessReady(lock, ready, { pollMs: 10 }), true);
    assert.equal(readFileSync(join(lock, 'pid'), 'utf8').trim(), String(process.pid));

    const other = scratch();
    mkdirSync(other.lock);
    const old = new Date(Date.now() - 120_000);
    utimesSync(other.lock, old, old);
    assert.equal(await lockUnlessReady(other.lock, other.ready, { pollMs: 10 }), true);
  });

  it('gives up after its wait, naming the lock', async () => {
    const { lock, ready } = scratch();
    assert.equal(await lockUnlessReady(lock, ready), true);
    await assert.rejects(
      lockUnlessReady(lock, ready, { waitMs: 100, pollMs: 20 }),
      /held for more than 0.1 s/,
    );
  });
});
