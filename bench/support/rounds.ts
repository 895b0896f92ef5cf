/**
 * Contenders measured in interleaved rounds: both servers started once and warm, each round
 * short, the order reversed every other round so neither always runs first. A ratio is taken
 * per round (both figures met the same machine load), and each figure is reported as the median
 * of its rounds with their range: one run of minutes against another swings too much to steer by.
 */

/** The median of the round figures and their range (min–max). */
export interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly rounds: number;
}

export function spreadOf(values: readonly number[]): Spread {
  if (values.length === 0)
    return { median: Number.NaN, min: Number.NaN, max: Number.NaN, rounds: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const upper = sorted[mid] as number;
  return {
    median: sorted.length % 2 ? upper : ((sorted[mid - 1] as number) + upper) / 2,
    min: sorted[0] as number,
    max: sorted[sorted.length - 1] as number,
    rounds: sorted.length,
  };
}

/** Half the range as a share of the median: 0.05 means the rounds stayed within ±5 %. */
export function relativeSpread(spread: Spread): number {
  return (spread.max - spread.min) / 2 / Math.abs(spread.median);
}

/** The order of the contenders in round `round` (from 0): reversed in every odd round. */
export function roundOrder(round: number, contenders: number): number[] {
  const order = Array.from({ length: contenders }, (_, i) => i);
  return round % 2 === 0 ? order : order.reverse();
}

/**
 * Runs `measure` for every contender in each of `rounds` rounds, interleaved; the result is
 * indexed [round][contender], in the contenders' order whatever order they ran in.
 */
export async function interleave<C, T>(
  rounds: number,
  contenders: readonly C[],
  measure: (contender: C, round: number) => Promise<T>,
): Promise<T[][]> {
  const results: T[][] = [];
  for (let round = 0; round < rounds; round++) {
    const row: T[] = new Array(contenders.length);
    for (const index of roundOrder(round, contenders.length)) {
      row[index] = await measure(contenders[index] as C, round);
    }
    results.push(row);
  }
  return results;
}

/** One figure over the rounds: each contender's spread and the per-round ratio's. */
export interface RoundsFigure {
  readonly contenders: readonly Spread[];
  /** `ratio(first, second)` of each round, summarised; undefined with one contender. */
  readonly ratio: Spread | undefined;
}

/**
 * Summarises `figure` of round results indexed [round][contender]. `ratio` compares the first
 * contender's figure with the second's in the same round (throughput: a / b; latency: b / a).
 */
export function summarizeRounds<T>(
  results: readonly (readonly T[])[],
  figure: (result: T) => number,
  ratio: (first: number, second: number) => number,
): RoundsFigure {
  const width = results[0]?.length ?? 0;
  const contenders = Array.from({ length: width }, (_, i) =>
    spreadOf(results.map((row) => figure(row[i] as T))),
  );
  const ratios =
    width < 2 ? undefined : results.map((row) => ratio(figure(row[0] as T), figure(row[1] as T)));
  return { contenders, ratio: ratios === undefined ? undefined : spreadOf(ratios) };
}

export const higherIsBetter = (first: number, second: number) => first / second;
export const lowerIsBetter = (first: number, second: number) => second / first;

/** "412.3 (398.1–430.2)": the median and, in brackets, the range of the rounds. */
export function formatSpread(spread: Spread, digits = 1, unit = ''): string {
  const f = (n: number) => n.toFixed(digits);
  return `${f(spread.median)}${unit} (${f(spread.min)}–${f(spread.max)})`;
}
