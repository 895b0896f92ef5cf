/**
 * The Prometheus registry of one service process (prom-client): Node's own process metrics
 * (CPU, memory, event loop lag, with prom-client's names), `baton_process_info` naming the
 * service, binary, release and service version, and the hook through which a service adds
 * gauges of its own, read when scraped (the bare metal conductor's nodes by provision state).
 * In a pool of workers every series carries `worker="K"`, so the primary can serve the whole
 * pool in one scrape without mixing the workers' counts (cluster-metrics.ts).
 */
import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { workerNumber } from '../workers.ts';

export interface ProcessIdentity {
  readonly service: string;
  readonly binary: string;
  /** The release this code is (`ServiceDefinition.release`). */
  readonly release: string;
  /** The service version it registers in the services table. */
  readonly serviceVersion: number;
  /** Worker K of a pool; default: this process's number when it is a cluster worker. */
  readonly worker?: number | undefined;
}

/** One sample of a collected gauge. */
export interface GaugeSample<L extends string> {
  readonly labels: Readonly<Record<L, string>>;
  readonly value: number;
}

/** A gauge whose samples are read at each scrape (a count in the database, a queue's depth). */
export interface CollectedGauge<L extends string> {
  /** A Prometheus name, `baton_` + the service's prefix by convention (`baton_baremetal_nodes`). */
  readonly name: string;
  readonly help: string;
  readonly labelNames: readonly L[];
  collect(): Promise<Iterable<GaugeSample<L>>> | Iterable<GaugeSample<L>>;
}

export interface Scrape {
  readonly contentType: string;
  readonly body: string;
}

export class ProcessMetrics {
  readonly registry = new Registry();
  readonly identity: ProcessIdentity;
  readonly #collectFailures: Counter<'gauge'>;
  readonly #onCollectError: (name: string, error: unknown) => void;

  constructor(
    identity: ProcessIdentity,
    options: {
      /** Node's process metrics (default true). */
      readonly processMetrics?: boolean;
      /** Told when a collected gauge fails; the scrape goes on without it. */
      readonly onCollectError?: (name: string, error: unknown) => void;
    } = {},
  ) {
    this.identity = identity;
    this.#onCollectError = options.onCollectError ?? (() => {});
    const worker = identity.worker ?? workerNumber();
    if (worker !== undefined) this.registry.setDefaultLabels({ worker: String(worker) });
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: 'baton_process_info',
      help: 'This process: its service, binary, release and service version (always 1).',
      labelNames: ['service', 'binary', 'release', 'service_version'],
      registers: [this.registry],
    }).set(
      {
        service: identity.service,
        binary: identity.binary,
        release: identity.release,
        service_version: String(identity.serviceVersion),
      },
      1,
    );
    this.#collectFailures = new Counter({
      name: 'baton_metrics_collect_failures_total',
      // Read while the gauges are collected: a failure may show only from the next scrape.
      help: 'Scrapes in which a collected gauge could not be read (it was left out).',
      labelNames: ['gauge'],
      registers: [this.registry],
    });
  }

  /**
   * Adds a gauge read at each scrape; when its source fails the scrape goes on without its
   * samples (NaN for a gauge without labels), and the failure is counted.
   */
  addCollectedGauge<L extends string>(definition: CollectedGauge<L>): void {
    const failures = this.#collectFailures;
    const onError = this.#onCollectError;
    new Gauge<L>({
      name: definition.name,
      help: definition.help,
      labelNames: [...definition.labelNames],
      registers: [this.registry],
      async collect() {
        this.reset();
        try {
          for (const sample of await definition.collect()) {
            this.set(sample.labels as Partial<Record<L, string>>, sample.value);
          }
        } catch (error) {
          this.reset();
          // A gauge without labels cannot be left out (it reads 0): NaN says "unknown".
          if (definition.labelNames.length === 0) this.set(Number.NaN);
          failures.inc({ gauge: definition.name });
          onError(definition.name, error);
        }
      },
    });
  }

  /** The text exposition format (version 0.0.4), as Prometheus scrapes it. */
  async scrape(): Promise<Scrape> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
