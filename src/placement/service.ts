/**
 * The Placement service, defined once for the toolkit, and the composition root of its
 * API process. The definition lists what the `baton` commands need (binaries, schema
 * history, online data migrations, object tables, config file, releases); its `master`
 * release is derived from the microversion list. The root reads the settings, resolves
 * the pin into the caps in force once, and hands them to the server (the negotiator's
 * max). Placement has no RPC and no versioned objects, so its caps cap only the API. It
 * also builds the process's logs, health check and metrics (src/service/process-operations.ts)
 * and hands them to the server (docs/operations.md).
 */
import {
  createOnlineMigrationRegistry,
  defaultDatabaseUrl,
  parseDatabaseUrl,
} from '../db/index.ts';
import type { CapsInForce } from '../releases/index.ts';
import {
  codeVersionsOf,
  defineService,
  NO_CONFIG,
  resolveCapsInForce,
  resolveDataDir,
  type ServiceDefinition,
} from '../service/index.ts';
import type { LogSink } from '../service/logging/service-logger.ts';
import { PLACEMENT_VERSIONS } from './api/versions.ts';
import { checkPlacementAuth } from './auth-settings.ts';
import {
  defaultPlacementConfig,
  INCOMPLETE_CONSUMER_DEFAULTS,
  type PlacementConfig,
} from './config.ts';
import {
  type ConfigLayer,
  loadConfigFile,
  mergeConfig,
  PLACEMENT_CONFIG,
  type PlacementConfigFile,
} from './config-file.ts';
import { PLACEMENT_MIGRATIONS } from './migrations/index.ts';
import { createIncompleteConsumers } from './online-migrations/create-incomplete-consumers.ts';
import { PLACEMENT_RELEASE, PLACEMENT_RELEASES } from './releases.ts';
import { type PlacementServer, type StartOptions, startPlacementServer } from './server.ts';
import { PLACEMENT_API_BINARY, PLACEMENT_SERVICE_VERSION } from './service-version.ts';

export const PLACEMENT_SERVICE: ServiceDefinition = defineService({
  name: 'placement',
  release: PLACEMENT_RELEASE,
  binaries: [PLACEMENT_API_BINARY],
  migrations: PLACEMENT_MIGRATIONS,
  readConfigFile: async (path) => {
    const file = await loadConfigFile(path);
    return {
      databaseUrl: file.settings.databaseUrl,
      dataDir: file.dataDir,
      pinReleaseVersion: file.pinReleaseVersion,
      settings: file.settings,
    };
  },
  config: PLACEMENT_CONFIG,
  onlineMigrations: (config = NO_CONFIG) => {
    const layer = (config.settings ?? {}) as ConfigLayer;
    return createOnlineMigrationRegistry({
      service: 'placement',
      migrations: [
        createIncompleteConsumers({
          incompleteConsumerProjectId:
            layer.incompleteConsumerProjectId ?? INCOMPLETE_CONSUMER_DEFAULTS.projectId,
          incompleteConsumerUserId:
            layer.incompleteConsumerUserId ?? INCOMPLETE_CONSUMER_DEFAULTS.userId,
        }),
      ],
      objectTables: [],
    });
  },
  objectTables: [],
  code: codeVersionsOf({
    apiVersions: PLACEMENT_VERSIONS,
    serviceVersion: PLACEMENT_SERVICE_VERSION,
  }),
  // Releases before this code's and this one; `master` is derived from `code`.
  releases: PLACEMENT_RELEASES,
  newModels: [],
});

/** How a placement-api process was asked to run. */
export interface PlacementApiSettings {
  /** The oslo.config-style INI file, if any. */
  readonly configFile?: string | undefined;
  /** Settings from the command line: they win over the file's. */
  readonly flags: ConfigLayer;
  /** `--pin-release-version`: wins over the file's `[DEFAULT] pin_release_version`. */
  readonly pinReleaseVersion?: string | undefined;
  /** `--data-dir`: wins over the file's `[DEFAULT] state_path`. */
  readonly dataDir?: string | undefined;
  /** `--workers`: wins over the file's `[DEFAULT] workers`. */
  readonly workers?: number | undefined;
}

/** What a placement-api process runs with: its settings, the caps in force and its workers. */
export interface PlacementApiPlan {
  readonly config: PlacementConfig;
  readonly caps: CapsInForce;
  /** Server processes sharing the port (1: this process serves). */
  readonly workers: number;
}

/**
 * Reads the settings (defaults, the file, the flags) and resolves the caps in force, before
 * anything is opened. The database is the flag's, else the file's, else the embedded SQLite
 * file in the data directory (src/service/data-dir.ts). Throws ConfigFileError (also for an
 * incomplete [keystone_authtoken]), DatabaseUrlError, UnsafeListenError (noauth2 beyond
 * loopback), InvalidReleaseMappingError (naming the entry) or UnknownReleaseError (listing
 * the known releases).
 */
export async function planPlacementApi(
  settings: PlacementApiSettings,
  service: ServiceDefinition = PLACEMENT_SERVICE,
): Promise<PlacementApiPlan> {
  const file: PlacementConfigFile =
    settings.configFile === undefined
      ? { settings: {} }
      : await loadConfigFile(settings.configFile);
  const dataDir = resolveDataDir({ flag: settings.dataDir, file: file.dataDir });
  const config = mergeConfig(
    defaultPlacementConfig(defaultDatabaseUrl(dataDir.path)),
    file.settings,
    settings.flags,
  );
  parseDatabaseUrl(config.databaseUrl);
  checkPlacementAuth(config);
  const caps = resolveCapsInForce(service, {
    flag: settings.pinReleaseVersion,
    file: file.pinReleaseVersion,
  });
  return { config, caps, workers: settings.workers ?? file.workers ?? 1 };
}

/** How a placement-api process is started, besides its plan. */
export interface PlacementApiStart extends Omit<StartOptions, 'operations'> {
  /** Where the log lines go instead of stderr or the log file (tests). */
  readonly logSink?: LogSink;
}

/**
 * Starts a placement-api process as planned, with its logs, health check and metrics;
 * `close()` drains and stops it. The logger and the metrics (pino, prom-client) are loaded
 * here, when a process serves, not by every command that reads the service's definition.
 * Throws LogSettingsError for a log file that cannot be opened, MetricsListenError for a
 * metrics port that cannot be bound.
 */
export async function startPlacementApi(
  plan: PlacementApiPlan,
  options: PlacementApiStart = {},
  service: ServiceDefinition = PLACEMENT_SERVICE,
): Promise<PlacementServer> {
  const { createProcessOperations } = await import('../service/process-operations.ts');
  const { logSink, ...start } = options;
  const operations = createProcessOperations({
    service,
    binary: PLACEMENT_API_BINARY,
    serviceVersion: PLACEMENT_SERVICE_VERSION,
    caps: plan.caps,
    config: plan.config,
    ...(logSink === undefined ? {} : { logSink }),
  });
  try {
    return await startPlacementServer(plan.config, plan.caps, { ...start, operations, service });
  } catch (error) {
    await operations.close();
    throw error;
  }
}
