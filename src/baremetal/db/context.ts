/**
 * What every part of the store shares: the database, the object versions to write (the caps
 * in force, handed in by the service's composition root; the store never reads a pin), the
 * clock, and the two settings of Ironic's that change what is written.
 */
import type { Database } from '../../db/index.ts';
import type { VersionTargets } from '../../objects/index.ts';
import type { BaremetalTables } from './tables.ts';

export interface StoreOptions {
  /** The object version of each type to write: the caps in force. */
  readonly targets: VersionTargets;
  /** The current time (UTC); the system clock by default. */
  readonly now?: () => Date;
  /** Ironic's `[DEFAULT] log_in_db_max_size`: longer last_error / maintenance_reason are cut (4096). */
  readonly logInDbMaxSize?: number;
  /** Ironic's `[DEFAULT] default_portgroup_mode`, given to a portgroup created without one. */
  readonly defaultPortgroupMode?: string;
}

export interface StoreContext {
  readonly database: Database<BaremetalTables>;
  readonly targets: VersionTargets;
  readonly now: () => Date;
  readonly logInDbMaxSize: number;
  readonly defaultPortgroupMode: string;
}

export function storeContext(
  database: Database<BaremetalTables>,
  options: StoreOptions,
): StoreContext {
  return {
    database,
    targets: options.targets,
    now: options.now ?? (() => new Date()),
    logInDbMaxSize: options.logInDbMaxSize ?? 4096,
    defaultPortgroupMode: options.defaultPortgroupMode ?? 'active-backup',
  };
}

/** The time `seconds` before the store's now. */
export function secondsAgo(ctx: StoreContext, seconds: number): Date {
  return new Date(ctx.now().getTime() - seconds * 1000);
}
