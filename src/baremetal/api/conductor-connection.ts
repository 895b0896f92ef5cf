/**
 * The API tier's way to the conductors: a store writing at the caps in force, an RPC client
 * capped at them (asked at each send, so caps refreshed on SIGHUP apply at once), and the hash
 * ring that routes each node to its conductor.
 */
import type { Database } from '../../db/index.ts';
import type { CapsInForce } from '../../releases/index.ts';
import {
  objectRpcSerializer,
  RpcClient,
  type RpcObserver,
  type RpcTransport,
} from '../../rpc/index.ts';
import type { BaremetalConfig } from '../config.ts';
import { type BaremetalStore, type BaremetalTables, createBaremetalStore } from '../db/index.ts';
import { BAREMETAL_OBJECTS } from '../objects/index.ts';
import {
  BAREMETAL_REMOTE_ERRORS,
  CONDUCTOR_RPC,
  CONDUCTOR_TOPIC,
  ConductorApi,
  ConductorRingCache,
  liveConductorsFrom,
} from '../rpcapi/index.ts';

/** The API tier's way to the conductors: a store at the caps and a capped RPC client. */
export interface ConductorConnection {
  readonly store: BaremetalStore;
  readonly conductors: ConductorApi;
}

/** Builds the API's RPC client and conductor routing on an open database and transport. */
export function connectToConductors(
  database: Database<BaremetalTables>,
  transport: RpcTransport,
  plan: { readonly caps: CapsInForce; readonly config: BaremetalConfig },
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
