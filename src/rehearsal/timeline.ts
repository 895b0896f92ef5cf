/**
 * The load over time: the rehearsal's requests in buckets of a second (by when each was sent),
 * with the requests, failures and latency percentiles of each, for the HTML report's plots.
 * Pure.
 */
import { percentile, type RequestRecord } from './request-log.ts';

/** One bucket: its start in seconds since the rehearsal's first step began. */
export interface TimelinePoint {
  readonly second: number;
  readonly requests: number;
  readonly failed: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/** Buckets of `bucketMs` from `from` to `to` (ms since the epoch); an empty bucket is zeros. */
export function timeline(
  records: readonly RequestRecord[],
  from: number,
  to: number,
  bucketMs = 1000,
): TimelinePoint[] {
  const count = Math.max(0, Math.ceil((to - from) / bucketMs));
  const latencies: number[][] = Array.from({ length: count }, () => []);
  const failed = new Array<number>(count).fill(0);
  for (const record of records) {
    const index = Math.floor((record.startedAt - from) / bucketMs);
    if (index < 0 || index >= count) continue;
    latencies[index]?.push(record.ms);
    if (!record.ok) failed[index] = (failed[index] ?? 0) + 1;
  }
  return latencies.map((values, index) => {
    const sorted = values.sort((a, b) => a - b);
    return {
      second: (index * bucketMs) / 1000,
      requests: sorted.length,
      failed: failed[index] ?? 0,
      p50Ms: round(percentile(sorted, 50)),
      p99Ms: round(percentile(sorted, 99)),
    };
  });
}
