/**
 * `baton placement serve`: runs the Placement API in the foreground until SIGTERM or
 * SIGINT, then stops accepting, lets in-flight requests finish and exits 0. Settings come
 * from the defaults, then `--config-file`, then the flags; Placement's composition root
 * (placement/service.ts) turns them into a plan and resolves the pin. Bad flags, settings or
 * an unknown pin exit 64; a database that cannot serve (outdated schema, unreachable) or an
 * invalid release mapping exits 1.
 */
import { resolve } from 'node:path';
import { DatabaseConnectionError, DatabaseUrlError, SchemaNotCurrentError } from '../db/index.ts';
import type { PlacementConfig } from '../placement/config.ts';
import {
  AUTH_STRATEGIES,
  ConfigFileError,
  type ConfigLayer,
  normalizeDatabaseUrl,
  toList,
} from '../placement/config-file.ts';
import { PolicyFileError } from '../placement/policy/index.ts';
import type { PlacementServer } from '../placement/server.ts';
import {
  PLACEMENT_SERVICE,
  type PlacementApiPlan,
  planPlacementApi,
  startPlacementApi,
} from '../placement/service.ts';
import { PLACEMENT_API_BINARY, PLACEMENT_SERVICE_VERSION } from '../placement/service-version.ts';
import { InvalidReleaseMappingError, UnknownReleaseError } from '../releases/index.ts';
import {
  HealthState,
  isWorkerProcess,
  LogSettingsError,
  leaveCluster,
  parseLogFormat,
  parseLogLevel,
  type ServiceDefinition,
  ServiceTooOldError,
  superviseWorkers,
  waitForStopSignal,
} from '../service/index.ts';
import type { LogSink } from '../service/logging/service-logger.ts';
import { MetricsListenError, type MetricsListener } from '../service/metrics/metrics-listener.ts';
import { CliExit, EXIT, usageError } from './cli-error.ts';
import { defaultDbUrl } from './data-dir.ts';

export interface PlacementServeOptions {
  readonly configFile?: string;
  readonly host?: string;
  readonly port?: string;
  readonly db?: string;
  readonly authStrategy?: string;
  readonly enforceScope?: boolean;
  readonly enforceNewDefaults?: boolean;
  readonly policyFile?: string;
  readonly corsAllowedOrigin?: readonly string[];
  readonly corsAllowHeaders?: string;
  readonly pinReleaseVersion?: string;
  /** Server processes sharing the port (default 1: this process serves). */
  readonly workers?: string;
  readonly debug?: boolean;
  readonly logLevel?: string;
  readonly logFormat?: string;
  readonly logFile?: string;
  readonly metricsPort?: string;
  readonly drainDelay?: string;
}

export interface ServeIo {
  readonly out: (line: string) => void;
  readonly err: (text: string) => void;
  /** Resolves when the process is asked to stop (SIGTERM / SIGINT by default). */
  readonly stopped?: () => Promise<string>;
  /** Where the process's log lines go instead of stderr or the log file (tests). */
  readonly logSink?: LogSink;
}

/**
 * The primary of a pool serves nothing itself; with `[metrics] bind_port` (`--metrics-port`)
 * it answers one scrape for all its workers, and its health check turns to DRAINING when it
 * is asked to stop.
 */
async function superviseWithPoolMetrics(
  config: PlacementConfig,
  workers: number,
  io: ServeIo,
  stopped: () => Promise<string>,
): Promise<number> {
  const health = new HealthState(config);
  let listener: MetricsListener | undefined;
  if (config.metricsEnabled && config.metricsPort !== undefined) {
    const { listenForPoolMetrics } = await import('../service/process-operations.ts');
    try {
      listener = await listenForPoolMetrics(config, health);
    } catch (error) {
      if (error instanceof MetricsListenError) throw new CliExit(error.message, EXIT.failure);
      throw error;
    }
    if (listener !== undefined)
      io.out(`${PLACEMENT_API_BINARY} pool metrics on ${listener.url}/metrics`);
  }
  try {
    const clean = await superviseWorkers(PLACEMENT_API_BINARY, workers, io, async () => {
      const signal = await stopped();
      health.startDraining();
      return signal;
    });
    return clean ? EXIT.ok : EXIT.failure;
  } finally {
    await listener?.close();
  }
}

function flagLayer(options: PlacementServeOptions): ConfigLayer {
  const layer: ConfigLayer = {};
  if (options.host !== undefined) layer.host = options.host;
  if (options.port !== undefined) {
    const port = Number(options.port);
    if (!/^\d+$/.test(options.port) || port > 65535) {
      throw usageError(`--port must be an integer from 0 to 65535, not '${options.port}'`);
    }
    layer.port = port;
  }
  if (options.db !== undefined) layer.databaseUrl = normalizeDatabaseUrl(options.db);
  if (options.authStrategy !== undefined) {
    if (options.authStrategy !== 'noauth2') {
      throw usageError(
        `--auth-strategy '${options.authStrategy}' is not supported; only ${AUTH_STRATEGIES.join(', ')} is implemented`,
      );
    }
    layer.authStrategy = options.authStrategy;
  }
  if (options.enforceScope) layer.enforceScope = true;
  if (options.enforceNewDefaults) layer.enforceNewDefaults = true;
  if (options.policyFile !== undefined) layer.policyFile = options.policyFile;
  if (options.corsAllowedOrigin !== undefined) layer.corsAllowedOrigins = options.corsAllowedOrigin;
  if (options.corsAllowHeaders !== undefined) {
    layer.corsAllowHeaders = toList(options.corsAllowHeaders);
  }
  Object.assign(layer, operationsFlagLayer(options));
  return layer;
}

/** The logging, health and metrics flags; each wins over its config file option. */
function operationsFlagLayer(options: PlacementServeOptions): ConfigLayer {
  const layer: ConfigLayer = {};
  try {
    if (options.debug) layer.debug = true;
    if (options.logLevel !== undefined) layer.logLevel = parseLogLevel(options.logLevel);
    if (options.logFormat !== undefined) {
      layer.useJson = parseLogFormat(options.logFormat) === 'json';
    }
  } catch (error) {
    if (error instanceof LogSettingsError) throw usageError(error.message);
    throw error;
  }
  // A relative --log-file is the working directory's, not under the file's log_dir.
  if (options.logFile !== undefined) layer.logFile = resolve(options.logFile);
  if (options.metricsPort !== undefined) {
    layer.metricsPort = integerFlag('--metrics-port', options.metricsPort, 65535);
  }
  if (options.drainDelay !== undefined) {
    layer.drainDelaySeconds = integerFlag('--drain-delay', options.drainDelay, 3600);
  }
  return layer;
}

function integerFlag(flag: string, value: string, max: number): number {
  const number = Number(value);
  if (!/^\d+$/.test(value) || number > max) {
    throw usageError(`${flag} must be an integer from 0 to ${max}, not '${value}'`);
  }
  return number;
}

/** Settings and caps, or the one-line exit that says why not. */
async function plan(
  options: PlacementServeOptions,
  service: ServiceDefinition,
): Promise<PlacementApiPlan> {
  try {
    return await planPlacementApi(
      {
        configFile: options.configFile,
        flags: flagLayer(options),
        pinReleaseVersion: options.pinReleaseVersion,
        defaultDatabaseUrl: defaultDbUrl(),
      },
      service,
    );
  } catch (error) {
    if (
      error instanceof ConfigFileError ||
      error instanceof UnknownReleaseError ||
      error instanceof DatabaseUrlError
    ) {
      throw usageError(error.message);
    }
    // The code's own mapping is wrong: not the operator's input, and nothing may start.
    if (error instanceof InvalidReleaseMappingError) throw new CliExit(error.message, EXIT.failure);
    throw error;
  }
}

async function start(
  planned: PlacementApiPlan,
  service: ServiceDefinition,
  logSink: LogSink | undefined,
): Promise<PlacementServer> {
  const { config } = planned;
  try {
    // Warnings (an older peer, a failed heartbeat) go to the process's log.
    return await startPlacementApi(planned, logSink === undefined ? {} : { logSink }, service);
  } catch (error) {
    if (error instanceof PolicyFileError || error instanceof LogSettingsError) {
      throw usageError(error.message);
    }
    if (error instanceof MetricsListenError) throw new CliExit(error.message, EXIT.failure);
    if (
      error instanceof SchemaNotCurrentError ||
      error instanceof DatabaseConnectionError ||
      error instanceof ServiceTooOldError
    ) {
      throw new CliExit(error.message, EXIT.failure);
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      throw new CliExit(`cannot listen on ${config.host}:${config.port}: ${code}`, EXIT.failure);
    }
    throw error;
  }
}

function workerCount(value: string | undefined): number {
  if (value === undefined) return 1;
  const count = Number(value);
  if (!/^\d+$/.test(value) || count < 1 || count > 64) {
    throw usageError(`--workers must be an integer from 1 to 64, not '${value}'`);
  }
  return count;
}

/** `service` is Placement's definition; a test may hand a broken one to see start refuse it. */
export async function placementServe(
  options: PlacementServeOptions,
  io: ServeIo,
  service: ServiceDefinition = PLACEMENT_SERVICE,
): Promise<number> {
  const workers = workerCount(options.workers);
  const stopped = io.stopped ?? waitForStopSignal;
  if (workers > 1 && !isWorkerProcess()) {
    // Check the settings once here, so a mistake is one message and not one per worker.
    const { config } = await plan(options, service);
    return superviseWithPoolMetrics(config, workers, io, stopped);
  }
  const server = await start(await plan(options, service), service, io.logSink);
  io.out(`placement-api listening on ${server.url} (service version ${PLACEMENT_SERVICE_VERSION})`);
  const signal = await stopped();
  io.out(`placement-api stopping (${signal}): finishing requests in flight`);
  await server.close();
  io.out('placement-api stopped');
  leaveCluster();
  return EXIT.ok;
}
