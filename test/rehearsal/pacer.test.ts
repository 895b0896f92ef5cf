/** The pacer keeps callers 1/rate apart, and an infinite rate lets them all go at once. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Pacer } from '../../src/rehearsal/pacer.ts';

async function timeSlots(pacer: Pacer, callers: number): Promise<number> {
  const started = performance.now();
  await Promise.all(Array.from({ length: callers }, () => pacer.slot()));
  return performance.now() - started;
}

it('spaces slots 1/rate apart, all callers together; unpaced, none waits; paced again after', async () => {
  const pacer = new Pacer(100);
  // 11 slots 10 ms apart: the last one 100 ms after the first.
  const paced = await timeSlots(pacer, 11);
  assert.ok(paced >= 95 && paced < 400, `11 slots at 100/s took ${paced} ms`);
  pacer.setRate(Number.POSITIVE_INFINITY);
  const unpaced = await timeSlots(pacer, 1000);
  assert.ok(unpaced < 50, `1,000 slots unpaced took ${unpaced} ms`);
  pacer.setRate(50);
  const again = await timeSlots(pacer, 6);
  assert.ok(again >= 95 && again < 400, `6 slots at 50/s took ${again} ms`);
});
