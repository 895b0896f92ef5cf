/**
 * SharedLoads: identical loads share a query, but never one sent before the caller asked.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SharedLoads } from '../../../src/placement/store/shared-load.ts';

function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe('shared loads', () => {
  it('shares one query among callers of the same turn, per key', async () => {
    const loads = new SharedLoads<string>();
    const sent: string[] = [];
    const query = (key: string) => async () => {
      sent.push(key);
      return `${key}#${sent.length}`;
    };
    const answers = await Promise.all([
      loads.load('a', query('a')),
      loads.load('a', query('a')),
      loads.load('b', query('b')),
      loads.load('a', query('a')),
    ]);
    assert.deepEqual(sent.sort(), ['a', 'b']);
    assert.equal(answers[0], answers[1]);
    assert.equal(answers[0], answers[3]);
    assert.notEqual(answers[0], answers[2]);
  });

  it('gives a caller arriving while its query runs the next query, shared', async () => {
    const loads = new SharedLoads<number>();
    let sent = 0;
    const first = gate();
    const query = async () => {
      const n = ++sent;
      if (n === 1) await first.opened;
      return n;
    };
    const early = loads.load('k', query);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(sent, 1);
    // Asked after the first query was sent: must not get its answer.
    const late1 = loads.load('k', query);
    const late2 = loads.load('k', query);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(sent, 1, 'the next query waits for the running one');
    first.open();
    assert.equal(await early, 1);
    assert.equal(await late1, 2);
    assert.equal(await late2, 2);
    assert.equal(sent, 2);
    // Idle again: a new caller starts a fresh query.
    assert.equal(await loads.load('k', query), 3);
  });

  it('passes a failure to the callers sharing it, and recovers', async () => {
    const loads = new SharedLoads<number>();
    let calls = 0;
    const failing = async () => {
      calls++;
      throw new Error('boom');
    };
    const results = await Promise.allSettled([loads.load('k', failing), loads.load('k', failing)]);
    assert.equal(calls, 1);
    assert.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'rejected'],
    );
    assert.equal(await loads.load('k', async () => 42), 42);
  });
});
