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
  checkListenSafety,
  type KeystoneAuthConfig,
  KeystoneAuthenticator,
  keystoneAuthConfigOf,
} from '../auth/index.ts';
import { type Database, defaultDatabaseUrl, parseDatabaseUrl } from '../db/index.ts';
import { createRuleSet } from '../policy/index.ts';
import type { CapsInForce } from '../releases/index.ts';
import {
  createTransport,
  objectRpcSerializer,
  RpcClient,
  type RpcLogger,
  type RpcObserver,
  type RpcTransport,
  readRpcConfig,
} from '../rpc/index.ts';
import { dashboardFeed } from '../service/dashboard/dashboard-feed.ts';
import { REHEARSAL_STATUS_ENV } from '../service/dashboard/rehearsal-status.ts';
import type { DrainOutcome } from '../service/http/http-drain.ts';
import {
  assertRowsReadable,
  ConfigFileError,
  checkPeerVersions,
  codeVersionsOf,
  defineService,
  followDeployment,
  type LiveDeployment,
  loggingPaths,
  pinOf,
  type ReloadReport,
  registerProcess,
  reloadProcess,
  resolveCapsInForce,
  resolveDataDir,
  type ServiceDefinition,
  servicesTablePeers,
} from '../service/index.ts';
import type { ProcessOperations } from '../service/process-operations.ts';
import type { ServicesWatch } from '../service/services-watch.ts';
import { type ListeningApi, listenBaremetalApi } from './api/server.ts';
import { SERVED_VERSIONS } from './api/versions.ts';
import type { ConductorLog } from './conductor/conductor-context.ts';
import { type RunningConductor, startConductor } from './conductor/conductor-process.ts';
import type { BaremetalConfig } from './config.ts';
import {
  BAREMETAL_CONFIG,
  type BaremetalValues,
  baremetalConfigOf,
  loadBaremetalConfigFile,
} from './config-file.ts';
import {
  type BaremetalStore,
  type BaremetalTables,
  createBaremetalStore,
  NEW_MODELS,
  OBJECT_TABLES,
  prepareBaremetalDatabase,
  VERSIONED_TABLES,
} from './db/index.ts';
import { BAREMETAL_MIGRATIONS } from './migrations/index.ts';
import { BAREMETAL_OBJECT_TYPES, BAREMETAL_OBJECTS } from './objects/index.ts';
import { baremetalOnlineMigrations } from './online-migrations/index.ts';
import { BAREMETAL_RULE_DEFAULTS } from './policy/default-rules.ts';
import { BAREMETAL_RELEASES, CURRENT_RELEASE } from './releases.ts';
import {
  BAREMETAL_REMOTE_ERRORS,
  CONDUCTOR_RPC,
  CONDUCTOR_TOPIC,
  ConductorApi,
  ConductorRingCache,
  liveConductorsFrom,
} from './rpcapi/index.ts';
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
  readConfigFile: async (path) => {
    const file = await loadBaremetalConfigFile(path);
    return {
      databaseUrl: file.databaseUrl,
      dataDir: file.dataDir,
      pinReleaseVersion: file.pinReleaseVersion,
      settings: file.values,
    };
  },
  config: BAREMETAL_CONFIG,
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
  /** Settings from the command line, by field (config-options.ts): they win over the file's. */
  readonly flags?: BaremetalValues;
}

/** What a bare metal process runs with: its settings and the caps in force. */
export interface BaremetalPlan {
  readonly config: BaremetalConfig;
  readonly caps: CapsInForce;
  /** For the operator: older option names the file uses (oslo.config's deprecation warnings). */
  readonly warnings?: readonly string[];
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
  const file =
    settings.configFile === undefined
      ? undefined
      : await loadBaremetalConfigFile(settings.configFile);
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
  return { config, caps, warnings: file?.deprecations ?? [] };
}

/**
 * The API's auth settings, checked before anything opens (the CLI's plan, once for a pool, and
 * startBaremetalApi): `keystone` needs a complete `[keystone_authtoken]`; `noauth` checks no
 * token, so it listens on loopback only unless `[api] insecure_noauth_on_any_address` accepts
 * the risk (src/auth/listen-safety.ts); `http_basic` is not served. Returns Keystone's settings
 * under `keystone`. Throws ConfigFileError or UnsafeListenError.
 */
export function checkBaremetalApiAuth(config: BaremetalConfig): KeystoneAuthConfig | undefined {
  const strategy = config.api.authStrategy;
  if (strategy !== 'noauth' && strategy !== 'keystone') {
    throw new ConfigFileError(
      `[DEFAULT] auth_strategy: '${strategy}' is not served by Baton's bare metal API in this release; use keystone or noauth`,
    );
  }
  const keystone = strategy === 'keystone' ? keystoneAuthConfigOf(config.api.keystone) : undefined;
  checkListenSafety({
    binary: BAREMETAL_API_BINARY,
    host: config.api.hostIp,
    authStrategy: strategy,
    authenticates: keystone !== undefined,
    insecureNoauthOnAnyAddress: config.api.insecureNoauthOnAnyAddress,
  });
  return keystone;
}

/** Opens the database; an empty one gets its schema (as Placement's does), an old one is refused. */
export function openBaremetalDatabase(url: string): Promise<Database<BaremetalTables>> {
  return prepareBaremetalDatabase(url, { createIfEmpty: true });
}

/** The RPC transport of the plan; http finds its peers in the services table. */
export function baremetalTransport(
  database: Database<BaremetalTables>,
  plan: BaremetalPlan,
  logger?: RpcLogger,
): RpcTransport {
  const heartbeat = plan.config.conductor.heartbeatInterval;
  return createTransport(readRpcConfig(plan.config.rpc), {
    peers: servicesTablePeers(database as unknown as Database, {
      serviceVersion: BAREMETAL_SERVICE_VERSION,
      heartbeatSeconds: heartbeat,
      liveWithinSeconds: plan.config.conductor.heartbeatTimeout,
    }),
    ...(logger === undefined ? {} : { logger }),
  });
}

/** The API tier's way to the conductors: a store at the caps and a capped RPC client. */
export interface ConductorConnection {
  readonly store: BaremetalStore;
  readonly conductors: ConductorApi;
}

/** Builds the API's RPC client and conductor routing on an open database and transport. */
export function connectToConductors(
  database: Database<BaremetalTables>,
  transport: RpcTransport,
  plan: BaremetalPlan,
  observer?: RpcObserver,
): ConductorConnection {
  const { caps, config } = plan;
  const store = createBaremetalStore(database, { targets: caps.objectTargets });
  const client = new RpcClient({
    transport,
    topic: CONDUCTOR_TOPIC,
    version: CONDUCTOR_RPC.latest,
    timeoutMs: config.api.rpcResponseTimeout * 1000,
    // Asked at each send: caps refreshed on SIGHUP apply at once.
    ...(caps.rpcCap === undefined ? {} : { versionCap: () => caps.rpcCap }),
    serializer: objectRpcSerializer(BAREMETAL_OBJECTS, caps.objectTargets),
    remoteErrors: BAREMETAL_REMOTE_ERRORS,
    ...(observer === undefined ? {} : { observer }),
  });
  const rings = new ConductorRingCache(
    async () =>
      liveConductorsFrom(
        await store.conductors.activeHardwareTypes(config.conductor.heartbeatTimeout, {
          useGroups: true,
        }),
      ),
    {
      resetIntervalMs: config.conductor.hashRingResetInterval * 1000,
      ring: { partitionExponent: config.conductor.hashPartitionExponent },
    },
  );
  return { store, conductors: new ConductorApi({ client, rings }) };
}

/**
 * The deployment a bare metal process follows (the toolkit's live-deployment.ts): the caps in
 * force from the pin or the oldest live process of either binary, refusing a deployment with
 * a process too old to talk to; the caps gauges follow a refresh.
 */
async function followBaremetalDeployment(
  shared: Database,
  plan: BaremetalPlan,
  ops: ProcessOperations,
): Promise<{ readonly deployment: LiveDeployment; readonly plan: BaremetalPlan }> {
  const logger = ops.log.logger;
  const deployment = await followDeployment(shared, BAREMETAL_SERVICE, plan.caps, {
    liveness: { liveWithinSeconds: plan.config.conductor.heartbeatTimeout },
    log: { info: (message) => logger.info(message), warn: (message) => logger.warn(message) },
  });
  const setGauges = (caps: CapsInForce) =>
    ops.metrics?.deployment.setCaps(caps, BAREMETAL_SERVICE.code);
  setGauges(deployment.caps.current());
  deployment.caps.onUpdate(setGauges);
  return { deployment, plan: { ...plan, caps: deployment.caps } };
}

/** SIGHUP for either process: the plan read again from the file and flags (service.ts's planBaremetal). */
function reloadBaremetal(
  ops: ProcessOperations,
  deployment: LiveDeployment,
  watch: ServicesWatch | undefined,
  running: BaremetalPlan,
  next: BaremetalPlan,
): Promise<ReloadReport> {
  return reloadProcess(
    { log: ops.log, deployment, watch, childLoggers: [ops.rpc.logger] },
    {
      before: running.config,
      after: next.config,
      mutable: loggingPaths('operations.'),
      logging: next.config.operations,
      pinBefore: pinOf(running.caps),
      pinAfter: pinOf(next.caps),
    },
  );
}

export interface BaremetalConductorProcess {
  readonly conductor: RunningConductor;
  /** The caps in force now (they follow a reload). */
  readonly caps: CapsInForce;
  /** Where `/metrics` and `/healthcheck` answer (`[metrics] bind_port`), if opened. */
  readonly metricsUrl: string | undefined;
  /** The shutdown sequence (conductor-process.ts), then the transport, the operations and the database. */
  stop(): Promise<boolean>;
  /** SIGHUP: the log level from `next`, the rest reported if changed, the caps read again. */
  reload(next: BaremetalPlan): Promise<ReloadReport>;
}

/**
 * Starts a conductor process as planned: its logs, health check and metrics (the toolkit's
 * process operations: pino logs, `/metrics` and `/healthcheck` on `[metrics] bind_port` when
 * set, RPC metrics), the transport, then the conductor. `log` overrides where the conductor's
 * own lines go (tests); by default they are the process's log lines.
 */
export async function startBaremetalConductor(
  plan: BaremetalPlan,
  options: { readonly log?: ConductorLog } = {},
): Promise<BaremetalConductorProcess> {
  const { createProcessOperations } = await import('../service/process-operations.ts');
  const ops = createProcessOperations({
    service: BAREMETAL_SERVICE,
    binary: BAREMETAL_CONDUCTOR_BINARY,
    serviceVersion: BAREMETAL_SERVICE_VERSION,
    caps: plan.caps,
    config: plan.config.operations,
  });
  const logger = ops.log.logger;
  const log: ConductorLog = options.log ?? {
    info: (message) => logger.info(message),
    warn: (message) => logger.warn(message),
    error: (message) => logger.error(message),
  };
  let database: Database<BaremetalTables> | undefined;
  let transport: RpcTransport | undefined;
  try {
    database = await openBaremetalDatabase(plan.config.databaseUrl);
    const shared = database as unknown as Database;
    // Rows a newer release wrote, which this code cannot read: refuse before anything else.
    await assertRowsReadable(shared, BAREMETAL_SERVICE);
    await checkPeerVersions(
      shared,
      {
        binary: BAREMETAL_CONDUCTOR_BINARY,
        version: BAREMETAL_SERVICE_VERSION,
        supportedSpan: BAREMETAL_SUPPORTED_SPAN,
      },
      (message) => log.warn(message),
    );
    const followed = await followBaremetalDeployment(shared, plan, ops);
    const running = followed.plan;
    const listener = await ops.listenForMetrics();
    transport = baremetalTransport(database, running, ops.rpc.logger);
    const conductor = await startConductor({
      settings: plan.config.conductor,
      database,
      caps: running.caps,
      transport,
      log,
      rpcObserver: ops.rpc.observer,
      rpcLogger: ops.rpc.logger,
    });
    const watch = await ops.watchServices(shared);
    const store = conductor.store;
    ops.metrics?.process.addCollectedGauge({
      name: 'baton_baremetal_nodes',
      help: 'Nodes by provision state.',
      labelNames: ['provision_state'],
      collect: async () =>
        (await store.nodes.countByProvisionState()).map(({ state, count }) => ({
          labels: { provision_state: state },
          value: count,
        })),
    });
    ops.metrics?.process.addCollectedGauge({
      name: 'baton_baremetal_conductor_workers_busy',
      help: "Background operations running in this conductor's worker pool.",
      labelNames: [],
      collect: async () => [{ labels: {}, value: conductor.context.pool.busy }],
    });
    const used = { database, transport };
    let stopping: Promise<boolean> | undefined;
    return {
      conductor,
      caps: running.caps,
      metricsUrl: listener?.url,
      reload: (next) => reloadBaremetal(ops, followed.deployment, watch, running, next),
      stop() {
        stopping ??= (async () => {
          ops.health.startDraining();
          try {
            return await conductor.stop();
          } finally {
            await used.transport.close();
            await ops.close();
            await used.database.close();
          }
        })();
        return stopping;
      },
    };
  } catch (error) {
    await transport?.close();
    await ops.close();
    await database?.close();
    throw error;
  }
}

export interface BaremetalApiProcess {
  /** `http://host:port` as listening. */
  readonly url: string;
  readonly address: AddressInfo;
  /** Where `/metrics` and `/healthcheck` also answer (`[metrics] bind_port`), if opened. */
  readonly metricsUrl: string | undefined;
  /** The caps in force now (they follow a reload). */
  readonly caps: CapsInForce;
  /**
   * The drain (api/server.ts), then the services table, the transport, the operations, the
   * database; the outcome says whether `[DEFAULT] graceful_shutdown_timeout` cut requests.
   */
  stop(): Promise<DrainOutcome>;
  /** SIGHUP: the log level from `next`, the rest reported if changed, the caps read again. */
  reload(next: BaremetalPlan): Promise<ReloadReport>;
}

export interface StartApiOptions {
  /** Warnings worth an operator's eye (an older peer, a failed heartbeat); the log by default. */
  readonly warn?: (message: string) => void;
}

/**
 * Starts an API process as planned: its logs, health check and metrics (the toolkit's process
 * operations: a request line per answer, `/healthcheck`, `/metrics` on the API's port and on
 * `[metrics] bind_port` when set, RPC metrics), the database, the RPC client to the conductors
 * at the caps in force, the app listening, the process in the services table (one row per
 * process: the port tells several on one machine apart). Stopping drains as api/server.ts
 * says (`[healthcheck] drain_delay`, then `[DEFAULT] graceful_shutdown_timeout`).
 */
export async function startBaremetalApi(
  plan: BaremetalPlan,
  options: StartApiOptions = {},
): Promise<BaremetalApiProcess> {
  const keystone = checkBaremetalApiAuth(plan.config);
  const { createProcessOperations } = await import('../service/process-operations.ts');
  const ops = createProcessOperations({
    service: BAREMETAL_SERVICE,
    binary: BAREMETAL_API_BINARY,
    serviceVersion: BAREMETAL_SERVICE_VERSION,
    caps: plan.caps,
    config: plan.config.operations,
  });
  const warn = options.warn ?? ((message: string) => ops.log.logger.warn(message));
  let database: Database<BaremetalTables> | undefined;
  let transport: RpcTransport | undefined;
  let listening: ListeningApi | undefined;
  try {
    // Keystone is first asked at the first request: while it is down, requests get 503s.
    const auth =
      keystone === undefined
        ? undefined
        : {
            authenticator: await KeystoneAuthenticator.create(keystone),
            policy: await createRuleSet(plan.config.api.policy, BAREMETAL_RULE_DEFAULTS),
          };
    database = await openBaremetalDatabase(plan.config.databaseUrl);
    const shared = database as unknown as Database;
    // Rows a newer release wrote, which this code cannot read: refuse before anything else.
    await assertRowsReadable(shared, BAREMETAL_SERVICE);
    await checkPeerVersions(
      shared,
      {
        binary: BAREMETAL_API_BINARY,
        version: BAREMETAL_SERVICE_VERSION,
        supportedSpan: BAREMETAL_SUPPORTED_SPAN,
      },
      warn,
    );
    const followed = await followBaremetalDeployment(shared, plan, ops);
    const runningPlan = followed.plan;
    const metrics = await ops.listenForMetrics();
    transport = baremetalTransport(database, runningPlan, ops.rpc.logger);
    const { store, conductors } = connectToConductors(
      database,
      transport,
      runningPlan,
      ops.rpc.observer,
    );
    const { api, conductor } = plan.config;
    listening = await listenBaremetalApi({
      services: {
        store,
        conductors,
        settings: {
          maxLimit: api.maxLimit,
          publicEndpoint: api.publicEndpoint,
          defaultResourceClass: api.defaultResourceClass,
          heartbeatTimeout: conductor.heartbeatTimeout,
          maxRequestBodySize: plan.config.operations.maxRequestBodySize,
        },
      },
      apiMax: plan.caps.apiMax,
      ...(auth === undefined ? {} : { auth }),
      host: api.hostIp,
      port: api.port,
      operations: ops.http,
      dashboard: dashboardFeed(shared, BAREMETAL_SERVICE, {
        liveness: { liveWithinSeconds: conductor.heartbeatTimeout },
        rehearsalStatusPath: process.env[REHEARSAL_STATUS_ENV],
        // A stopping conductor leaves the hash ring at once, its services row after its drain.
        offline: async () => {
          const online = new Set(await store.conductors.active(conductor.heartbeatTimeout));
          return (binary, host) => binary === BAREMETAL_CONDUCTOR_BINARY && !online.has(host);
        },
      }),
    });
    const registration = await registerProcess(
      shared,
      {
        binary: BAREMETAL_API_BINARY,
        // `[DEFAULT] host` names this machine for the API as for the conductor; the port tells
        // apart the API processes of one host.
        host: `${conductor.host}:${listening.address.port}`,
        version: BAREMETAL_SERVICE_VERSION,
      },
      {
        heartbeatSeconds: conductor.heartbeatInterval,
        warn,
        caps: () => ({ pin: pinOf(runningPlan.caps), release: runningPlan.caps.release }),
      },
    );
    const watch = await ops.watchServices(shared);
    const running = listening;
    const used = { database, transport };
    let stopping: Promise<DrainOutcome> | undefined;
    return {
      url: running.url,
      address: running.address,
      caps: runningPlan.caps,
      metricsUrl: metrics?.url,
      reload: (next) => reloadBaremetal(ops, followed.deployment, watch, runningPlan, next),
      stop() {
        stopping ??= (async () => {
          try {
            const outcome = await running.drain();
            await registration.leave();
            return outcome;
          } finally {
            await used.transport.close();
            await ops.close();
            await used.database.close();
          }
        })();
        return stopping;
      },
    };
  } catch (error) {
    await listening?.app.close();
    await transport?.close();
    await ops.close();
    await database?.close();
    throw error;
  }
}
