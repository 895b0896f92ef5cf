/**
 * Baton's bare metal API on a real store for tests: a scratch database (SQLite unless a
 * backend is given) with the schema, the store at the latest object versions, a conductor
 * RPC client on the `local` transport whose ring reads the live conductors of the database,
 * and the Fastify app (answered through `app.inject`).
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildBaremetalApp } from '../../../../src/baremetal/api/app.ts';
import {
  type BaremetalApiSettings,
  DEFAULT_API_SETTINGS,
} from '../../../../src/baremetal/api/context.ts';
import { HealthState } from '../../../../src/baremetal/api/healthcheck.ts';
import {
  type BaremetalStore,
  type BaremetalTables,
  createBaremetalStore,
  LATEST_VERSIONS,
} from '../../../../src/baremetal/db/index.ts';
import {
  hardwareInterfaceRows,
  STANDALONE_ENABLED_INTERFACES,
} from '../../../../src/baremetal/drivers/enabled-interfaces.ts';
import {
  FAKE_HARDWARE,
  FAKE_HARDWARE_SUPPORTED,
} from '../../../../src/baremetal/drivers/fake-hardware.ts';
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
import {
  type Backend,
  type Database,
  migrateToLatest,
  openDatabase,
} from '../../../../src/db/index.ts';
import {
  LocalBus,
  LocalTransport,
  objectRpcSerializer,
  RpcClient,
} from '../../../../src/rpc/index.ts';
import { createScratchDatabase } from '../../../db/support/backends.ts';

export interface BatonApi {
  readonly app: FastifyInstance;
  readonly store: BaremetalStore;
  readonly db: Database<BaremetalTables>;
  readonly bus: LocalBus;
  readonly health: HealthState;
  /** One request; the body as JSON when it is JSON. */
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export interface BatonApiOptions {
  readonly backend?: Backend;
  readonly apiMax?: string;
  readonly settings?: Partial<BaremetalApiSettings>;
}

export async function startBatonApi(options: BatonApiOptions = {}): Promise<BatonApi> {
  const scratch = await createScratchDatabase(options.backend ?? 'sqlite');
  const db = (await openDatabase(scratch.url)) as unknown as Database<BaremetalTables>;
  const migrated = await migrateToLatest(db as unknown as Database, BAREMETAL_MIGRATIONS);
  if (migrated.error) throw migrated.error;
  const store = createBaremetalStore(db, { targets: LATEST_VERSIONS });
  const settings = { ...DEFAULT_API_SETTINGS, ...options.settings };
  const bus = new LocalBus();
  const client = new RpcClient({
    transport: new LocalTransport(bus),
    topic: CONDUCTOR_TOPIC,
    version: CONDUCTOR_RPC.latest,
    serializer: objectRpcSerializer(BAREMETAL_OBJECTS),
    remoteErrors: BAREMETAL_REMOTE_ERRORS,
  });
  const rings = new ConductorRingCache(async () =>
    liveConductorsFrom(
      await store.conductors.activeHardwareTypes(settings.heartbeatTimeout, { useGroups: true }),
    ),
  );
  const health = new HealthState();
  const app = await buildBaremetalApp({
    services: { store, conductors: new ConductorApi({ client, rings }), settings },
    apiMax: options.apiMax,
    health,
  });
  return {
    app,
    store,
    db,
    bus,
    health,
    request: (request) => app.inject(request),
    async close() {
      await app.close();
      await db.close();
      await scratch.drop();
    },
  };
}

/** Registers a conductor (alive now) running fake-hardware as the standalone setup enables it. */
export async function registerFakeConductor(
  store: BaremetalStore,
  hostname: string,
  conductorGroup = '',
): Promise<void> {
  const conductor = await store.conductors.register({
    hostname,
    // The real conductor lists its enabled hardware types here.
    drivers: [FAKE_HARDWARE],
    conductor_group: conductorGroup,
  });
  const rows = hardwareInterfaceRows(
    FAKE_HARDWARE,
    FAKE_HARDWARE_SUPPORTED,
    STANDALONE_ENABLED_INTERFACES,
  );
  await store.conductors.registerHardwareInterfaces(
    Number(conductor.get('id')),
    rows.map((row) => ({
      hardware_type: row.hardwareType,
      interface_type: row.interfaceType,
      interface_name: row.interfaceName,
      default: row.default,
    })),
  );
}
