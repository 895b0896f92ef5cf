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
import { DatabaseUrlError, redactUrl } from '../db/index.ts';
import {
  ConfigFileError,
  PLACEMENT_OPTIONS,
  type PlacementConfigFile,
  splitFileValues,
} from '../placement/config-file.ts';
import {
  PLACEMENT_SERVICE,
  type PlacementApiPlan,
  type PlacementServer,
  planPlacementApi,
  startPlacementApi,
} from '../placement/service.ts';
import { PLACEMENT_API_BINARY, PLACEMENT_SERVICE_VERSION } from '../placement/service-version.ts';
import { InvalidReleaseMappingError, UnknownReleaseError } from '../releases/index.ts';
import type { DrainOutcome, DrainSettings } from '../service/http/http-drain.ts';
import type { ServiceDefinition } from '../service/index.ts';
import { CliExit, EXIT, usageError } from './cli-error.ts';
import { type ConfigFlags, commandConfigFiles } from './config-files.ts';
import { configFlagValues } from './config-flags.ts';
import { runInForeground, type ServeIo } from './serve-foreground.ts';

/**
 * Commander's values: `--config-file`, and one per option of PLACEMENT_OPTIONS under the
 * attribute of its flag (`port`, `db`, `corsAllowedOrigin`, `enforceScope`…).
 */
export interface PlacementServeOptions extends ConfigFlags {
  readonly [flag: string]: string | boolean | readonly string[] | undefined;
}

export type { ServeIo } from './serve-foreground.ts';

/** What the flags set: Placement's settings, and the process's own (pin, data dir, workers). */
function flagSettings(options: PlacementServeOptions): PlacementConfigFile {
  return splitFileValues(configFlagValues(PLACEMENT_OPTIONS, options));
}

/** Settings, caps and workers from the flags over the config file, or the one-line exit that says why not. */
export async function planServe(
  options: PlacementServeOptions,
  service: ServiceDefinition,
  warn: (message: string) => void = () => {},
): Promise<PlacementApiPlan> {
  const flags = flagSettings(options);
  const found = await commandConfigFiles(
    service.configProject,
    PLACEMENT_API_BINARY,
    options,
    warn,
  );
  try {
    return await planPlacementApi(
      {
        configFiles: found.files,
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

/** `service` is Placement's definition; a test may hand a broken one to see start refuse it. */
export function placementServe(
  options: PlacementServeOptions,
  io: ServeIo,
  service: ServiceDefinition = PLACEMENT_SERVICE,
): Promise<number> {
  // The config files' unknown settings, as the last plan found them (said once, at start).
  let unknown: string[] = [];
  return runInForeground<PlacementApiPlan, PlacementServer>(
    {
      binary: PLACEMENT_API_BINARY,
      plan: () => {
        unknown = [];
        return planServe(options, service, (message) => unknown.push(message));
      },
      warnings: () => unknown,
      pool: (planned) => ({ workers: planned.workers, operations: planned.config }),
      listensOn: ({ config }) => `${config.host}:${config.port}`,
      start: (planned, logSink) =>
        startPlacementApi(planned, logSink === undefined ? {} : { logSink }, service),
      servingLine: (server, planned) =>
        `placement-api listening on ${server.url} (service version ${PLACEMENT_SERVICE_VERSION}; database ${redactUrl(planned.config.databaseUrl)})`,
      reload: (server, next) => server.reload(next),
      stoppingLine: (signal, planned) => stoppingLine(PLACEMENT_API_BINARY, signal, planned.config),
      stop: async (server) => {
        const outcome = await server.close();
        return {
          line: stoppedLine(PLACEMENT_API_BINARY, outcome),
          status: outcome.timedOut ? EXIT.failure : EXIT.ok,
        };
      },
    },
    io,
  );
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
