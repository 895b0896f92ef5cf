/** A bench's descendants: found through /proc down to grandchildren, and all stopped. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { it } from 'node:test';
import { descendantsOf, running, stopDescendants } from '../../../bench/support/descendants.ts';

it('finds children and grandchildren, and stops them all', async () => {
  // A shell that starts a sleep of its own in the background, then one in the foreground.
  const child = spawn('sh', ['-c', 'sleep 60 & sleep 60; wait'], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let found: number[] = [];
  for (let i = 0; i < 50 && found.length < 3; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    found = descendantsOf(process.pid);
  }
  assert.ok(found.includes(child.pid as number), `the shell among ${found}`);
  assert.ok(found.length >= 3, `the shell and its two sleeps: ${found}`);
  await stopDescendants(process.pid, 5_000);
  await exited;
  // Gone, not only moved to another parent (an orphan's parent becomes init).
  assert.deepEqual(found.filter(running), []);
});
