/**
 * A conductor process from start to stop (Ironic's RPCService and BaseConductorManager).
 *
 * Start: its identity claimed (a live conductor of the same host refuses it before anything is
 * written), the RPC server listens on the conductor topic as server `[DEFAULT] host`, its own
 * stale reservations and power targets are cleared (it may have died), the conductor
 * registers in the conductors table (online, its hardware types and group; a row left online
 * by a crash is taken over) with its hardware interfaces, and in the services table; nodes
 * mapped here that a dead conductor left in a state nobody can resume are failed; the
 * periodic tasks start.
 *
 * Stop (SIGTERM), so that no API request fails while conductors restart one at a time:
 *   1. the periodic tasks stop (the heartbeat first of all: a late heartbeat would put the
 *      row back online);
 *   2. the conductor goes offline in the conductors table: every API's hash ring drops it at
 *      its next rebuild (at most `[DEFAULT] hash_ring_reset_interval` later, at once on a
 *      miss), and its nodes map to the other conductors;
 *   3. while another conductor is alive, it keeps serving RPC for hash_ring_reset_interval
 *      more (+1 s), so calls routed by a ring built before step 2 are still answered, on
 *      both transports (amqp would otherwise leave them waiting in its queue);
 *   4. the RPC server stops (calls in hand finish; http peers then find it gone and the API
 *      retries on the node's new conductor);
 *   5. work in the pool finishes, within `[DEFAULT] graceful_shutdown_timeout` from the
 *      signal; the reservations of finished work are released by the work itself, and any
 *      work still running keeps its node reserved, so that the conductor taking the node
 *      over fails it properly (a clean stop never leaves a node reserved otherwise);
 *   6. it leaves the services table and closes the database (the process lifecycle,
 *      src/service/process-lifecycle.ts).
 */

import type { Database } from '../../db/index.ts';
import type { CapsInForce } from '../../releases/index.ts';
import {
  objectRpcSerializer,
  type RpcLogger,
  type RpcObserver,
  RpcServer,
  type RpcTransport,
} from '../../rpc/index.ts';
import { ConductorAlreadyRegisteredError, NotFoundError } from '../common/errors.ts';
import { Turns } from '../common/turns.ts';
import { type BaremetalStore, type BaremetalTables, createBaremetalStore } from '../db/index.ts';
import { BUILTIN_DRIVERS, type DriverCatalog } from '../drivers/driver-catalog.ts';
import { DriverFactory } from '../drivers/driver-factory.ts';
import type { HardwareInterfaceRow } from '../drivers/enabled-interfaces.ts';
import { BAREMETAL_OBJECTS, type ConductorObject } from '../objects/index.ts';
import { ConductorRingCache, liveConductorsFrom } from '../rpcapi/ring-cache.ts';
import { CONDUCTOR_TOPIC } from '../rpcapi/versions.ts';
import { type ConductorContext, type ConductorLog, SILENT_LOG } from './conductor-context.ts';
import { conductorEndpoint } from './conductor-endpoint.ts';
import type { ConductorSettings } from './conductor-settings.ts';
import { LocalReservations } from './local-reservations.ts';
import { conductorPeriodicTasks, PeriodicRunner } from './periodic-tasks.ts';
import { failTransientStates } from './takeover.ts';
import { WorkerPool } from './worker-pool.ts';

export interface StartConductorOptions {
  readonly settings: ConductorSettings;
  readonly database: Database<BaremetalTables>;
  /** The caps in force (the composition root resolved them): object versions written and sent. */
  readonly caps: CapsInForce;
  readonly transport: RpcTransport;
  readonly log?: ConductorLog;
  /**
   * Claims the process's identity (the lifecycle's `ctx.claim`), called before the RPC server
   * binds and anything is written; left out, nothing is claimed (tests of the manager alone).
   */
  readonly claim?: () => Promise<void>;
  /** RPC metrics and logs (the process's operations). */
  readonly rpcObserver?: RpcObserver;
  readonly rpcLogger?: RpcLogger;
  /** The hardware types and implementations it may enable (tests add their own). */
  readonly drivers?: DriverCatalog;
}

export interface RunningConductor {
  readonly context: ConductorContext;
  readonly store: BaremetalStore;
  /** The shutdown sequence above; resolves true when no work was left behind. */
  stop(): Promise<boolean>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startConductor(options: StartConductorOptions): Promise<RunningConductor> {
  const { settings, database, caps, transport } = options;
  const log = options.log ?? SILENT_LOG;
  // Nothing is written before the configuration's hardware is known to be usable.
  const { drivers, interfaceRows } = loadDrivers(options.drivers ?? BUILTIN_DRIVERS, settings, log);
  const store = createBaremetalStore(database, { targets: caps.objectTargets });
  const rings = new ConductorRingCache(
    async () =>
      liveConductorsFrom(
        await store.conductors.activeHardwareTypes(settings.heartbeatTimeout, { useGroups: true }),
      ),
    {
      resetIntervalMs: settings.hashRingResetInterval * 1000,
      ring: { partitionExponent: settings.hashPartitionExponent },
    },
  );
  const ctx: ConductorContext = {
    settings,
    store,
    drivers,
    pool: new WorkerPool(settings.workersPoolSize),
    rings,
    log,
    reservations: new LocalReservations(
      {
        uuidOf: async (ident) => String((await store.nodes.get(ident)).get('uuid')),
        release: (ident) => store.reservations.release(settings.host, ident),
      },
      log,
    ),
    turns: new Turns(),
    conductorId: undefined,
    stopping: false,
  };
  const host = settings.host;
  // The identity first: a second conductor of the same host stops here, having changed
  // nothing (it used to clear the first one's reservations on its way to EADDRINUSE).
  await options.claim?.();

  const server = new RpcServer({
    transport,
    topic: CONDUCTOR_TOPIC,
    server: host,
    endpoints: [conductorEndpoint(ctx)],
    serializer: objectRpcSerializer(BAREMETAL_OBJECTS, caps.objectTargets),
    ...(options.rpcObserver === undefined ? {} : { observer: options.rpcObserver }),
    ...(options.rpcLogger === undefined ? {} : { logger: options.rpcLogger }),
    onCastFailure: (method, reply) =>
      log.error(`cast ${method} failed: ${reply.ok ? '' : reply.failure.message}`),
  });
  await server.start();

  try {
    // prepare_host: what a previous life of this conductor left, now that it is ours.
    await store.reservations.clearTargetPowerState(host);
    await store.reservations.clearForHosts([host]);
    const registered = {
      hostname: host,
      drivers: drivers.hardwareTypes.map((type) => type.name),
      conductor_group: settings.conductorGroup,
    };
    let conductor: ConductorObject;
    try {
      conductor = await store.conductors.register(registered);
    } catch (error) {
      if (!(error instanceof ConductorAlreadyRegisteredError)) throw error;
      log.warn(
        `A conductor with hostname ${host} was previously registered. Updating registration`,
      );
      conductor = await store.conductors.register(registered, { updateExisting: true });
    }
    const conductorId = Number(conductor.get('id'));
    ctx.conductorId = conductorId;
    await store.conductors.unregisterHardwareInterfaces(conductorId);
    await store.conductors.registerHardwareInterfaces(
      conductorId,
      interfaceRows.map((row) => ({
        hardware_type: row.hardwareType,
        interface_type: row.interfaceType,
        interface_name: row.interfaceName,
        default: row.default,
      })),
    );
    await failTransientStates(ctx);
  } catch (error) {
    await server.stop();
    throw error;
  }

  const heartbeat = async () => {
    try {
      await store.conductors.touch(host);
    } catch (error) {
      log.warn(`Error while heartbeating: ${(error as Error).message}`);
    }
  };
  const periodic = new PeriodicRunner(conductorPeriodicTasks(ctx, heartbeat), (task, error) =>
    log.error(`periodic task ${task} failed: ${(error as Error).message}`),
  );
  periodic.start();

  let stopping: Promise<boolean> | undefined;
  const stop = () => {
    stopping ??= (async () => {
      const started = Date.now();
      ctx.stopping = true;
      await periodic.stop();
      try {
        await store.conductors.unregister(host);
      } catch (error) {
        if (!(error instanceof NotFoundError)) throw error;
      }
      const offlineAt = Date.now();
      log.info(`conductor ${host} is offline; draining`);
      const others = (await store.conductors.active(settings.heartbeatTimeout)).filter(
        (name) => name !== host,
      );
      if (others.length > 0) {
        const grace = (settings.hashRingResetInterval + 1) * 1000 - (Date.now() - offlineAt);
        if (grace > 0) await sleep(grace);
      }
      await server.stop();
      ctx.pool.close();
      const left = settings.gracefulShutdownTimeout * 1000 - (Date.now() - started);
      const drained = await ctx.pool.drain(Math.max(0, left));
      if (!drained) {
        log.warn(
          `work still running after graceful_shutdown_timeout (${settings.gracefulShutdownTimeout} s): its nodes stay reserved for the conductor taking them over`,
        );
      }
      // What a cut connection left in our name is cleared by the live conductors from now on.
      ctx.reservations.stop();
      return drained;
    })();
    return stopping;
  };
  return { context: ctx, store, stop };
}

/**
 * A conductor cannot serve the hardware its configuration enables (an unknown name, a default
 * that is not enabled...): its start stops with the real error as `cause` and its message.
 */
export class ConductorDriversError extends Error {
  override name = 'ConductorDriversError';
  constructor(cause: Error) {
    super(cause.message, { cause });
  }
}

/**
 * The hardware types and interfaces the settings enable, and the rows to register for them,
 * or the ConductorDriversError that stops the conductor, logged as the real one logs it.
 */
function loadDrivers(
  catalog: DriverCatalog,
  settings: ConductorSettings,
  log: ConductorLog,
): { drivers: DriverFactory; interfaceRows: HardwareInterfaceRow[] } {
  let drivers: DriverFactory;
  try {
    const options = {
      fake: settings.fakeDelays,
      ipmi: {
        ...settings.ipmi,
        powerStateChangeTimeout: settings.powerStateChangeTimeout,
        softPowerOffTimeout: settings.softPowerOffTimeout,
      },
      pxe: { ...settings.pxe, automatedClean: settings.automatedClean },
      log,
    };
    drivers = DriverFactory.load(catalog, settings, options, settings.host);
  } catch (error) {
    log.error(`Error starting the conductor: ${(error as Error).message}`);
    throw new ConductorDriversError(error as Error);
  }
  try {
    return { drivers, interfaceRows: drivers.registrationRows() };
  } catch (error) {
    log.error(`Failed to register hardware types. ${(error as Error).message}`);
    throw new ConductorDriversError(error as Error);
  }
}
