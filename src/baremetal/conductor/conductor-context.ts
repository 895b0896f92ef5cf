/**
 * What every part of a conductor shares: its settings, the store (writing at the caps in
 * force), the hardware types and interfaces it loaded, the worker pool, the rings it checks
 * its nodes against, its log, and its row id once registered. Built once by the conductor
 * process (conductor-process.ts).
 */

import type { Turns } from '../common/turns.ts';
import type { BaremetalStore } from '../db/index.ts';
import type { DriverFactory } from '../drivers/driver-factory.ts';
import type { ConductorRingCache } from '../rpcapi/ring-cache.ts';
import type { ConductorSettings } from './conductor-settings.ts';
import type { LocalReservations } from './local-reservations.ts';
import type { WorkerPool } from './worker-pool.ts';

export interface ConductorLog {
  /** Detail shown only when the service logs at debug level (`--debug`): ipmitool command lines. */
  debug?(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export const SILENT_LOG: ConductorLog = { info: () => {}, warn: () => {}, error: () => {} };

export interface ConductorContext {
  readonly settings: ConductorSettings;
  readonly store: BaremetalStore;
  /** What the conductor offers, and how a node's driver is composed (driver-factory.ts). */
  readonly drivers: DriverFactory;
  readonly pool: WorkerPool;
  readonly rings: ConductorRingCache;
  readonly log: ConductorLog;
  /** The reservations its tasks hold, and those a cut connection may have left in its name. */
  readonly reservations: LocalReservations;
  /** The order in which this conductor's tasks take a node one of them holds. */
  readonly turns: Turns;
  /** This conductor's row in the conductors table (the nodes' `conductor_affinity`). */
  conductorId: number | undefined;
  /** Set when the conductor stops: periodic tasks stop walking nodes. */
  stopping: boolean;
}
