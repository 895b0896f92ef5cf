/**
 * `[fake] *_delay`: how long a fake interface's operations take, as the real fake interfaces
 * sleep (a fixed `n` seconds or a range `a,b`), for tests that need work in flight.
 */

export type DelayRange = readonly [number, number];

export interface FakeDelays {
  readonly power: DelayRange;
  readonly boot: DelayRange;
  readonly deploy: DelayRange;
  readonly management: DelayRange;
  readonly inspect: DelayRange;
  readonly rescue: DelayRange;
  readonly bios: DelayRange;
  readonly raid: DelayRange;
  readonly storage: DelayRange;
  readonly vendor: DelayRange;
}

const NO_DELAY = [0, 0] as const;

export const FAKE_NO_DELAYS: FakeDelays = {
  power: NO_DELAY,
  boot: NO_DELAY,
  deploy: NO_DELAY,
  management: NO_DELAY,
  inspect: NO_DELAY,
  rescue: NO_DELAY,
  bios: NO_DELAY,
  raid: NO_DELAY,
  storage: NO_DELAY,
  vendor: NO_DELAY,
};

/** Seconds a fake operation sleeps for a range (triangular, mode at the low end, as the real). */
export function delaySeconds([low, high]: DelayRange, random = Math.random): number {
  if (low === 0 && high === 0) return 0;
  if (low === high) return low;
  return low + (high - low) * (1 - Math.sqrt(1 - random()));
}

export function fakeSleep(range: DelayRange): Promise<void> {
  const seconds = delaySeconds(range);
  if (seconds <= 0) return Promise.resolve();
  return new Promise((resolve) => setTimeout(resolve, seconds * 1000));
}
