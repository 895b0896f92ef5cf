/**
 * What a run of the online data migrations reports, and the exit status of
 * the real `ironic-dbsync online_data_migrations` it maps to:
 *   0  every migration is done;
 *   1  rows remain: `maxCount` was reached, or a migration is waiting for
 *      services to be upgraded; run again (later);
 *   2  a migration failed, or rows are at versions this release cannot read.
 */
import type { IncompatibleObjectVersion } from '../object-versions/index.ts';
import type { WaitingFor } from './service-gate.ts';

/** Where one online migration stands after a run. */
export type MigrationStatus =
  /** Nothing left. */
  | 'done'
  /** Stopped at `maxCount` with rows left. */
  | 'more'
  /** Gated on service versions (the service-version spec); rows may be left. */
  | 'waiting'
  /** Threw, or broke its contract; its last batch was rolled back. */
  | 'failed'
  /** Not reached: an earlier migration stopped the run, or `maxCount` was used up. */
  | 'not-run';

/** One online migration's line of the report. */
export interface MigrationReport {
  readonly name: string;
  readonly description: string;
  readonly status: MigrationStatus;
  /** Rows needing migration when it started (0 when not run). */
  readonly total: number;
  /** Rows it migrated in this run. */
  readonly migrated: number;
  /** Rows left after its last batch; undefined when not run or failed before a count. */
  readonly remaining: number | undefined;
  readonly batches: number;
  readonly waitingFor?: WaitingFor;
  readonly error?: Error;
}

/** How a run of the online migrations ended. */
export type RunOutcome = 'complete' | 'incomplete' | 'waiting' | 'failed' | 'incompatible';

/** What a run of the online migrations did, migration by migration. */
export interface OnlineMigrationsReport {
  readonly service: string;
  readonly outcome: RunOutcome;
  readonly exitStatus: 0 | 1 | 2;
  readonly migrations: readonly MigrationReport[];
  /** Rows migrated by every migration together. */
  readonly migrated: number;
  /** Set when the run was refused because rows are at versions this release cannot read. */
  readonly incompatible?: readonly IncompatibleObjectVersion[];
  /** Set when the run stopped, rows left, because its time (`maxRunMs`) was up. */
  readonly timeLimitReached?: true;
}

/**
 * The exit status of `db online-migrations` for each outcome (Ironic's: 0 done, 1 more to do, 2
 * failed or refused).
 */
export const ONLINE_MIGRATIONS_EXIT_STATUS: Readonly<Record<RunOutcome, 0 | 1 | 2>> = {
  complete: 0,
  incomplete: 1,
  waiting: 1,
  failed: 2,
  incompatible: 2,
};

/** The run's outcome from its migrations: the first one that did not finish decides. */
export function outcomeOf(migrations: readonly MigrationReport[]): RunOutcome {
  for (const m of migrations) {
    if (m.status === 'failed') return 'failed';
    if (m.status === 'waiting') return 'waiting';
    if (m.status === 'more' || m.status === 'not-run') return 'incomplete';
  }
  return 'complete';
}
