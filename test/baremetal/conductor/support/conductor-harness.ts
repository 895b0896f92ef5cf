/**
 * Conductors for tests: a real conductor (startConductor) on a scratch database, with short
 * intervals, on a transport the test chooses (local by default), and the API side's
 * ConductorApi to talk to it as the API tier does.
 */
import { randomUUID } from 'node:crypto';
import { after, before, describe } from 'node:test';
import type { ConductorLog } from '../../../../src/baremetal/conductor/conductor-context.ts';
import type { RunningConductor } from '../../../../src/baremetal/conductor/conductor-process.ts';
import { startConductor } from '../../../../src/baremetal/conductor/conductor-process.ts';
import {
  type ConductorSettings,
  defaultConductorSettings,
} from '../../../../src/baremetal/conductor/conductor-settings.ts';
import {
  type BaremetalStore,
  type BaremetalTables,
  createBaremetalStore,
  prepareBaremetalDatabase,
} from '../../../../src/baremetal/db/index.ts';
import type { DriverCatalog } from '../../../../src/baremetal/drivers/driver-catalog.ts';
import {
  BAREMETAL_OBJECTS,
  Node,
  type NodeObject,
} from '../../../../src/baremetal/objects/index.ts';
import {
  BAREMETAL_REMOTE_ERRORS,
  CONDUCTOR_RPC,
  CONDUCTOR_TOPIC,
  ConductorApi,
  ConductorRingCache,
  liveConductorsFrom,
} from '../../../../src/baremetal/rpcapi/index.ts';
import { BAREMETAL_SERVICE } from '../../../../src/baremetal/service.ts';
import {
  BAREMETAL_CONDUCTOR_BINARY,
  BAREMETAL_SERVICE_VERSION,
} from '../../../../src/baremetal/service-version.ts';
import {
  type Backend,
  type Database,
  openDatabase,
  registerService,
  type ServiceRegistration,
} from '../../../../src/db/index.ts';
import type { CapsInForce } from '../../../../src/releases/index.ts';
import {
  createTransport,
  LocalBus,
  LocalTransport,
  objectRpcSerializer,
  RpcClient,
  type RpcTransport,
  readRpcConfig,
} from '../../../../src/rpc/index.ts';
import { resolveCapsInForce, servicesTablePeers } from '../../../../src/service/index.ts';
import { BACKENDS, backendAvailable, createScratchDatabase } from '../../../db/support/backends.ts';

/** Intervals short enough for tests; periodic tasks off unless a test turns them on. */
export function testSettings(host: string, overrides: Partial<ConductorSettings> = {}) {
  return {
    ...defaultConductorSettings(host),
    heartbeatInterval: 1,
    heartbeatTimeout: 60,
    checkProvisionStateInterval: 0,
    syncPowerStateInterval: 0,
    powerFailureRecoveryInterval: 0,
    syncLocalStateInterval: 0,
    checkAllocationsInterval: 0,
    nodeLockedRetryAttempts: 1,
    nodeLockedRetryInterval: 0,
    hashRingResetInterval: 0,
    gracefulShutdownTimeout: 10,
    ...overrides,
  } satisfies ConductorSettings;
}

export const UNPINNED: CapsInForce = resolveCapsInForce(BAREMETAL_SERVICE, {});

export function openTestDatabase(url: string): Promise<Database<BaremetalTables>> {
  return prepareBaremetalDatabase(url, { createIfEmpty: true });
}

export interface TestConductor {
  readonly host: string;
  readonly conductor: RunningConductor;
  readonly database: Database<BaremetalTables>;
  readonly store: BaremetalStore;
  /** Stops the conductor and closes its database. */
  stop(): Promise<boolean>;
}

export async function startTestConductor(options: {
  readonly url: string;
  readonly host?: string;
  readonly settings?: Partial<ConductorSettings>;
  readonly transport: RpcTransport;
  readonly caps?: CapsInForce;
  readonly registerService?: boolean;
  /** The hardware types and implementations it may enable (default: Baton's). */
  readonly drivers?: DriverCatalog;
  readonly log?: ConductorLog;
}): Promise<TestConductor> {
  const host = options.host ?? `cond-${randomUUID().slice(0, 8)}`;
  const database = await openTestDatabase(options.url);
  // The services row as the process lifecycle claims it (src/service/process-lifecycle.ts).
  let registration: ServiceRegistration | undefined;
  const conductor = await startConductor({
    settings: testSettings(host, options.settings),
    database,
    caps: options.caps ?? UNPINNED,
    transport: options.transport,
    ...(options.drivers === undefined ? {} : { drivers: options.drivers }),
    ...(options.log === undefined ? {} : { log: options.log }),
    ...(options.registerService
      ? {
          claim: async () => {
            registration = await registerService(database as unknown as Database, {
              binary: BAREMETAL_CONDUCTOR_BINARY,
              host,
              version: BAREMETAL_SERVICE_VERSION,
              claim: {},
            });
          },
        }
      : {}),
  });
  let stopped: Promise<boolean> | undefined;
  return {
    host,
    conductor,
    database,
    store: conductor.store,
    stop() {
      stopped ??= conductor.stop().finally(async () => {
        await registration?.deregister();
        await database.close();
      });
      return stopped;
    },
  };
}

/** The API tier's ConductorApi on `transport`, routing with the rings of `store`. */
export function conductorApi(
  store: BaremetalStore,
  transport: RpcTransport,
  options: {
    readonly caps?: CapsInForce;
    readonly timeoutMs?: number;
    /** Seconds without a heartbeat after which the API leaves a conductor off its rings. */
    readonly heartbeatTimeout?: number;
    /** How long the API keeps its rings (default 0: rebuilt at every call). */
    readonly ringResetIntervalMs?: number;
  } = {},
): ConductorApi {
  const caps = options.caps ?? UNPINNED;
  const client = new RpcClient({
    transport,
    topic: CONDUCTOR_TOPIC,
    version: CONDUCTOR_RPC.latest,
    ...(caps.rpcCap === undefined ? {} : { versionCap: caps.rpcCap }),
    serializer: objectRpcSerializer(BAREMETAL_OBJECTS, caps.objectTargets),
    remoteErrors: BAREMETAL_REMOTE_ERRORS,
    timeoutMs: options.timeoutMs ?? 30_000,
  });
  const rings = new ConductorRingCache(
    async () =>
      liveConductorsFrom(
        await store.conductors.activeHardwareTypes(options.heartbeatTimeout ?? 60, {
          useGroups: true,
        }),
      ),
    { resetIntervalMs: options.ringResetIntervalMs ?? 0 },
  );
  return new ConductorApi({ client, rings });
}

/** A store as the API process has it (at the caps in force). */
export function apiStore(database: Database<BaremetalTables>, caps = UNPINNED): BaremetalStore {
  return createBaremetalStore(database, { targets: caps.objectTargets });
}

/** A local bus and a transport on it (each process of a test gets its own transport). */
export function localTransports(): { bus: LocalBus; transport: () => LocalTransport } {
  const bus = new LocalBus();
  return { bus, transport: () => new LocalTransport(bus) };
}

/** A new fake-hardware node, created through the conductor as the API does. */
export function newNode(fields: Parameters<typeof Node.create>[0] = {}): NodeObject {
  return Node.create({ uuid: randomUUID(), driver: 'fake-hardware', ...fields });
}

const BUSY = [
  'verifying',
  'deploying',
  'cleaning',
  'deleting',
  'inspecting',
  'adopting',
  'rescuing',
  'unrescuing',
];

/** Waits until the conductor's worker pool is idle (its slots free again). */
export async function poolIdle(conductor: TestConductor, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (conductor.conductor.context.pool.busy > 0) {
    if (Date.now() > deadline) throw new Error('the worker pool stayed busy');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Waits until the conductor has let go of the node (no reservation, no transient work). */
export async function settled(
  store: BaremetalStore,
  uuid: string,
  timeoutMs = 10_000,
): Promise<NodeObject> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const node = await store.nodes.get(uuid);
    if (
      node.get('reservation') === null &&
      node.get('target_power_state') === null &&
      !BUSY.includes(String(node.get('provision_state')))
    ) {
      return node;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `node ${uuid} did not settle: ${node.get('provision_state')} reserved by ${node.get('reservation')}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * `describe(<title> [<backend>])` for SQLite, PostgreSQL and MariaDB, each with a scratch
 * database of its own; `cleanup` functions registered by the body run before the database is
 * dropped (conductors stopped first: their heartbeats must not meet a dropped database).
 */
export function forEachConductorBackend(
  title: string,
  body: (ctx: {
    url(): string;
    backend: Backend;
    onCleanup(fn: () => Promise<unknown>): void;
  }) => void,
): void {
  for (const backend of BACKENDS) {
    describe(`${title} [${backend}]`, async () => {
      const unavailable = await backendAvailable(backend);
      if (unavailable !== undefined) {
        describe(unavailable, { skip: unavailable }, () => {});
        return;
      }
      let scratch: { url: string; drop: () => Promise<void> } | undefined;
      const cleanups: (() => Promise<unknown>)[] = [];
      before(async () => {
        scratch = await createScratchDatabase(backend);
      });
      after(async () => {
        for (const cleanup of cleanups.reverse()) await cleanup();
        await scratch?.drop();
      });
      body({
        backend,
        url: () => {
          if (scratch === undefined) throw new Error('scratch database not created yet');
          return scratch.url;
        },
        onCleanup: (fn) => cleanups.push(fn),
      });
    });
  }
}

/**
 * An http RPC transport whose peers are in the services table of the database at `url` (as
 * the composition root builds it), with its own database handle; `close` closes both.
 */
export async function httpTransport(
  url: string,
  liveWithinSeconds = 3,
): Promise<{ transport: RpcTransport; close(): Promise<void> }> {
  const database = await openDatabase(url);
  const transport = createTransport(readRpcConfig({ rpc_transport: 'http' }), {
    peers: servicesTablePeers(database, { heartbeatSeconds: 1, liveWithinSeconds }),
  });
  return {
    transport,
    async close() {
      await transport.close();
      await database.close();
    },
  };
}

/** A conductor log that says nothing (tests that start a process through the root). */
export const SILENT = { info: () => {}, warn: () => {}, error: () => {} };
