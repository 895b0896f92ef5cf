/**
 * One scrape for a pool of workers (`--workers N`). Each worker keeps its own registry (its
 * series labelled `worker="K"`); a scrape of the API port reaches whichever worker the
 * kernel hands the connection to, so the pool's primary, which serves no requests, can answer
 * for all of them: it asks every worker for its metrics over the cluster's IPC channel and
 * joins the answers (prom-client's AggregatorRegistry: series with the same labels are summed,
 * and the worker label keeps each worker's apart).
 */
import { AggregatorRegistry, type PrometheusContentType, type Registry } from 'prom-client';
import type { Scrape } from './process-metrics.ts';

let aggregator: AggregatorRegistry<PrometheusContentType> | undefined;

/** In a worker: answers the primary's requests with this registry. */
export function shareMetricsWithPrimary(registry: Registry): void {
  aggregator ??= new AggregatorRegistry();
  AggregatorRegistry.setRegistries([registry]);
}

/** In the primary: every live worker's metrics (an empty body when none is running). */
export async function scrapeWorkers(): Promise<Scrape> {
  aggregator ??= new AggregatorRegistry();
  return { contentType: aggregator.contentType, body: await aggregator.clusterMetrics() };
}
