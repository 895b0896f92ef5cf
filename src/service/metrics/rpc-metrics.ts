/**
 * RPC traffic as metrics: the observer a service hands its RPC clients and servers
 * (src/rpc knows only the RpcObserver interface) counts every call and cast by side, kind,
 * topic, method, version and outcome, and times them. During a rolling upgrade this shows
 * the version mix on the wire, and refusals (`unsupported_version`, `capped`) as they happen.
 */
import { Counter, Histogram, type Registry } from 'prom-client';
import type { RpcCallEvent, RpcObserver } from '../../rpc/index.ts';

const LATENCY_BUCKETS = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
];

type Labels = 'side' | 'kind' | 'topic' | 'method' | 'version' | 'outcome';

export class RpcMetrics implements RpcObserver {
  readonly #requests: Counter<Labels>;
  readonly #latency: Histogram<Labels>;

  constructor(registry: Registry) {
    const labelNames = ['side', 'kind', 'topic', 'method', 'version', 'outcome'] as const;
    this.#requests = new Counter({
      name: 'baton_rpc_requests_total',
      help: 'RPC calls and casts ended, sent (side=client) or handled (side=server), by outcome.',
      labelNames,
      registers: [registry],
    });
    this.#latency = new Histogram({
      name: 'baton_rpc_request_duration_seconds',
      help: 'Time from sending (client) or receiving (server) an RPC request to its end.',
      labelNames,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    });
  }

  rpcEnded(event: RpcCallEvent): void {
    const labels = {
      side: event.side,
      kind: event.kind,
      topic: event.topic,
      method: event.method,
      version: event.version,
      outcome: event.outcome,
    };
    this.#requests.inc(labels);
    this.#latency.observe(labels, event.seconds);
  }
}
