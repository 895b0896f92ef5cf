/**
 * What an API process counts of its requests: by route pattern (never the raw path, whose
 * UUIDs would make a series per resource), method, status and microversion, with a latency
 * histogram; and its 409s by the error code the body carried (`placement.concurrent_update`,
 * …), which is how an operator sees generation conflicts rise during an upgrade.
 */
import { Counter, Histogram, type Registry } from 'prom-client';

/** Seconds; Placement answers most requests in a few milliseconds. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface HttpRequestSample {
  readonly method: string;
  /** The route pattern as declared (`/resource_providers/{uuid}`), or `unmatched`. */
  readonly route: string;
  readonly status: number;
  /** The version the request was answered at, or `none` (refused before one was agreed). */
  readonly microversion: string;
  readonly seconds: number;
  /** The error code of a 409 (its body's `code`). */
  readonly errorCode?: string | undefined;
}

type RequestLabels = 'method' | 'route' | 'status' | 'microversion';

export class HttpMetrics {
  readonly #requests: Counter<RequestLabels>;
  readonly #latency: Histogram<RequestLabels>;
  readonly #conflicts: Counter<'route' | 'code'>;

  constructor(registry: Registry) {
    const registers = [registry];
    const labelNames = ['method', 'route', 'status', 'microversion'] as const;
    this.#requests = new Counter({
      name: 'baton_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern, status and microversion.',
      labelNames,
      registers,
    });
    this.#latency = new Histogram({
      name: 'baton_http_request_duration_seconds',
      help: 'Time from a request arriving to its answer being sent.',
      labelNames,
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.#conflicts = new Counter({
      name: 'baton_http_conflicts_total',
      help: '409 Conflict answers by route pattern and error code (placement.concurrent_update, ...).',
      labelNames: ['route', 'code'],
      registers,
    });
  }

  record(sample: HttpRequestSample): void {
    const labels = {
      method: sample.method,
      route: sample.route,
      status: String(sample.status),
      microversion: sample.microversion,
    };
    this.#requests.inc(labels);
    this.#latency.observe(labels, sample.seconds);
    if (sample.status === 409) {
      this.#conflicts.inc({ route: sample.route, code: sample.errorCode ?? 'unknown' });
    }
  }
}
