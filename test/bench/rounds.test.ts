import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  formatSpread,
  higherIsBetter,
  interleave,
  lowerIsBetter,
  relativeSpread,
  roundOrder,
  spreadOf,
  summarizeRounds,
} from '../../bench/support/rounds.ts';

describe('bench rounds', () => {
  it('summarises values as median and min–max', () => {
    assert.deepEqual(spreadOf([5, 1, 3]), { median: 3, min: 1, max: 5, rounds: 3 });
    assert.deepEqual(spreadOf([4, 1, 3, 2]), { median: 2.5, min: 1, max: 4, rounds: 4 });
    assert.ok(Number.isNaN(spreadOf([]).median));
    assert.equal(relativeSpread(spreadOf([90, 100, 110])), 0.1);
  });

  it('reverses the order every other round', () => {
    assert.deepEqual(roundOrder(0, 3), [0, 1, 2]);
    assert.deepEqual(roundOrder(1, 3), [2, 1, 0]);
  });

  it('runs contenders interleaved and returns results in their order', async () => {
    const ran: string[] = [];
    const results = await interleave(3, ['a', 'b'], async (name, round) => {
      ran.push(`${name}${round}`);
      return `${name}${round}`;
    });
    assert.deepEqual(ran, ['a0', 'b0', 'b1', 'a1', 'a2', 'b2']);
    assert.deepEqual(results, [
      ['a0', 'b0'],
      ['a1', 'b1'],
      ['a2', 'b2'],
    ]);
  });

  it('takes the ratio within each round, not of the medians', () => {
    // The machine slows down in round 2: both contenders' figures halve, the ratio holds.
    const rounds = [
      [{ perSecond: 400 }, { perSecond: 40 }],
      [{ perSecond: 200 }, { perSecond: 20 }],
      [{ perSecond: 330 }, { perSecond: 30 }],
    ];
    const summary = summarizeRounds(rounds, (r) => r.perSecond, higherIsBetter);
    assert.equal(summary.contenders[0]?.median, 330);
    assert.equal(summary.contenders[1]?.median, 30);
    assert.deepEqual(summary.ratio, { median: 10, min: 10, max: 11, rounds: 3 });
    const latency = summarizeRounds([[{ p50: 2 }, { p50: 10 }]], (r) => r.p50, lowerIsBetter);
    assert.equal(latency.ratio?.median, 5);
    assert.equal(summarizeRounds([[{ p50: 2 }]], (r) => r.p50, lowerIsBetter).ratio, undefined);
  });

  it('formats a spread with the median first', () => {
    assert.equal(formatSpread(spreadOf([1, 2.25, 3]), 1, ' ms'), '2.3 ms (1.0–3.0)');
  });
});
