/**
 * `baton placement serve`: runs the Placement API in the foreground until SIGTERM or
 * SIGINT, then stops accepting, lets in-flight requests finish and exits 0. Settings come
 * from the defaults, then `--config-file`, then the flags. Bad flags or settings exit 64;
 * a database that cannot serve (outdated schema, unreachable) exits 1.
 */
import {
  DatabaseConnectionError,
  DatabaseUrlError,
  parseDatabaseUrl,
  SchemaNotCurrentError,
} from '../db/index.ts';
import { defaultPlacementConfig } from '../placement/config.ts';
import {
  AUTH_STRATEGIES,
  ConfigFileError,
  type ConfigLayer,
  loadConfigFile,
  mergeConfig,
  normalizeDatabaseUrl,
  toList,
} from '../placement/config-file.ts';
import { PolicyFileError } from '../placement/policy/index.ts';
import {
  type PlacementServer,
  ServiceTooOldError,
  startPlacementServer,
} from '../placement/server.ts';
import { PLACEMENT_SERVICE_VERSION } from '../placement/service-version.ts';
import { ReleasePin, UnknownReleaseError } from '../releases/index.ts';
import { CliExit, EXIT, usageError } from './cli-error.ts';
import { defaultDbUrl } from './command-context.ts';
import { isWorkerProcess, leaveCluster, superviseWorkers } from './placement-workers.ts';
import { serviceNamed } from './service-catalog.ts';

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
}

export interface ServeIo {
  readonly out: (line: string) => void;
  readonly err: (text: string) => void;
  /** Resolves when the process is asked to stop (SIGTERM / SIGINT by default). */
  readonly stopped?: () => Promise<string>;
}

/** Commander's collector for a repeatable, comma-separable option. */
export function collectList(value: string, previous: readonly string[] | undefined): string[] {
  return [...(previous ?? []), ...toList(value)];
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
  return layer;
}

function waitForSignal(): Promise<string> {
  return new Promise((resolve) => {
    // The handlers stay: a second signal (Ctrl-C reaches every worker and then the primary
    // forwards SIGTERM) must not cut the requests in flight.
    const stop = (signal: string) => resolve(signal);
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
}

async function start(options: PlacementServeOptions, io: ServeIo): Promise<PlacementServer> {
  const flags = flagLayer(options);
  let file: ConfigLayer = {};
  try {
    if (options.configFile !== undefined) file = await loadConfigFile(options.configFile);
  } catch (error) {
    if (error instanceof ConfigFileError) throw usageError(error.message);
    throw error;
  }
  const config = mergeConfig(defaultPlacementConfig(defaultDbUrl()), file, flags);
  let pinnedMax: string | undefined;
  try {
    const placement = serviceNamed('placement');
    const pin = ReleasePin.resolve(placement.releases, options.pinReleaseVersion);
    pinnedMax = pin.pinned
      ? pin.apiMaxVersion(placement.releases.master?.api ?? '1.39')
      : undefined;
    parseDatabaseUrl(config.databaseUrl);
  } catch (error) {
    if (error instanceof UnknownReleaseError || error instanceof DatabaseUrlError) {
      throw usageError(error.message);
    }
    throw error;
  }
  try {
    return await startPlacementServer(config, {
      pinnedMax,
      warn: (message) => io.err(`baton: warning: ${message}\n`),
    });
  } catch (error) {
    if (error instanceof PolicyFileError) throw usageError(error.message);
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

export async function placementServe(options: PlacementServeOptions, io: ServeIo): Promise<number> {
  const workers = workerCount(options.workers);
  if (workers > 1 && !isWorkerProcess()) {
    // Check the configuration once here, so a mistake is one message and not one per worker.
    flagLayer(options);
    return superviseWorkers(workers, io, io.stopped ?? waitForSignal);
  }
  const server = await start(options, io);
  io.out(`placement-api listening on ${server.url} (service version ${PLACEMENT_SERVICE_VERSION})`);
  const signal = await (io.stopped ?? waitForSignal)();
  io.out(`placement-api stopping (${signal}): finishing requests in flight`);
  await server.close();
  io.out('placement-api stopped');
  leaveCluster();
  return EXIT.ok;
}
