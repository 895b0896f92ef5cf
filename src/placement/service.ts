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

import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { KeystoneAuthenticator } from '../auth/keystone-authenticator.ts';
import {
  createOnlineMigrationRegistry,
  type Database,
  DEFAULT_HEARTBEAT_SECONDS,
  defaultDatabaseUrl,
  parseDatabaseUrl,
} from '../db/index.ts';
import { type CapsInForce, capsInForce } from '../releases/index.ts';
import type { DrainOutcome } from '../service/http/http-drain.ts';
import {
  codeVersionsOf,
  defineService,
  loggingPaths,
  NO_CONFIG,
  pinOf,
  type ReloadReport,
  resolveCapsInForce,
  resolveDataDir,
  type ServiceDefinition,
} from '../service/index.ts';
import type { LogSink } from '../service/logging/service-logger.ts';
import { startProcess } from '../service/process-lifecycle.ts';
import { buildPlacementApp } from './api/app.ts';
import { PLACEMENT_VERSIONS } from './api/versions.ts';
import { checkPlacementAuth } from './auth-settings.ts';
import {
  defaultPlacementConfig,
  INCOMPLETE_CONSUMER_DEFAULTS,
  type PlacementConfig,
} from './config.ts';
import {
  type ConfigLayer,
  loadConfigFiles,
  mergeConfig,
  PLACEMENT_CONFIG,
  PLACEMENT_CONFIG_PROJECT,
  type PlacementConfigFile,
} from './config-file.ts';
import { PLACEMENT_MIGRATIONS } from './migrations/index.ts';
import { createIncompleteConsumers } from './online-migrations/create-incomplete-consumers.ts';
import { createPolicyEnforcer } from './policy/index.ts';
import { PLACEMENT_RELEASE, PLACEMENT_RELEASES } from './releases.ts';
import {
  PLACEMENT_API_BINARY,
  PLACEMENT_SERVICE_VERSION,
  PLACEMENT_SUPPORTED_SPAN,
} from './service-version.ts';
import { preparePlacementDatabase } from './store/prepare-database.ts';
import { ResourceClassCache } from './store/resource-class-cache.ts';
import type { PlacementTables } from './store/tables.ts';

export const PLACEMENT_SERVICE: ServiceDefinition = defineService({
  name: 'placement',
  release: PLACEMENT_RELEASE,
  binaries: [PLACEMENT_API_BINARY],
  migrations: PLACEMENT_MIGRATIONS,
  readConfigFiles: async (paths) => {
    if (paths.length === 0) return NO_CONFIG;
    const file = await loadConfigFiles(paths);
    return {
      databaseUrl: file.settings.databaseUrl,
      dataDir: file.dataDir,
      pinReleaseVersion: file.pinReleaseVersion,
      settings: file.settings,
    };
  },
  config: PLACEMENT_CONFIG,
  configProject: PLACEMENT_CONFIG_PROJECT,
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
  /** The files to read, in order (a later one wins); `configFile` when absent. */
  readonly configFiles?: readonly string[] | undefined;
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
  /** The config files read (recorded in the services row). */
  readonly configFiles?: readonly string[];
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
  const files =
    settings.configFiles ?? (settings.configFile === undefined ? [] : [settings.configFile]);
  const file: PlacementConfigFile = await loadConfigFiles(files);
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
  return {
    config,
    caps,
    workers: settings.workers ?? file.workers ?? 1,
    configFiles: files,
  };
}

export interface PlacementApiStart {
  /** Where the log lines go instead of stderr or the log file (tests). */
  readonly logSink?: LogSink;
  /** Seconds between heartbeats (default: the services table's). */
  readonly heartbeatSeconds?: number;
  readonly poolSize?: number;
}

/** A running placement-api process. */
export interface PlacementServer {
  /** `http://host:port` as listening (the real port when 0 was asked). */
  readonly url: string;
  readonly address: AddressInfo;
  /** The caps in force now: the pin, else the oldest live placement-api's release. */
  readonly caps: CapsInForce;
  /** Where `/metrics` and `/healthcheck` answer on `[metrics] bind_port`, if opened. */
  readonly metricsUrl: string | undefined;
  /** SIGHUP: the log level from `next`, the rest reported if changed, the caps read again. */
  reload(next: PlacementApiPlan): Promise<ReloadReport>;
  /**
   * The stop (service/http/http-drain.ts): health check DRAINING, `[healthcheck]
   * drain_delay`, the listener closed, requests in flight finished within `[DEFAULT]
   * graceful_shutdown_timeout` (else cut: the outcome counts them), then the lifecycle's own.
   */
  close(): Promise<DrainOutcome>;
}

/** The plan of a server started from settings alone, unpinned (tests and tools). */
export function placementPlanOf(config: PlacementConfig): PlacementApiPlan {
  return { config, caps: capsInForce(PLACEMENT_SERVICE.releases, undefined), workers: 1 };
}

/**
 * Starts a placement-api process as planned (src/service/process-lifecycle.ts does the rest):
 * the policy and Keystone settings, the app listening at the caps in force, then its identity
 * claimed (`<machine>:<port>`). `service` is Placement's definition; a test may hand a broken
 * one to see the start refuse it. Throws PolicyFileError, LogSettingsError,
 * MetricsListenError, and the lifecycle's refusals.
 */
export async function startPlacementApi(
  plan: PlacementApiPlan,
  options: PlacementApiStart = {},
  service: ServiceDefinition = PLACEMENT_SERVICE,
): Promise<PlacementServer> {
  const { config } = plan;
  const keystone = checkPlacementAuth(config);
  const proc = await startProcess<ListeningPlacement, DrainOutcome>(
    {
      service,
      binary: PLACEMENT_API_BINARY,
      supportedSpan: PLACEMENT_SUPPORTED_SPAN,
      openDatabase: async (url) =>
        (await preparePlacementDatabase(url, {
          poolSize: options.poolSize,
        })) as unknown as Database,
      async start(ctx) {
        const policy = await createPolicyEnforcer(config);
        // Keystone is first asked at the first request: while it is down, requests get 503s.
        const authenticator =
          keystone === undefined ? undefined : await KeystoneAuthenticator.create(keystone);
        const drain = ctx.ops.drain;
        // The pool's maximum: the lowest any live placement-api can serve.
        const apiMax = await ctx.followApiMax();
        const app = await buildPlacementApp({
          services: {
            db: ctx.database as unknown as Database<PlacementTables>,
            config,
            policy,
            resourceClasses: new ResourceClassCache(),
          },
          pinnedMax: apiMax,
          operations: { ...ctx.ops.http, drain },
          authenticator,
        });
        drain.attach(app.server);
        await app.listen({
          host: config.host,
          port: config.port,
          // Fastify logs this line with the process's logger.
          listenTextResolver: (address) => `${PLACEMENT_API_BINARY} listening on ${address}`,
        });
        const address = app.server.address() as AddressInfo;
        const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
        const url = `http://${host}:${address.port}`;
        // One row per process: the port tells apart several on one machine.
        try {
          await ctx.claim(`${hostname()}:${address.port}`, { address: url });
        } catch (error) {
          await app.close();
          throw error;
        }
        return { running: { url, address }, stop: () => drain.stop(() => app.close()) };
      },
    },
    {
      databaseUrl: config.databaseUrl,
      caps: plan.caps,
      operations: config,
      liveness: {},
      heartbeatSeconds: options.heartbeatSeconds ?? DEFAULT_HEARTBEAT_SECONDS,
      configFiles: plan.configFiles ?? [],
      predecessorWaitSeconds: config.drainDelaySeconds + config.gracefulShutdownTimeout + 10,
    },
    options.logSink === undefined ? {} : { logSink: options.logSink },
  );
  const { url, address } = proc.running;
  return {
    url,
    address,
    caps: proc.caps,
    metricsUrl: proc.metricsUrl,
    reload: (next) =>
      proc.reload({
        before: config,
        after: next.config,
        mutable: loggingPaths(),
        logging: next.config,
        pinAfter: pinOf(next.caps),
      }),
    close: () => proc.stop(),
  };
}

interface ListeningPlacement {
  readonly url: string;
  readonly address: AddressInfo;
}
