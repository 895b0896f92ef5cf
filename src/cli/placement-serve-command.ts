/**
 * `baton placement serve`: runs the Placement API in the foreground until SIGTERM or
 * SIGINT, then drains (service/http/http-drain.ts), lets in-flight requests finish and exits
 * 0, or 1 when `[DEFAULT] graceful_shutdown_timeout` had to cut requests. Settings come
 * from the defaults, then `--config-file`, then the flags; Placement's composition root
 * (placement/service.ts) turns them into a plan and resolves the pin. Bad flags, settings or
 * an unknown pin exit 64; a database that cannot serve (outdated schema, unreachable) or an
 * invalid release mapping exits 1.
 */
import { UnsafeListenError } from '../auth/errors.ts';
import {
  DatabaseConnectionError,
  DatabaseUrlError,
  redactUrl,
  SchemaNotCurrentError,
} from '../db/index.ts';
import type { PlacementConfig } from '../placement/config.ts';
import {
  ConfigFileError,
  PLACEMENT_OPTIONS,
  type PlacementConfigFile,
  splitFileValues,
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
import type { DrainOutcome, DrainSettings } from '../service/http/http-drain.ts';
import {
  HealthState,
  holdReloadSignals,
  isWorkerProcess,
  LogSettingsError,
  leaveCluster,
  type ServiceDefinition,
  ServiceTooOldError,
  superviseWorkers,
  waitForStopSignal,
} from '../service/index.ts';
import type { LogSink } from '../service/logging/service-logger.ts';
import { MetricsListenError } from '../service/metrics/metrics-listener.ts';
import { CliExit, EXIT, usageError } from './cli-error.ts';
import { configFlagValues } from './config-flags.ts';
import { listenPoolMetrics } from './pool-metrics.ts';
import { reloadOnSighup } from './reload-on-sighup.ts';

/**
 * Commander's values: `--config-file`, and one per option of PLACEMENT_OPTIONS under the
 * attribute of its flag (`port`, `db`, `corsAllowedOrigin`, `enforceScope`…).
 */
export interface PlacementServeOptions {
  readonly configFile?: string;
  readonly [flag: string]: string | boolean | readonly string[] | undefined;
}

export interface ServeIo {
  readonly out: (line: string) => void;
  readonly err: (text: string) => void;
  /** Resolves when the process is asked to stop (SIGTERM / SIGINT by default). */
  readonly stopped?: () => Promise<string>;
  /** Where the process's log lines go instead of stderr or the log file (tests). */
  readonly logSink?: LogSink;
}

/** What the flags set: Placement's settings, and the process's own (pin, data dir, workers). */
function flagSettings(options: PlacementServeOptions): PlacementConfigFile {
  return splitFileValues(configFlagValues(PLACEMENT_OPTIONS, options));
}

/** Settings, caps and workers from the flags over the config file, or the one-line exit that says why not. */
export async function planServe(
  options: PlacementServeOptions,
  service: ServiceDefinition,
): Promise<PlacementApiPlan> {
  const flags = flagSettings(options);
  try {
    return await planPlacementApi(
      {
        configFile: options.configFile,
        flags: flags.settings,
        pinReleaseVersion: flags.pinReleaseVersion,
        dataDir: flags.dataDir,
        workers: flags.workers,
      },
      service,
    );
  } catch (error) {
    if (
      error instanceof ConfigFileError ||
      error instanceof UnknownReleaseError ||
      error instanceof DatabaseUrlError ||
      error instanceof UnsafeListenError
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
  const listener = await listenPoolMetrics(config, health, PLACEMENT_API_BINARY, io.out);
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

/** `service` is Placement's definition; a test may hand a broken one to see start refuse it. */
export async function placementServe(
  options: PlacementServeOptions,
  io: ServeIo,
  service: ServiceDefinition = PLACEMENT_SERVICE,
): Promise<number> {
  // Before anything else: a SIGHUP during the start waits for the process to serve instead
  // of ending it.
  holdReloadSignals();
  // Listening for the stop signal before starting: a supervisor may signal as soon as it
  // reads the line below (or during the start, registration included), and must get a clean
  // stop, not a killed process or a row left live.
  const stopping = (io.stopped ?? waitForStopSignal)();
  const stopped = () => stopping;
  // Checked once here (in the primary too), so a mistake is one message and not one per worker.
  const planned = await planServe(options, service);
  if (planned.workers > 1 && !isWorkerProcess()) {
    return superviseWithPoolMetrics(planned.config, planned.workers, io, stopped);
  }
  const server = await start(planned, service, io.logSink);
  const database = redactUrl(planned.config.databaseUrl);
  io.out(
    `placement-api listening on ${server.url} (service version ${PLACEMENT_SERVICE_VERSION}; database ${database})`,
  );
  const stopReload = reloadOnSighup(PLACEMENT_API_BINARY, io, async () =>
    server.reload(await planServe(options, service)),
  );
  const signal = await stopping;
  stopReload();
  io.out(stoppingLine(PLACEMENT_API_BINARY, signal, planned.config));
  const outcome = await server.close();
  io.out(stoppedLine(PLACEMENT_API_BINARY, outcome));
  leaveCluster();
  return outcome.timedOut ? EXIT.failure : EXIT.ok;
}

/** What an API process says when it is asked to stop (both services). */
export function stoppingLine(binary: string, signal: string, settings: DrainSettings): string {
  const bound =
    settings.gracefulShutdownTimeout > 0
      ? `at most ${settings.gracefulShutdownTimeout} s`
      : 'no time limit';
  return `${binary} stopping (${signal}): health check failed for ${settings.drainDelaySeconds} s, then finishing requests in flight (${bound})`;
}

/** What it says when it has stopped: cut requests are an unclean stop. */
export function stoppedLine(binary: string, outcome: DrainOutcome): string {
  return outcome.timedOut
    ? `${binary} stopped: graceful_shutdown_timeout passed, ${outcome.cut} request(s) in flight cut`
    : `${binary} stopped`;
}
