/**
 * `baton db online-migrations [--max-count N]`: runs the service's online
 * data migrations in short batches, with a progress bar on a terminal and a
 * line per batch otherwise, then a table per migration. Exit status as
 * `ironic-dbsync online_data_migrations`: 0 done, 1 more remains, 2 failed.
 */
import { SingleBar } from 'cli-progress';
import {
  type BatchProgress,
  InvalidMaxCountError,
  parseMaxCount,
  renderOnlineMigrationsReport,
  runOnlineMigrations,
} from '../db/index.ts';
import { MASTER } from '../releases/index.ts';
import { usageError } from './cli-error.ts';
import { type DatabaseOptions, withServiceDatabase } from './command-context.ts';

export interface OnlineMigrationOptions extends DatabaseOptions {
  readonly maxCount?: string;
  readonly batchSize?: string;
}

function progressReporter(out: (line: string) => void): {
  onBatch: (p: BatchProgress) => void;
  stop: () => void;
} {
  if (!process.stdout.isTTY) {
    return {
      onBatch: (p) =>
        out(
          `${p.migration}: batch ${p.batch} migrated ${p.migrated} of ${p.total} (run total ${p.runMigrated})`,
        ),
      stop: () => {},
    };
  }
  const bar = new SingleBar({
    format: '{migration} [{bar}] {value}/{total} rows',
    hideCursor: true,
  });
  let current: string | undefined;
  let done = 0;
  return {
    onBatch: (p) => {
      if (p.migration !== current) {
        if (current !== undefined) bar.stop();
        current = p.migration;
        done = 0;
        bar.start(Math.max(p.total, 1), 0, { migration: p.migration });
      }
      done += p.migrated;
      bar.update(done, { migration: p.migration });
    },
    stop: () => {
      if (current !== undefined) bar.stop();
    },
  };
}

export async function dbOnlineMigrations(
  options: OnlineMigrationOptions,
  out: (line: string) => void,
): Promise<number> {
  let maxCount: number | undefined;
  try {
    maxCount = options.maxCount === undefined ? undefined : parseMaxCount(options.maxCount);
  } catch (error) {
    if (error instanceof InvalidMaxCountError) throw usageError(error.message);
    throw error;
  }
  const batchSize = options.batchSize === undefined ? undefined : Number(options.batchSize);
  if (batchSize !== undefined && !(Number.isSafeInteger(batchSize) && batchSize > 0)) {
    throw usageError(`--batch-size must be a positive integer, not '${options.batchSize}'`);
  }
  return withServiceDatabase(options, async (service, db) => {
    const supported = service.releases[MASTER];
    const progress = progressReporter(out);
    const report = await runOnlineMigrations(db, service.onlineMigrations(), {
      maxCount,
      batchSize,
      onBatch: progress.onBatch,
      compatibility:
        supported !== undefined && service.objectTables.length > 0
          ? { tables: service.objectTables, supported, newModels: service.newModels }
          : undefined,
    });
    progress.stop();
    out(renderOnlineMigrationsReport(report, { release: service.release }));
    return report.exitStatus;
  });
}
