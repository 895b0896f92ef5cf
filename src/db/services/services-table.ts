/**
 * `baton_services` (the service-version spec): one row per running service process, with the
 * integer service version it runs and when it last said it was alive. It is
 * toolkit bookkeeping, created on first use rather than by a service's
 * schema migrations, so every service gets it the same way.
 *
 * Times are epoch milliseconds in a bigint column: the same on the three
 * backends, no driver time-zone conversion, and the comparison "seen in the
 * last N seconds" is plain integer arithmetic.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../connect.ts';
import { migrateToLatest } from '../migrations/runner.ts';
import { SERVICES_SCHEMA } from './services-schema.ts';

/** The services table's name. */
export const SERVICES_TABLE = 'baton_services';

export interface ServiceRow {
  id: string;
  binary: string;
  host: string;
  version: number;
  started_at: number | string;
  last_seen: number | string;
  /** Where the service listens for RPC (http transport); added by SERVICES_SCHEMA. */
  rpc_address: string | null;
  /** The process's `pin_release_version`; NULL when unpinned or unknown (older code). */
  pin_release: string | null;
  /** The release its caps in force are at; NULL for its own (latest) or unknown. */
  caps_release: string | null;
  /** The process that claimed the identity, and the machine it runs on (NULL: older code). */
  pid: number | null;
  machine: string | null;
  /** `starting`, `serving` or `stopping`; NULL for older code. */
  state: string | null;
  /** Where it serves (an API's URL), when it serves HTTP. */
  address: string | null;
  /** The config files it read, newline-separated. */
  config_files: string | null;
  /** Why it cannot do its work, as its last heartbeat said; NULL when healthy. */
  health: string | null;
}

export interface ServicesTables {
  baton_services: ServiceRow;
}

/** The database's Kysely typed for the services table. */
export function servicesKysely(db: Database): Kysely<ServicesTables> {
  return db.kysely as unknown as Kysely<ServicesTables>;
}

const ensured = new WeakSet<Database>();

/**
 * Creates `baton_services` unless it exists, then applies its migrations
 * (SERVICES_SCHEMA); cheap after the first call on a handle.
 */
export async function ensureServicesTable(db: Database): Promise<void> {
  if (ensured.has(db)) return;
  const kysely = servicesKysely(db);
  try {
    await kysely.schema
      .createTable(SERVICES_TABLE)
      .ifNotExists()
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('binary', 'varchar(255)', (c) => c.notNull())
      .addColumn('host', 'varchar(255)', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('started_at', 'bigint', (c) => c.notNull())
      .addColumn('last_seen', 'bigint', (c) => c.notNull())
      // One row per process identity: a restarted process replaces its row.
      .addUniqueConstraint('baton_services_binary_host_uq', ['binary', 'host'])
      .execute();
  } catch (error) {
    // Two processes creating it at once: PostgreSQL may fail the loser even
    // with IF NOT EXISTS. The table being there is all that matters.
    if (!(await tableIsThere(kysely))) throw error;
  }
  const migrated = await migrateToLatest(db, SERVICES_SCHEMA);
  if (migrated.error !== undefined) throw migrated.error;
  ensured.add(db);
}

async function tableIsThere(kysely: Kysely<ServicesTables>): Promise<boolean> {
  try {
    await kysely.selectFrom(SERVICES_TABLE).select('id').limit(1).execute();
    return true;
  } catch {
    return false;
  }
}

/** A bigint column value as a number (pg returns bigint as a string). */
export function millis(value: number | string | bigint): number {
  return Number(value);
}
