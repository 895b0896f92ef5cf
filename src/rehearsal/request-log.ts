/**
 * Every request the load generator sent and how it ended, and the figures of a time window:
 * requests served and failed, latency percentiles, requests per second. Pure.
 */

/**
 * What the request was for, in the load profile's words (`node-create`, `lease-create` …): the
 * report counts requests by kind.
 */
export type RequestKind = string;

/** One request of the load and how it ended. */
export interface RequestRecord {
  readonly kind: RequestKind;
  readonly method: string;
  readonly path: string;
  /** Milliseconds since the epoch when it was sent. */
  readonly startedAt: number;
  readonly ms: number;
  /** The HTTP status, or 0 when no answer came (connection refused or reset, timeout). */
  readonly status: number;
  readonly ok: boolean;
  /** Why it failed: the answer's body or the error. */
  readonly detail?: string;
}

/** A failure that is not one request: a node that did not reach the state it was sent to. */
export interface OutcomeFailure {
  readonly at: number;
  readonly what: string;
}

/** Every request of a rehearsal's load, and every failed outcome: what the report counts. */
export class RequestLog {
  readonly records: RequestRecord[] = [];
  readonly outcomeFailures: OutcomeFailure[] = [];

  /** Records a request of the load, answered or not. */
  add(record: RequestRecord): void {
    this.records.push(record);
  }

  /** Records a failure that is no one request: an answer that contradicts what was acknowledged. */
  failOutcome(what: string, at: number = Date.now()): void {
    this.outcomeFailures.push({ at, what });
  }
}

/** The load's figures over a window: requests, failures, rate and latencies. */
export interface WindowFigures {
  readonly requests: number;
  readonly served: number;
  readonly failed: number;
  readonly outcomeFailures: number;
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly byKind: Readonly<Partial<Record<RequestKind, number>>>;
}

/** The nearest-rank percentile of sorted values; 0 for none. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

/** The figures of the requests sent in [from, to). */
export function windowFigures(log: RequestLog, from: number, to: number): WindowFigures {
  const inside = log.records.filter((r) => r.startedAt >= from && r.startedAt < to);
  const latencies = inside.map((r) => r.ms).sort((a, b) => a - b);
  const byKind: Partial<Record<RequestKind, number>> = {};
  for (const record of inside) byKind[record.kind] = (byKind[record.kind] ?? 0) + 1;
  const failed = inside.filter((r) => !r.ok).length;
  const seconds = Math.max(0.001, (to - from) / 1000);
  return {
    requests: inside.length,
    served: inside.length - failed,
    failed,
    outcomeFailures: log.outcomeFailures.filter((f) => f.at >= from && f.at < to).length,
    perSecond: Math.round((inside.length / seconds) * 10) / 10,
    p50Ms: Math.round(percentile(latencies, 50) * 10) / 10,
    p99Ms: Math.round(percentile(latencies, 99) * 10) / 10,
    maxMs: Math.round((latencies.at(-1) ?? 0) * 10) / 10,
    byKind,
  };
}
