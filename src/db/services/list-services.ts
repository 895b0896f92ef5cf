/** Every registered service with its live/dead state, for operators and checks. */
import type { Database } from '../connect.ts';
import { type LivenessOptions, liveSince } from './liveness.ts';
import {
  ensureServicesTable,
  millis,
  SERVICES_TABLE,
  type ServiceRow,
  servicesKysely,
} from './services-table.ts';

/** A row of the services table, as listServices reads it. */
export interface ServiceRecord {
  readonly id: string;
  readonly binary: string;
  readonly host: string;
  readonly version: number;
  readonly startedAt: Date;
  readonly lastSeen: Date;
  /** Seen within the liveness window. */
  readonly live: boolean;
  /** Where it listens for RPC, when it registered an address. */
  readonly rpcAddress?: string;
  /** Its `pin_release_version`, when it registered one. */
  readonly pinRelease?: string;
  /** The release its caps in force are at, when below its own code's. */
  readonly capsRelease?: string;
  /** The process holding the row, the machine it runs on, its state and where it serves. */
  readonly pid?: number;
  readonly machine?: string;
  readonly state?: string;
  readonly address?: string;
  readonly configFiles?: readonly string[];
  /** Why it cannot do its work, as its last heartbeat said; absent when healthy. */
  readonly health?: string;
}

export function serviceRecord(row: ServiceRow, since: number): ServiceRecord {
  const lastSeen = millis(row.last_seen);
  return {
    id: row.id,
    binary: row.binary,
    host: row.host,
    version: Number(row.version),
    startedAt: new Date(millis(row.started_at)),
    lastSeen: new Date(lastSeen),
    live: lastSeen >= since,
    ...(row.rpc_address ? { rpcAddress: row.rpc_address } : {}),
    ...(row.pin_release ? { pinRelease: row.pin_release } : {}),
    ...(row.caps_release ? { capsRelease: row.caps_release } : {}),
    ...(row.pid === null || row.pid === undefined ? {} : { pid: Number(row.pid) }),
    ...(row.machine ? { machine: row.machine } : {}),
    ...(row.state ? { state: row.state } : {}),
    ...(row.address ? { address: row.address } : {}),
    ...(row.config_files ? { configFiles: row.config_files.split('\n') } : {}),
    ...(row.health ? { health: row.health } : {}),
  };
}

/** All services, live and dead, ordered by binary then host. */
export async function listServices(
  db: Database,
  options: LivenessOptions = {},
): Promise<ServiceRecord[]> {
  const since = liveSince(options);
  await ensureServicesTable(db);
  const rows = await servicesKysely(db)
    .selectFrom(SERVICES_TABLE)
    .selectAll()
    .orderBy('binary')
    .orderBy('host')
    .execute();
  return rows.map((row) => serviceRecord(row, since));
}
