/**
 * The load of a read bench: `clients` loops, each sending its next request as soon as the last
 * one was answered, for `seconds`. Only `send` is timed; `check` (counting or parsing the
 * answer) runs after, outside the latency.
 */
import { percentile } from './placement-http.ts';

export interface ClosedLoopFigures {
  readonly requests: number;
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
}

export async function closedLoop<T>(
  clients: number,
  seconds: number,
  send: () => Promise<T>,
  check: (answer: T) => void,
): Promise<ClosedLoopFigures> {
  const latencies: number[] = [];
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        const answer = await send();
        latencies.push(performance.now() - t0);
        check(answer);
      }
    }),
  );
  const elapsed = performance.now() - started;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    perSecond: (latencies.length * 1000) / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}
