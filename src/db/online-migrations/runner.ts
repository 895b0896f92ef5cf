/**
 * Runs a registry's online data migrations in short batches, each in its own
 * transaction, so no lock is held for long and the services keep serving.
 * A migration is called again until it reports nothing left, `maxCount`
 * rows have been migrated by the run as a whole, or it fails. The run stops
 * at the first migration that does not finish: later ones may depend on it
 * (the last one stamps rows with the latest version). Stopping anywhere is
 * safe: committed batches stay, and the next run carries on from there.
 */
import type { Database } from '../connect.ts';
import {
  type FindIncompatibleOptions,
  findIncompatibleObjectVersions,
} from '../object-versions/index.ts';
import type { LivenessOptions } from '../services/index.ts';
import { inTransaction } from '../transaction.ts';
import { betweenBatches } from './between-batches.ts';
import {
  checkBatchPause,
  checkBatchSize,
  checkMaxCount,
  SINGLE_WRITER_BATCH_PAUSE_MS,
} from './counts.ts';
import { MigrationResultError, NoProgressError } from './errors.ts';
import {
  type MigrationCount,
  type OnlineMigration,
  type OnlineMigrationContext,
  requirementsOf,
} from './online-migration.ts';
import type { OnlineMigrationRegistry } from './registry.ts';
import {
  type MigrationReport,
  ONLINE_MIGRATIONS_EXIT_STATUS,
  type OnlineMigrationsReport,
  outcomeOf,
} from './report.ts';
import { unmetRequirement } from './service-gate.ts';

/** Progress of a run, reported after each batch. */
export interface BatchProgress {
  readonly migration: string;
  /** 1 for a migration's first batch. */
  readonly batch: number;
  /** Rows needing migration when this batch started. */
  readonly total: number;
  /** Rows this batch migrated. */
  readonly migrated: number;
  /** Rows the whole run has migrated so far. */
  readonly runMigrated: number;
}

/** How runOnlineMigrations runs. */
export interface RunOptions extends LivenessOptions {
  /** Stop after this many rows in all (a positive integer); default: run to the end. */
  readonly maxCount?: number;
  /** Rows per batch, that is per transaction (default 50). */
  readonly batchSize?: number;
  /**
   * Milliseconds to wait between two batches, when the write lock is free:
   * default 2 on single-writer backends (SQLite), where other processes'
   * writers would otherwise starve, 0 on the others.
   */
  readonly batchPauseMs?: number;
  /** Called after each batch. */
  readonly onBatch?: (progress: BatchProgress) => void;
  /** Refuse to run (exit 2) when rows are at versions this release cannot read. */
  readonly compatibility?: FindIncompatibleOptions;
  /**
   * Start no batch once this many milliseconds have passed since the run began (the batch in
   * flight finishes): the run ends as if `maxCount` were reached, with `timeLimitReached`.
   */
  readonly maxRunMs?: number;
  /** Milliseconds, for `maxRunMs`; injectable so tests need not wait (default: a monotonic clock). */
  readonly now?: () => number;
  /** How the pause between batches waits; injectable for the same reason. */
  readonly sleep?: (ms: number) => Promise<void>;
}

/**
 * Runs a registry's online migrations in batches until none has work left (or `maxCount` rows are
 * done), and reports each.
 */
export async function runOnlineMigrations(
  db: Database,
  registry: OnlineMigrationRegistry,
  options: RunOptions = {},
): Promise<OnlineMigrationsReport> {
  const maxCount = checkMaxCount(options.maxCount);
  const now = options.now ?? (() => performance.now());
  const startedAt = now();
  let timeLimitReached = false;
  const outOfTime = () => {
    if (options.maxRunMs !== undefined && now() - startedAt >= options.maxRunMs) {
      timeLimitReached = true;
    }
    return timeLimitReached;
  };
  const batchSize = checkBatchSize(options.batchSize);
  const batchPauseMs =
    checkBatchPause(options.batchPauseMs) ??
    (db.caps.singleWriter ? SINGLE_WRITER_BATCH_PAUSE_MS : 0);
  const base = { service: registry.service };
  if (options.compatibility !== undefined) {
    const incompatible = await findIncompatibleObjectVersions(db, options.compatibility);
    if (incompatible.length > 0) {
      const migrations = registry.migrations.map((m) => notRun(m));
      return {
        ...base,
        outcome: 'incompatible',
        exitStatus: 2,
        migrations,
        migrated: 0,
        incompatible,
      };
    }
  }
  const reports: MigrationReport[] = [];
  let runMigrated = 0;
  let stopped = false;
  for (const [index, migration] of registry.migrations.entries()) {
    const budget = maxCount === undefined ? Number.POSITIVE_INFINITY : maxCount - runMigrated;
    if (stopped || budget <= 0 || (index > 0 && outOfTime())) {
      reports.push(notRun(migration));
      continue;
    }
    const report = await runOne(db, registry.service, migration, {
      budget,
      batchSize,
      batchPauseMs,
      options,
      outOfTime,
      onMigrated: (count) => {
        runMigrated += count;
        return runMigrated;
      },
    });
    reports.push(report);
    stopped = report.status !== 'done';
  }
  const outcome = outcomeOf(reports);
  return {
    ...base,
    outcome,
    exitStatus: ONLINE_MIGRATIONS_EXIT_STATUS[outcome],
    migrations: reports,
    migrated: runMigrated,
    ...(timeLimitReached && outcome === 'incomplete' ? { timeLimitReached } : {}),
  };
}

function notRun(migration: OnlineMigration): MigrationReport {
  return {
    name: migration.name,
    description: migration.description,
    status: 'not-run',
    total: 0,
    migrated: 0,
    remaining: undefined,
    batches: 0,
  };
}

interface RunOneState {
  readonly budget: number;
  readonly batchSize: number;
  readonly batchPauseMs: number;
  readonly options: RunOptions;
  /** True once the run's time is up (`maxRunMs`). */
  readonly outOfTime: () => boolean;
  /** Adds to the run's count; returns the run's new total. */
  readonly onMigrated: (count: number) => number;
}

async function runOne(
  db: Database,
  service: string,
  migration: OnlineMigration,
  state: RunOneState,
): Promise<MigrationReport> {
  const requirements = requirementsOf(migration);
  let total: number | undefined;
  let migrated = 0;
  let remaining: number | undefined;
  let batches = 0;
  const report = (status: MigrationReport['status'], extra: Partial<MigrationReport> = {}) => ({
    name: migration.name,
    description: migration.description,
    status,
    total: total ?? 0,
    migrated,
    remaining,
    batches,
    ...extra,
  });
  try {
    for (;;) {
      if (requirements.length > 0) {
        const waitingFor = await unmetRequirement(db, requirements, state.options);
        if (waitingFor !== undefined) return report('waiting', { waitingFor });
      }
      const asked = Math.min(state.batchSize, state.budget - migrated);
      const result = await inTransaction(db, (trx) => {
        const ctx: OnlineMigrationContext = {
          db: trx,
          caps: db.caps,
          service,
          ...(remaining === undefined ? {} : { remainingEstimate: remaining }),
        };
        return migration.run(ctx, asked);
      });
      checkResult(migration.name, result, asked);
      batches++;
      total ??= result.total;
      migrated += result.migrated;
      remaining = Math.max(0, result.total - result.migrated);
      const runMigrated = state.onMigrated(result.migrated);
      state.options.onBatch?.({
        migration: migration.name,
        batch: batches,
        total: result.total,
        migrated: result.migrated,
        runMigrated,
      });
      if (remaining === 0) return report('done');
      if (result.migrated === 0) throw new NoProgressError(migration.name, remaining);
      if (migrated >= state.budget) return report('more');
      await betweenBatches(db, state.batchPauseMs, state.options.sleep);
      if (state.outOfTime()) return report('more');
    }
  } catch (error) {
    return report('failed', { error: error instanceof Error ? error : new Error(String(error)) });
  }
}

function checkResult(name: string, result: MigrationCount, asked: number): void {
  const ok = (n: unknown) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
  if (typeof result !== 'object' || result === null || !ok(result.total) || !ok(result.migrated))
    throw new MigrationResultError(
      name,
      result,
      'total and migrated must be non-negative integers',
    );
  if (result.migrated > asked)
    throw new MigrationResultError(name, result, `migrated more than the ${asked} asked for`);
}
