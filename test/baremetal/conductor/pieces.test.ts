/** Small parts of the conductor: the worker pool, fake delays, the rescue password hash. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { NoFreeConductorWorkerError } from '../../../src/baremetal/common/errors.ts';
import { pythonIsoformat, pythonRepr } from '../../../src/baremetal/conductor/node-info.ts';
import {
  hashRescuePassword,
  sha256Crypt,
} from '../../../src/baremetal/conductor/rescue-password.ts';
import { WorkerPool } from '../../../src/baremetal/conductor/worker-pool.ts';
import { delaySeconds } from '../../../src/baremetal/drivers/fake/fake-delays.ts';

describe('conductor pieces', () => {
  it('runs at most `size` pieces of work, refuses more at once, and drains', async () => {
    const pool = new WorkerPool(2);
    const gates: (() => void)[] = [];
    const work = () => new Promise<void>((resolve) => gates.push(resolve));
    const errors: unknown[] = [];
    pool.spawn(work, (e) => errors.push(e));
    pool.spawn(work, (e) => errors.push(e));
    assert.equal(pool.busy, 2);
    assert.throws(() => pool.spawn(work, () => {}), NoFreeConductorWorkerError);
    assert.equal(await pool.drain(20), false, 'still running');
    for (const open of gates) open();
    assert.equal(await pool.drain(1000), true);
    assert.equal(pool.busy, 0);
    pool.spawn(
      async () => {
        throw new Error('boom');
      },
      (e) => errors.push(e),
    );
    await pool.drain(1000);
    assert.equal((errors[0] as Error).message, 'boom');
    pool.close();
    assert.throws(() => pool.spawn(work, () => {}), NoFreeConductorWorkerError);
  });

  it('sleeps as the real [fake] delays: a fixed n, or a,b mostly near a', () => {
    assert.equal(delaySeconds([0, 0]), 0);
    assert.equal(delaySeconds([3, 3]), 3);
    assert.equal(
      delaySeconds([2, 6], () => 0),
      2,
    );
    assert.equal(
      delaySeconds([2, 6], () => 1),
      6,
    );
    assert.ok(delaySeconds([2, 6], () => 0.5) < 4, 'the mode is at the low end');
  });

  it("hashes rescue passwords as Python's crypt with sha256", () => {
    assert.equal(
      sha256Crypt('secret', 'abcdefghijklmnop'),
      '$5$abcdefghijklmnop$i7zHaTeYqXlesRXJ8dXj6o.MEFQdzfIJpJpcWAtszs6',
    );
    const hashed = hashRescuePassword('a much longer password than thirty-two bytes, to be sure');
    assert.match(hashed, /^\$5\$[./0-9A-Za-z]{16}\$[./0-9A-Za-z]{43}$/);
    const check = spawnSync(
      '/usr/bin/python3',
      [
        '-W',
        'ignore',
        '-c',
        'import crypt,sys; print(crypt.crypt(sys.argv[1], sys.argv[2]))',
        'a much longer password than thirty-two bytes, to be sure',
        hashed,
      ],
      { encoding: 'utf8' },
    );
    if (check.status === 0) assert.equal(check.stdout.trim(), hashed);
  });

  it("writes Python's repr and isoformat as the real messages show them", () => {
    assert.equal(
      pythonRepr({ interface: 'bios', step: 'factory_reset', args: { a: [1, true, null] } }),
      "{'interface': 'bios', 'step': 'factory_reset', 'args': {'a': [1, True, None]}}",
    );
    assert.equal(pythonRepr("it's"), '"it\'s"');
    assert.equal(
      pythonIsoformat(new Date('2026-11-25T18:55:14.935Z')),
      '2026-11-25T18:55:14.935000',
    );
    assert.equal(pythonIsoformat(new Date('2026-11-25T18:55:14.000Z')), '2026-11-25T18:55:14');
  });
});
