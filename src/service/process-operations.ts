/**
 * Logs, health and metrics of one service process, assembled from its settings in one call
 * by the service's composition root: the logger, the health state, the metrics registry with
 * the request, RPC, online-migration and deployment metrics, the RPC hooks (observer and
 * logger) to hand the RPC client and server, and, once the database is open, the periodic
 * read of the services table. docs/operations.md shows how a service plugs it in.
 */
import type { Database } from '../db/index.ts';
import type { CapsInForce } from '../releases/index.ts';
import type { RpcCallEvent, RpcLogger, RpcObserver } from '../rpc/index.ts';
import { HealthState } from './healthcheck.ts';
import type { HttpOperations } from './http/fastify-operations.ts';
import { HttpDrain } from './http/http-drain.ts';
import { logSettingsOf } from './logging/log-settings.ts';
import { createServiceLogger, type LogSink, type ServiceLogger } from './logging/service-logger.ts';
import { scrapeWorkers, shareMetricsWithPrimary } from './metrics/cluster-metrics.ts';
import { DeploymentGauges } from './metrics/deployment-gauges.ts';
import { HttpMetrics } from './metrics/http-metrics.ts';
import { type MetricsListener, startMetricsListener } from './metrics/metrics-listener.ts';
import { OnlineMigrationGauges } from './metrics/online-migration-gauges.ts';
import { ProcessMetrics, type Scrape } from './metrics/process-metrics.ts';
import { RpcMetrics } from './metrics/rpc-metrics.ts';
import type { OperationsConfig } from './operations-config.ts';
import type { ServiceDefinition } from './service-definition.ts';
import { type ServicesWatch, watchServices } from './services-watch.ts';
import { isWorkerProcess } from './workers.ts';

/** A process's metrics: the registry and the families the toolkit defines. */
export interface ServiceMetrics {
  readonly process: ProcessMetrics;
  readonly http: HttpMetrics;
  readonly rpc: RpcMetrics;
  readonly onlineMigrations: OnlineMigrationGauges;
  readonly deployment: DeploymentGauges;
  scrape(): Promise<Scrape>;
}

export interface ProcessOperationsOptions {
  readonly service: ServiceDefinition;
  readonly binary: string;
  readonly serviceVersion: number;
  readonly caps: CapsInForce;
  readonly config: OperationsConfig;
  /** Where log lines go instead of stderr or the log file (tests). */
  readonly logSink?: LogSink;
}

export interface ProcessOperations {
  readonly log: ServiceLogger;
  readonly health: HealthState;
  /** Undefined when `[metrics] enabled` is false. */
  readonly metrics: ServiceMetrics | undefined;
  /** For the HTTP app: registerOperations(app, ops.http). */
  readonly http: HttpOperations;
  /** For RpcClient and RpcServer (`observer`) and createTransport (`logger`). */
  readonly rpc: { readonly observer: RpcObserver; readonly logger: RpcLogger };
  /** Reads the services table now and every refresh interval, for the deployment gauges. */
  watchServices(db: Database): Promise<ServicesWatch>;
  /** Opens `[metrics] bind_port` when set (the primary of a pool answers for its workers). */
  listenForMetrics(): Promise<MetricsListener | undefined>;
  /**
   * The stop of the process's HTTP API (`[healthcheck] drain_delay`, `[DEFAULT]
   * graceful_shutdown_timeout`): attach it to the server, `drain.stop(close)` on SIGTERM.
   */
  readonly drain: HttpDrain;
  /** Stops the services watch and the metrics listener and flushes the log. */
  close(): Promise<void>;
}

/** The RPC observer: metrics for every call, a debug line each, refusals as warnings. */
function rpcObserverOf(log: ServiceLogger, metrics: RpcMetrics | undefined): RpcObserver {
  const logger = log.logger;
  return {
    rpcEnded(event: RpcCallEvent) {
      metrics?.rpcEnded(event);
      // A refused request means two releases disagree; a method's own error is its caller's.
      const refused = event.outcome !== 'ok' && event.outcome !== 'error';
      const level = refused && event.outcome !== 'timeout' ? 'warn' : 'debug';
      if (!logger.isLevelEnabled(level)) return;
      logger[level](
        {
          rpc_side: event.side,
          rpc_kind: event.kind,
          topic: event.topic,
          method: event.method,
          version: event.version,
          outcome: event.outcome,
          latency_ms: Math.round(event.seconds * 1e6) / 1000,
          ...(event.errorType === undefined ? {} : { error_type: event.errorType }),
          ...(event.errorMessage === undefined ? {} : { error: event.errorMessage }),
        },
        `RPC ${event.kind} ${event.method} ${event.outcome}`,
      );
    },
  };
}

export function createProcessOperations(options: ProcessOperationsOptions): ProcessOperations {
  const { service, binary, config } = options;
  const log = createServiceLogger(logSettingsOf(config), { binary }, options.logSink);
  const health = new HealthState(config);
  let watch: ServicesWatch | undefined;
  let metrics: ServiceMetrics | undefined;
  if (config.metricsEnabled) {
    const process = new ProcessMetrics(
      {
        service: service.name,
        binary,
        release: service.release,
        serviceVersion: options.serviceVersion,
      },
      {
        onCollectError: (name, error) =>
          log.logger.warn({ err: error, gauge: name }, `metrics: gauge ${name} could not be read`),
      },
    );
    const deployment = new DeploymentGauges(process.registry, () => watch?.current());
    deployment.setCaps(options.caps, service.code);
    metrics = {
      process,
      http: new HttpMetrics(process.registry),
      rpc: new RpcMetrics(process.registry),
      onlineMigrations: new OnlineMigrationGauges(process.registry, service.name),
      deployment,
      scrape: () => process.scrape(),
    };
    if (isWorkerProcess()) shareMetricsWithPrimary(process.registry);
  }
  let listener: MetricsListener | undefined;
  const drain = new HttpDrain(config, health, log.logger);
  return {
    log,
    health,
    metrics,
    drain,
    http: {
      logger: log.logger,
      health,
      metrics,
      drain,
      connections: {
        requestReceiveTimeout: config.requestReceiveTimeout,
        clientSocketTimeout: config.clientSocketTimeout,
        maxClientConnections: config.maxClientConnections,
      },
    },
    rpc: {
      observer: rpcObserverOf(log, metrics?.rpc),
      logger: log.logger.child({ component: 'rpc' }),
    },
    async watchServices(db) {
      await watch?.stop();
      watch = await watchServices(db, {
        binaries: service.binaries,
        intervalSeconds: config.metricsRefreshSeconds,
        onError: (error) =>
          log.logger.warn({ err: error }, 'could not read the services table for the metrics'),
      });
      return watch;
    },
    async listenForMetrics() {
      if (metrics === undefined || config.metricsPort === undefined || isWorkerProcess()) {
        return undefined;
      }
      listener = await startMetricsListener({
        host: config.metricsHost,
        port: config.metricsPort,
        scrape: metrics.scrape,
        health,
        onError: (error) => log.logger.error({ err: error }, 'metrics scrape failed'),
      });
      return listener;
    },
    async close() {
      await watch?.stop();
      await listener?.close();
      log.flush();
    },
  };
}

/**
 * The primary of a worker pool (`--workers N`) serves no requests and opens no database: with
 * `[metrics] bind_port` set, it answers for the whole pool on that port (each worker's series
 * labelled `worker="K"`), and its health check follows its own state.
 */
export async function listenForPoolMetrics(
  config: Pick<OperationsConfig, 'metricsEnabled' | 'metricsHost' | 'metricsPort'>,
  health: HealthState,
): Promise<MetricsListener | undefined> {
  if (!config.metricsEnabled || config.metricsPort === undefined) return undefined;
  return startMetricsListener({
    host: config.metricsHost,
    port: config.metricsPort,
    scrape: scrapeWorkers,
    health,
  });
}
