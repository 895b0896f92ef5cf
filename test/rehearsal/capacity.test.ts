/** The capacity lines: each measurement, the target against it, each step as a share of it. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { capacityLines } from '../../src/rehearsal/capacity.ts';
import type { WindowFigures } from '../../src/rehearsal/request-log.ts';

const figures = (perSecond: number, failed = 0): WindowFigures => ({
  requests: perSecond * 10,
  served: perSecond * 10 - failed,
  failed,
  outcomeFailures: 0,
  perSecond,
  p50Ms: 12,
  p99Ms: 80,
  maxMs: 120,
  byKind: {},
});

it('says what each cluster served unpaced, and reads the target and each step against it', () => {
  const lines = capacityLines(
    {
      workers: 16,
      seconds: 10,
      previous: { release: 'zed', figures: figures(400), cpu: { machine: 196 } },
      new: { release: 'new', figures: figures(500, 2) },
    },
    500,
    [
      { id: '0', figures: figures(300) },
      { id: '3.1', figures: figures(480) },
    ],
    2,
  );
  assert.deepEqual(lines, [
    'Capacity (the load unpaced for 10 s, 16 workers): zed 400 req/s (p50 12 ms, p99 80 ms, the machine 98 % busy); the new release 500 req/s (p50 12 ms, p99 80 ms, 2 failed)',
    "  the target, 500 req/s, is 125 % of zed's and 100 % of the new release's",
    "  step 0: 300 req/s, 75 % of zed's, 60 % of the new release's",
    "  step 3.1: 480 req/s, 120 % of zed's, 96 % of the new release's",
  ]);
});

it('says nothing without --find-capacity', () => {
  assert.deepEqual(capacityLines(undefined, 60, [], 2), []);
});
