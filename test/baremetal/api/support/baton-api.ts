/**
 * Baton's bare metal API on a real store for tests: a scratch database (SQLite unless a
 * backend is given) with the schema, the store at the latest object versions, real
 * conductors in this process (host 127.0.0.1, .2 …, as the real harness names them) serving
 * the `local` RPC transport, the API's conductor client on it, and the Fastify app (answered
 * through `app.inject`).
 */

import { after, before, describe } from 'node:test';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { type BaremetalAppOptions, buildBaremetalApp } from '../../../../src/baremetal/api/app.ts';
import {
  type ApiHandlerSettings,
  DEFAULT_API_SETTINGS,
} from '../../../../src/baremetal/api/context.ts';
import { type ListeningApi, listenBaremetalApi } from '../../../../src/baremetal/api/server.ts';
import type { ConductorLog } from '../../../../src/baremetal/conductor/conductor-context.ts';
import {
  type RunningConductor,
  startConductor,
} from '../../../../src/baremetal/conductor/conductor-process.ts';
import {
  type ConductorSettings,
  defaultConductorSettings,
} from '../../../../src/baremetal/conductor/conductor-settings.ts';
import {
  type BaremetalStore,
  type BaremetalTables,
  createBaremetalStore,
  LATEST_VERSIONS,
} from '../../../../src/baremetal/db/index.ts';
import type { DriverCatalog } from '../../../../src/baremetal/drivers/driver-catalog.ts';
import { BAREMETAL_MIGRATIONS } from '../../../../src/baremetal/migrations/index.ts';
import { BAREMETAL_OBJECTS } from '../../../../src/baremetal/objects/index.ts';
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
  type Backend,
  type Database,
  migrateToLatest,
  openDatabase,
} from '../../../../src/db/index.ts';
import type { CapsInForce } from '../../../../src/releases/index.ts';
import {
  LocalBus,
  LocalTransport,
  objectRpcSerializer,
  RpcClient,
} from '../../../../src/rpc/index.ts';
import { HealthState, resolveCapsInForce } from '../../../../src/service/index.ts';
import { BACKENDS, backendAvailable, createScratchDatabase } from '../../../db/support/backends.ts';

export interface BatonApi {
  readonly app: FastifyInstance;
  readonly store: BaremetalStore;
  readonly db: Database<BaremetalTables>;
  readonly bus: LocalBus;
  readonly health: HealthState;
  readonly conductors: readonly RunningConductor[];
  /** One request; the body as JSON when it is JSON. */
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface BatonApiOptions {
  readonly backend?: Backend;
  readonly apiMax?: string;
  readonly settings?: Partial<ApiHandlerSettings>;
  /** Conductors to start (1 by default; 0 for none). */
  readonly conductors?: number;
  /** Conductor settings besides the host (automated cleaning, intervals…). */
  readonly conductor?: Partial<ConductorSettings>;
  /** The caps in force (unpinned by default). */
  readonly caps?: CapsInForce;
  /** Token validation and policy (`auth_strategy = keystone`); absent: noauth. */
  readonly auth?: BaremetalAppOptions['auth'];
  /** Hardware types and implementations of the conductors and the API (Baton's own by default). */
  readonly drivers?: DriverCatalog;
  /** Where the conductors' log lines go (nowhere by default). */
  readonly conductorLog?: ConductorLog;
}

/** The caps of an unpinned process. */
export function unpinnedCaps(): CapsInForce {
  return resolveCapsInForce(BAREMETAL_SERVICE, {});
}

/** The caps of a process pinned to a release (`pin_release_version`), e.g. `zed`. */
export function pinnedCaps(release: string): CapsInForce {
  return resolveCapsInForce(BAREMETAL_SERVICE, { flag: release });
}

export async function startBatonApi(options: BatonApiOptions = {}): Promise<BatonApi> {
  const scratch = await createScratchDatabase(options.backend ?? 'sqlite');
  const db = (await openDatabase(scratch.url)) as unknown as Database<BaremetalTables>;
  const migrated = await migrateToLatest(db as unknown as Database, BAREMETAL_MIGRATIONS);
  if (migrated.error) throw migrated.error;
  const caps = options.caps ?? unpinnedCaps();
  // The API process writes its own rows (chassis, portgroups) at the caps in force, as the
  // conductors write theirs.
  const store = createBaremetalStore(db, {
    targets: options.caps === undefined ? LATEST_VERSIONS : caps.objectTargets,
  });
  const settings = { ...DEFAULT_API_SETTINGS, ...options.settings };
  const bus = new LocalBus();
  const conductors: RunningConductor[] = [];
  for (let i = 1; i <= (options.conductors ?? 1); i++) {
    conductors.push(
      await startConductor({
        settings: {
          ...defaultConductorSettings(`127.0.0.${i}`),
          heartbeatTimeout: settings.heartbeatTimeout,
          // Tests stop conductors often: no ring grace period to wait out.
          hashRingResetInterval: 0,
          ...options.conductor,
        },
        database: db,
        caps,
        transport: new LocalTransport(bus),
        ...(options.drivers === undefined ? {} : { drivers: options.drivers }),
        ...(options.conductorLog === undefined ? {} : { log: options.conductorLog }),
      }),
    );
  }
  const health = new HealthState();
  const app = await buildApiApp(bus, caps, {
    store,
    settings,
    health,
    ...(options.drivers === undefined ? {} : { drivers: options.drivers }),
    apiMax: options.apiMax ?? caps.apiMax,
    ...(options.auth === undefined ? {} : { auth: options.auth }),
  });
  return {
    app,
    store,
    db,
    bus,
    health,
    conductors,
    request: (request) => app.inject(request),
    async close() {
      await app.close();
      for (const conductor of conductors) await conductor.stop();
      await db.close();
      await scratch.drop();
    },
  };
}

interface ApiAppParts {
  readonly store: BaremetalStore;
  readonly settings: ApiHandlerSettings;
  readonly health: HealthState;
  readonly apiMax: string | undefined;
  readonly auth?: BaremetalAppOptions['auth'];
  readonly drivers?: DriverCatalog;
}

/** An API app on the store and RPC bus given, sending at `caps`. */
async function buildApiApp(
  bus: LocalBus,
  caps: CapsInForce,
  parts: ApiAppParts,
): Promise<FastifyInstance> {
  const client = new RpcClient({
    transport: new LocalTransport(bus),
    topic: CONDUCTOR_TOPIC,
    version: CONDUCTOR_RPC.latest,
    ...(caps.rpcCap === undefined ? {} : { versionCap: caps.rpcCap }),
    serializer: objectRpcSerializer(BAREMETAL_OBJECTS, caps.objectTargets),
    remoteErrors: BAREMETAL_REMOTE_ERRORS,
  });
  const store = parts.store;
  const rings = new ConductorRingCache(
    async () =>
      liveConductorsFrom(
        await store.conductors.activeHardwareTypes(parts.settings.heartbeatTimeout, {
          useGroups: true,
        }),
      ),
    { resetIntervalMs: 0 },
  );
  return buildBaremetalApp({
    services: {
      store,
      conductors: new ConductorApi({ client, rings }),
      settings: parts.settings,
      ...(parts.drivers === undefined ? {} : { drivers: parts.drivers }),
    },
    apiMax: parts.apiMax,
    operations: { health: parts.health },
    ...(parts.auth === undefined ? {} : { auth: parts.auth }),
  });
}

/**
 * A second API process beside a running one: same database and conductors, its own caps (an
 * API pinned to zed beside an unpinned one, as in step 3.3 of a rolling upgrade).
 */
export async function startSecondApi(
  baton: BatonApi,
  caps: CapsInForce,
): Promise<{
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}> {
  const store = createBaremetalStore(baton.db, { targets: caps.objectTargets });
  const app = await buildApiApp(baton.bus, caps, {
    store,
    settings: DEFAULT_API_SETTINGS,
    health: new HealthState(),
    apiMax: caps.apiMax,
  });
  return { request: (request) => app.inject(request), close: () => app.close() };
}

/**
 * Declares `describe(<title> [<backend>])` for SQLite, PostgreSQL and MariaDB, each with an
 * API (and its conductors) on a scratch database of that backend, closed before the database
 * is dropped. An unreachable server skips its suite with the reason, except under CI=true.
 */
export function forEachApiBackend(
  title: string,
  body: (api: () => BatonApi, backend: Backend) => void,
  options: Omit<BatonApiOptions, 'backend'> = {},
): void {
  for (const backend of BACKENDS) {
    describe(`${title} [${backend}]`, async () => {
      const unavailable = await backendAvailable(backend);
      if (unavailable !== undefined) {
        describe(unavailable, { skip: unavailable }, () => {});
        return;
      }
      let api: BatonApi | undefined;
      before(async () => {
        api = await startBatonApi({ ...options, backend });
      });
      after(() => api?.close());
      body(() => {
        if (api === undefined) throw new Error('the API has not started');
        return api;
      }, backend);
    });
  }
}

/**
 * Baton's API listening on a free port of the loopback (for a real client), serving versions
 * up to `apiMax` (undefined: as the caps in force decide).
 */
export function listenOnLoopback(
  baton: BatonApi,
  apiMax: string | undefined,
): Promise<ListeningApi> {
  return listenBaremetalApi({ services: baton.app.baremetal, apiMax, host: '127.0.0.1', port: 0 });
}
