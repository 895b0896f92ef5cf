import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ReadBatcher } from '../../../src/placement/store/read-batcher.ts';

function recordingLoader() {
  const calls: string[][] = [];
  const load = async (keys: readonly string[]) => {
    calls.push([...keys]);
    return new Map(keys.filter((k) => k !== 'missing').map((k) => [k, `value of ${k}`]));
  };
  return { calls, load };
}

test('loads asked for in one turn share one query; each caller gets its own value', async () => {
  const { calls, load } = recordingLoader();
  const batcher = new ReadBatcher(load);
  const values = await Promise.all([
    batcher.load('a'),
    batcher.load('b'),
    batcher.load('a'),
    batcher.load('missing'),
  ]);
  assert.deepEqual(values, ['value of a', 'value of b', 'value of a', undefined]);
  assert.deepEqual(calls, [['a', 'b', 'missing']]);
});

test('a later turn gets a fresh query (nothing is cached between turns)', async () => {
  const { calls, load } = recordingLoader();
  const batcher = new ReadBatcher(load);
  await batcher.load('a');
  await batcher.load('a');
  assert.deepEqual(calls, [['a'], ['a']]);
});

test('a full batch is sent at once; the rest waits for the next', async () => {
  const { calls, load } = recordingLoader();
  const batcher = new ReadBatcher(load, 2);
  await Promise.all(['a', 'b', 'c'].map((k) => batcher.load(k)));
  assert.deepEqual(calls, [['a', 'b'], ['c']]);
});

test('a failed query rejects every caller of its batch', async () => {
  const batcher = new ReadBatcher<string, string>(async () => {
    throw new Error('database gone');
  });
  const results = await Promise.allSettled([batcher.load('a'), batcher.load('b')]);
  assert.deepEqual(
    results.map((r) => r.status),
    ['rejected', 'rejected'],
  );
});
