/**
 * The bare metal service, defined once for the toolkit, and the composition root of its two
 * processes (`baremetal-api`, `baremetal-conductor`). The definition lists what the `baton`
 * commands need; its `master` release is derived from the code's own tables (the served
 * microversions, the conductor RPC versions, the object types). The root reads the settings,
 * resolves the pin into the caps in force once, and hands them to the store (object versions
 * written), the RPC client and server (RPC cap, object versions sent) and the API (its
 * maximum microversion). Nothing else reads the pin.
 */
import type { AddressInfo } from 'node:net';
import {
  IdentityClient,
  KeystoneAuthenticator,
  keystoneRpcClientAuth,
  keystoneRpcServerAuth,
} from '../auth/index.ts';
import { type Database, defaultDatabaseUrl, parseDatabaseUrl } from '../db/index.ts';
import { createRuleSet } from '../policy/index.ts';
import type { CapsInForce } from '../releases/index.ts';
import {
  createTransport,
  type HttpRpcClientAuth,
  type HttpRpcServerAuth,
  type RpcLogger,
  type RpcTransport,
  readRpcConfig,
} from '../rpc/index.ts';
import { dashboardFeed } from '../service/dashboard/dashboard-feed.ts';
import type { OtherService } from '../service/dashboard/dashboard-state.ts';
import { REHEARSAL_STATUS_ENV } from '../service/dashboard/rehearsal-status.ts';
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
  servicesTablePeers,
} from '../service/index.ts';
import type { LogSink } from '../service/logging/service-logger.ts';
import { type LifecyclePlan, startProcess } from '../service/process-lifecycle.ts';
import { checkBaremetalApiAuth } from './api/auth-settings.ts';
import { connectToConductors } from './api/conductor-connection.ts';
import { httpBasicAuthenticator } from './api/http-basic-users.ts';
import type { ListeningApi } from './api/server.ts';
import { SERVED_VERSIONS } from './api/versions.ts';
import type { ConductorLog } from './conductor/conductor-context.ts';
import { addConductorGauges, conductorHealth } from './conductor/conductor-operations.ts';
import { type RunningConductor, startConductor } from './conductor/conductor-process.ts';
import type { BaremetalConfig } from './config.ts';
import {
  BAREMETAL_CONFIG,
  BAREMETAL_CONFIG_PROJECT,
  type BaremetalValues,
  baremetalConfigOf,
  loadBaremetalConfigFiles,
} from './config-file.ts';
import {
  type BaremetalTables,
  NEW_MODELS,
  OBJECT_TABLES,
  prepareBaremetalDatabase,
  VERSIONED_TABLES,
} from './db/index.ts';
import { BAREMETAL_MIGRATIONS } from './migrations/index.ts';
import { BAREMETAL_OBJECT_TYPES } from './objects/index.ts';
import { baremetalOnlineMigrations } from './online-migrations/index.ts';
import { BAREMETAL_RULE_DEFAULTS } from './policy/default-rules.ts';
import { BAREMETAL_RELEASES, CURRENT_RELEASE } from './releases.ts';
import { checkBaremetalRpcAuth } from './rpc-auth-settings.ts';
import { CONDUCTOR_RPC } from './rpcapi/index.ts';
import {
  BAREMETAL_API_BINARY,
  BAREMETAL_CONDUCTOR_BINARY,
  BAREMETAL_SERVICE_VERSION,
  BAREMETAL_SUPPORTED_SPAN,
} from './service-version.ts';

/** This release's number (`21.1`): the key of the release mapping naming the same entry. */
const RELEASE_NUMBER =
  Object.keys(BAREMETAL_RELEASES).find(
    (key) => /^\d/.test(key) && BAREMETAL_RELEASES[key] === BAREMETAL_RELEASES[CURRENT_RELEASE],
  ) ?? CURRENT_RELEASE;

export const BAREMETAL_SERVICE: ServiceDefinition = defineService({
  name: 'baremetal',
  release: CURRENT_RELEASE,
  // `baton db …` words its output as ironic-dbsync and ironic-status do.
  operatorDialect: { tool: 'ironic-dbsync', product: 'ironic', releaseString: RELEASE_NUMBER },
  binaries: [BAREMETAL_API_BINARY, BAREMETAL_CONDUCTOR_BINARY],
  // The rolling-upgrade doc: conductors first (step 1), then the APIs (step 2).
  upgradeOrder: [BAREMETAL_CONDUCTOR_BINARY, BAREMETAL_API_BINARY],
  migrations: BAREMETAL_MIGRATIONS,
  readConfigFiles: async (paths) => {
    if (paths.length === 0) return NO_CONFIG;
    const file = await loadBaremetalConfigFiles(paths);
    return {
      databaseUrl: file.databaseUrl,
      dataDir: file.dataDir,
      pinReleaseVersion: file.pinReleaseVersion,
      settings: file.values,
    };
  },
  config: BAREMETAL_CONFIG,
  configProject: BAREMETAL_CONFIG_PROJECT,
  onlineMigrations: () => baremetalOnlineMigrations(),
  objectTables: OBJECT_TABLES,
  versionedTables: VERSIONED_TABLES,
  newModels: NEW_MODELS,
  code: codeVersionsOf({
    apiVersions: SERVED_VERSIONS,
    rpcVersions: CONDUCTOR_RPC,
    objectTypes: BAREMETAL_OBJECT_TYPES,
    serviceVersion: BAREMETAL_SERVICE_VERSION,
  }),
  // The released entries (yoga, zed); `master` is derived from `code`.
  releases: BAREMETAL_RELEASES,
});

/** How a bare metal process was asked to run. */
export interface BaremetalSettings {
  /** The oslo.config-style file, if any. */
  readonly configFile?: string | undefined;
  /** The files to read, in order (a later one wins); `configFile` when absent. */
  readonly configFiles?: readonly string[] | undefined;
  /** Settings from the command line, by field (config-options.ts): they win over the file's. */
  readonly flags?: BaremetalValues;
}

/** What a bare metal process runs with: its settings and the caps in force. */
export interface BaremetalPlan {
  readonly config: BaremetalConfig;
  readonly caps: CapsInForce;
  /** For the operator: older option names the file uses (oslo.config's deprecation warnings). */
  readonly warnings?: readonly string[];
  /** The config files read (recorded in the services row). */
  readonly configFiles?: readonly string[];
}

/**
 * Reads the settings (defaults, the file, the flags) and resolves the caps in force, before
 * anything is opened. The database is the flag's, else the file's, else the embedded SQLite
 * file in the data directory (`--data-dir`, the file's `[DEFAULT] state_path`, else the
 * toolkit's default). Throws ConfigFileError, DatabaseUrlError, RpcConfigError,
 * InvalidReleaseMappingError or UnknownReleaseError (listing the known releases).
 */
export async function planBaremetal(
  settings: BaremetalSettings,
  service: ServiceDefinition = BAREMETAL_SERVICE,
): Promise<BaremetalPlan> {
  const files =
    settings.configFiles ?? (settings.configFile === undefined ? [] : [settings.configFile]);
  const file = files.length === 0 ? undefined : await loadBaremetalConfigFiles(files);
  const flags = settings.flags ?? {};
  const dataDir = resolveDataDir({
    flag: flags.dataDir as string | undefined,
    file: file?.dataDir,
  });
  const config = baremetalConfigOf(defaultDatabaseUrl(dataDir.path), file?.values ?? {}, flags);
  parseDatabaseUrl(config.databaseUrl);
  readRpcConfig(config.rpc);
  const caps = resolveCapsInForce(service, {
    flag: flags.pinReleaseVersion as string | undefined,
    file: file?.pinReleaseVersion,
  });
  return {
    config,
    caps,
    warnings: file?.deprecations ?? [],
    configFiles: files,
  };
}

/** Opens the database; an empty one gets its schema (as Placement's does), an old one is refused. */
export function openBaremetalDatabase(url: string): Promise<Database<BaremetalTables>> {
  return prepareBaremetalDatabase(url, { createIfEmpty: true });
}

/**
 * The RPC transport of the plan; http finds its peers in the services table, and sends or
 * checks `auth` (a Keystone token: rpc-auth-settings.ts) beside `rpc_shared_secret`.
 */
export function baremetalTransport(
  database: Database<BaremetalTables>,
  plan: BaremetalPlan,
  logger?: RpcLogger,
  auth: { readonly clientAuth?: HttpRpcClientAuth; readonly serverAuth?: HttpRpcServerAuth } = {},
): RpcTransport {
  const heartbeat = plan.config.conductor.heartbeatInterval;
  return createTransport(readRpcConfig(plan.config.rpc), {
    peers: servicesTablePeers(database as unknown as Database, {
      serviceVersion: BAREMETAL_SERVICE_VERSION,
      heartbeatSeconds: heartbeat,
      liveWithinSeconds: plan.config.conductor.heartbeatTimeout,
    }),
    ...(logger === undefined ? {} : { logger }),
    ...auth,
    // A conductor goes offline in the hash ring and waits out the ring's refresh before its
    // RPC server stops (conductor-process.ts): every call names its conductor, so nothing is
    // still sent here by then.
    stopGraceMs: 0,
  });
}

/** What the process lifecycle needs of a bare metal plan (src/service/process-lifecycle.ts). */
function lifecyclePlan(plan: BaremetalPlan, predecessorWaitSeconds: number): LifecyclePlan {
  const { config } = plan;
  return {
    databaseUrl: config.databaseUrl,
    caps: plan.caps,
    operations: config.operations,
    liveness: { liveWithinSeconds: config.conductor.heartbeatTimeout },
    heartbeatSeconds: config.conductor.heartbeatInterval,
    configFiles: plan.configFiles ?? [],
    predecessorWaitSeconds,
  };
}

/** SIGHUP for either process: the plan made again from the file and flags (planBaremetal). */
function reloadInput(running: BaremetalPlan, next: BaremetalPlan) {
  return {
    before: running.config,
    after: next.config,
    mutable: loggingPaths('operations.'),
    logging: next.config.operations,
    pinAfter: pinOf(next.caps),
  };
}

const openShared = async (url: string) => (await openBaremetalDatabase(url)) as unknown as Database;
const baremetalDb = (db: Database) => db as unknown as Database<BaremetalTables>;

export interface BaremetalConductorProcess {
  readonly conductor: RunningConductor;
  /** The caps in force now (they follow a reload). */
  readonly caps: CapsInForce;
  /** Where `/metrics` and `/healthcheck` answer (`[metrics] bind_port`), if opened. */
  readonly metricsUrl: string | undefined;
  /** The shutdown sequence (conductor-process.ts), then the lifecycle's own stop. */
  stop(): Promise<boolean>;
  /** SIGHUP: the log level from `next`, the rest reported if changed, the caps read again. */
  reload(next: BaremetalPlan): Promise<ReloadReport>;
}

/**
 * A conductor process (the lifecycle does the rest): its transport, then the conductor, which
 * claims its identity before its RPC server binds and before it writes anything. It is not
 * healthy while it has no hardware registered or is not online in the conductors table.
 */
export async function startBaremetalConductor(
  plan: BaremetalPlan,
  options: { readonly log?: ConductorLog; readonly logSink?: LogSink } = {},
): Promise<BaremetalConductorProcess> {
  const { conductor: settings } = plan.config;
  // Before anything opens: a conductor whose RPC nobody authenticates stays on loopback.
  const rpcAuth = checkBaremetalRpcAuth(plan.config, 'conductor');
  // A predecessor of the same host leaves once its ring grace and its work are over.
  const wait = settings.hashRingResetInterval + settings.gracefulShutdownTimeout + 10;
  const proc = await startProcess<RunningConductor>(
    {
      service: BAREMETAL_SERVICE,
      binary: BAREMETAL_CONDUCTOR_BINARY,
      supportedSpan: BAREMETAL_SUPPORTED_SPAN,
      openDatabase: openShared,
      async start(ctx) {
        const logger = ctx.ops.log.logger;
        const log: ConductorLog = options.log ?? {
          debug: (message) => logger.debug(message),
          info: (message) => logger.info(message),
          warn: (message) => logger.warn(message),
          error: (message) => logger.error(message),
        };
        const running = { ...plan, caps: ctx.caps };
        // Keystone is first asked at the first call: while it is down, calls get 503s.
        const serverAuth =
          rpcAuth.server === undefined
            ? undefined
            : keystoneRpcServerAuth(
                await KeystoneAuthenticator.create(rpcAuth.server),
                rpcAuth.allowedRoles,
              );
        const transport = baremetalTransport(
          baremetalDb(ctx.database),
          running,
          ctx.ops.rpc.logger,
          serverAuth === undefined ? {} : { serverAuth },
        );
        ctx.onClose(() => transport.close());
        const conductor = await startConductor({
          settings,
          database: baremetalDb(ctx.database),
          caps: ctx.caps,
          transport,
          log,
          rpcObserver: ctx.ops.rpc.observer,
          rpcLogger: ctx.ops.rpc.logger,
          claim: () => ctx.claim(settings.host),
        });
        addConductorGauges(ctx.ops, conductor);
        return {
          running: conductor,
          stop: () => conductor.stop(),
          health: () => conductorHealth(conductor),
        };
      },
    },
    lifecyclePlan(plan, wait),
    options.logSink === undefined ? {} : { logSink: options.logSink },
  );
  return {
    conductor: proc.running,
    caps: proc.caps,
    metricsUrl: proc.metricsUrl,
    reload: (next) => proc.reload(reloadInput(plan, next)),
    stop: () => proc.stop(),
  };
}

export interface BaremetalApiProcess {
  /** `http://host:port` as listening. */
  readonly url: string;
  readonly address: AddressInfo;
  /** Where `/metrics` and `/healthcheck` also answer (`[metrics] bind_port`), if opened. */
  readonly metricsUrl: string | undefined;
  /** The caps in force now (they follow a reload). */
  readonly caps: CapsInForce;
  /** The highest microversion served now: the lowest the pool's live processes can serve. */
  apiMax(): string | undefined;
  /** The drain (api/server.ts), then the lifecycle's own stop; the outcome counts cut requests. */
  stop(): Promise<DrainOutcome>;
  /** SIGHUP: the log level from `next`, the rest reported if changed, the caps read again. */
  reload(next: BaremetalPlan): Promise<ReloadReport>;
}

/**
 * An API process (the lifecycle does the rest): the RPC client to the conductors at the caps
 * in force, the app listening (its port is part of its identity: `<[DEFAULT] host>:<port>`),
 * then the identity claimed. It is not healthy while no conductor is online to act on nodes.
 */
export async function startBaremetalApi(
  plan: BaremetalPlan,
  options: {
    readonly logSink?: LogSink;
    /** The other services whose processes the dashboard shows beside, if they share the database. */
    readonly dashboardOthers?: readonly OtherService[];
  } = {},
): Promise<BaremetalApiProcess> {
  const keystone = checkBaremetalApiAuth(plan.config);
  const rpcAuth = checkBaremetalRpcAuth(plan.config, 'api');
  const { api, conductor } = plan.config;
  // The user file is checked before anything opens, as ironic-lib checks it at start.
  const basicUsers =
    api.authStrategy === 'http_basic'
      ? await httpBasicAuthenticator(api.httpBasicAuthUserFile)
      : undefined;
  const wait =
    plan.config.operations.drainDelaySeconds + plan.config.operations.gracefulShutdownTimeout + 10;
  const proc = await startProcess<ListeningApi & { apiMax(): string | undefined }, DrainOutcome>(
    {
      service: BAREMETAL_SERVICE,
      binary: BAREMETAL_API_BINARY,
      supportedSpan: BAREMETAL_SUPPORTED_SPAN,
      openDatabase: openShared,
      async start(ctx) {
        // Keystone is first asked at the first request: while it is down, requests get 503s.
        const auth =
          keystone !== undefined
            ? {
                authenticator: await KeystoneAuthenticator.create(keystone),
                policy: await createRuleSet(api.policy, BAREMETAL_RULE_DEFAULTS),
              }
            : basicUsers !== undefined
              ? { authenticator: basicUsers }
              : undefined;
        const running = { ...plan, caps: ctx.caps };
        const database = baremetalDb(ctx.database);
        // Its own token for the conductors, got at the first call and renewed before it expires.
        const identity =
          rpcAuth.client === undefined ? undefined : await IdentityClient.create(rpcAuth.client);
        const transport = baremetalTransport(
          database,
          running,
          ctx.ops.rpc.logger,
          identity === undefined ? {} : { clientAuth: keystoneRpcClientAuth(identity) },
        );
        ctx.onClose(async () => {
          await transport.close();
          identity?.close();
        });
        const { store, conductors } = connectToConductors(
          database,
          transport,
          running,
          ctx.ops.rpc.observer,
        );
        // The pool's maximum: the lowest any live process of the service can serve.
        const apiMax = await ctx.followApiMax();
        // Loaded here, not with this module: a conductor process imports this module too, and
        // the API's routes are 79 modules it would load and compile at every start for nothing.
        const { listenBaremetalApi } = await import('./api/server.ts');
        const listening = await listenBaremetalApi({
          services: {
            store,
            conductors,
            settings: {
              maxLimit: api.maxLimit,
              publicEndpoint: api.publicEndpoint,
              defaultResourceClass: api.defaultResourceClass,
              heartbeatTimeout: conductor.heartbeatTimeout,
              ramdisk: {
                enabled: api.enableRamdiskEndpoints,
                restrictLookup: api.restrictLookup,
                heartbeatTimeout: api.ramdiskHeartbeatTimeout,
                fastTrack: api.fastTrack,
              },
              maxRequestBodySize: plan.config.operations.maxRequestBodySize,
            },
          },
          apiMax,
          ...(auth === undefined ? {} : { auth }),
          host: api.hostIp,
          port: api.port,
          operations: ctx.ops.http,
          dashboard: dashboardFeed(ctx.database, BAREMETAL_SERVICE, {
            liveness: { liveWithinSeconds: conductor.heartbeatTimeout },
            rehearsalStatusPath: process.env[REHEARSAL_STATUS_ENV],
            // A stopping conductor leaves the hash ring at once, its services row after its drain.
            offline: async () => {
              const online = new Set(await store.conductors.active(conductor.heartbeatTimeout));
              return (binary, host) => binary === BAREMETAL_CONDUCTOR_BINARY && !online.has(host);
            },
            inventory: { title: 'Nodes', read: () => store.nodes.countForDashboard() },
            ...(options.dashboardOthers === undefined ? {} : { others: options.dashboardOthers }),
          }),
        });
        // The port names this process among the APIs of one host.
        try {
          await ctx.claim(`${conductor.host}:${listening.address.port}`, {
            address: listening.url,
          });
        } catch (error) {
          await listening.app.close();
          throw error;
        }
        return {
          running: { ...listening, apiMax },
          stop: () => listening.drain(),
          health: async () =>
            (await store.conductors.active(conductor.heartbeatTimeout)).length === 0
              ? 'no conductor is online: nodes cannot be acted on'
              : undefined,
        };
      },
    },
    lifecyclePlan(plan, wait),
    options.logSink === undefined ? {} : { logSink: options.logSink },
  );
  const listening = proc.running;
  return {
    url: listening.url,
    address: listening.address,
    metricsUrl: proc.metricsUrl,
    caps: proc.caps,
    apiMax: listening.apiMax,
    reload: (next) => proc.reload(reloadInput(plan, next)),
    stop: () => proc.stop(),
  };
}

export { checkBaremetalApiAuth } from './api/auth-settings.ts';
export { type ConductorConnection, connectToConductors } from './api/conductor-connection.ts';
export { httpBasicAuthenticator } from './api/http-basic-users.ts';
export { checkBaremetalRpcAuth } from './rpc-auth-settings.ts';
