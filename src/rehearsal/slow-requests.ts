/**
 * The slowest requests of a step and what they waited for: the events of the cluster they
 * overlapped (a process starting or stopping, HAProxy taking a server in, a database command),
 * and how many of the load's requests were in flight when each was sent (many: it queued
 * behind them on a busy machine; few and no event: the cluster itself was slow). Pure.
 */
import type { ClusterEvent } from './cluster-events.ts';
import type { RequestRecord } from './request-log.ts';

/** A slow request, and what the cluster was doing meanwhile. */
export interface SlowRequest {
  readonly kind: string;
  readonly method: string;
  readonly path: string;
  readonly startedAt: number;
  readonly ms: number;
  readonly status: number;
  /** The events it overlapped, by name: empty when nothing happened to the cluster meanwhile. */
  readonly during: readonly string[];
  /** The load's other requests in flight when it was sent. */
  readonly inFlight: number;
}

/** The `count` slowest requests sent in [from, to), slowest first, each with its events. */
export function slowestRequests(
  records: readonly RequestRecord[],
  events: readonly ClusterEvent[],
  from: number,
  to: number,
  count = 5,
): SlowRequest[] {
  const inside = records.filter((r) => r.startedAt >= from && r.startedAt < to);
  const slowest = [...inside].sort((a, b) => b.ms - a.ms).slice(0, count);
  return slowest.map((record) => {
    const end = record.startedAt + record.ms;
    const during = events
      .filter((event) => event.from <= end && event.to >= record.startedAt)
      .map((event) => event.what);
    const inFlight = records.filter(
      (other) =>
        other !== record &&
        other.startedAt <= record.startedAt &&
        other.startedAt + other.ms > record.startedAt,
    ).length;
    return {
      kind: record.kind,
      method: record.method,
      path: record.path,
      startedAt: record.startedAt,
      ms: Math.round(record.ms * 10) / 10,
      status: record.status,
      during,
      inFlight,
    };
  });
}
