/** Robust summaries for benchmarks that run on a shared, noisy machine. */

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const upper = sorted[mid] as number;
  return sorted.length % 2 ? upper : ((sorted[mid - 1] as number) + upper) / 2;
}

/**
 * Bootstrap interval of the median: the `level` central share of the medians of 2,000
 * resamples (with replacement) of `values`. The generator has a fixed seed, so the same
 * values always give the same interval.
 */
export function medianInterval(values: readonly number[], level = 0.9): [number, number] {
  let seed = 0x2545f491;
  const random = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed / 2 ** 32;
  };
  const resamples = 2000;
  const medians: number[] = [];
  for (let i = 0; i < resamples; i++) {
    medians.push(median(values.map(() => values[Math.floor(random() * values.length)] as number)));
  }
  medians.sort((a, b) => a - b);
  const tail = Math.floor(((1 - level) / 2) * resamples);
  return [medians[tail] as number, medians[resamples - 1 - tail] as number];
}
