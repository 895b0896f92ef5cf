/**
 * `baton db online-migrations [--max-count N]`: runs the service's online
 * data migrations in short batches, with a progress bar on a terminal and a
 * line per batch otherwise, then a table per migration. Exit status as
 * `ironic-dbsync online_data_migrations`: 0 done, 1 more remains, 2 failed.
 */
import { SingleBar } from 'cli-progress';
import {
  type BatchProgress,
  checkBatchSize,
  OnlineMigrationUsageError,
  parseMaxCount,
  renderOnlineMigrationsReport,
  runOnlineMigrations,
} from '../db/index.ts';
import { compatibilityOf } from '../service/index.ts';
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
  let batchSize: number | undefined;
  try {
    maxCount = parseMaxCount(options.maxCount);
    batchSize =
      options.batchSize === undefined ? undefined : checkBatchSize(Number(options.batchSize));
  } catch (error) {
    if (error instanceof OnlineMigrationUsageError) throw usageError(error.message);
    throw error;
  }
  return withServiceDatabase(options, 'existing', async (service, db, config) => {
    const progress = progressReporter(out);
    const report = await runOnlineMigrations(db, service.onlineMigrations(config), {
      maxCount,
      batchSize,
      onBatch: progress.onBatch,
      compatibility: compatibilityOf(service),
    });
    progress.stop();
    out(renderOnlineMigrationsReport(report, { release: service.release }));
    return report.exitStatus;
  });
}
