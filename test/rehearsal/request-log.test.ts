/** The load's figures per window: served, failed, percentiles, rate. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { percentile, RequestLog, windowFigures } from '../../src/rehearsal/request-log.ts';

const record = (startedAt: number, ms: number, ok = true) => ({
  kind: 'show' as const,
  method: 'GET',
  path: '/v1/nodes/x',
  startedAt,
  ms,
  status: ok ? 200 : 503,
  ok,
});

describe('request log', () => {
  it('takes nearest-rank percentiles', () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    assert.equal(percentile(values, 50), 50);
    assert.equal(percentile(values, 99), 99);
    assert.equal(percentile([7], 99), 7);
    assert.equal(percentile([], 50), 0);
  });

  it('counts only the requests sent inside the window, failures and outcomes apart', () => {
    const log = new RequestLog();
    log.add(record(999, 1));
    for (let i = 0; i < 10; i++) log.add(record(1000 + i * 100, i + 1, i !== 3));
    log.add(record(2000, 1));
    log.failOutcome('node x did not reach active', 1500);
    log.failOutcome('outside', 5000);
    const figures = windowFigures(log, 1000, 2000);
    assert.equal(figures.requests, 10);
    assert.equal(figures.failed, 1);
    assert.equal(figures.served, 9);
    assert.equal(figures.outcomeFailures, 1);
    assert.equal(figures.perSecond, 10);
    assert.equal(figures.p50Ms, 5);
    assert.equal(figures.p99Ms, 10);
    assert.deepEqual(figures.byKind, { show: 10 });
  });
});
