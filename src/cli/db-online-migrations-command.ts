/**
 * `baton db online-migrations [--max-count N] [--max-run-seconds S]`: runs the service's
 * online data migrations in short batches, pausing `--sleep-between-batches` seconds
 * between two, with a progress bar on a terminal and a summary line every few seconds
 * otherwise, then a table per migration. Exit status as `ironic-dbsync
 * online_data_migrations`: 0 done, 1 more remains (--max-count or --max-run-seconds
 * reached), 2 failed.
 */

import type { Database } from '../db/index.ts';
import {
  checkBatchSize,
  OnlineMigrationUsageError,
  parseMaxCount,
  renderOnlineMigrationsReport,
  runOnlineMigrations,
} from '../db/index.ts';
import {
  checkOnlineMigrationGate,
  compatibilityOf,
  type ServiceDefinition,
} from '../service/index.ts';
import { batchReporter } from './batch-progress.ts';
import { CliExit, EXIT, usageError } from './cli-error.ts';
import { type DatabaseOptions, resolveService, withServiceDatabase } from './command-context.ts';
import { dbsyncOnlineMigrations } from './ironic-dbsync-dialect.ts';
import { type ProgressEnv, processProgressEnv } from './progress-env.ts';

export interface OnlineMigrationOptions extends DatabaseOptions {
  readonly maxCount?: string;
  readonly batchSize?: string;
  readonly sleepBetweenBatches?: string;
  readonly maxRunSeconds?: string;
  /** Run although live services cannot read what the migrations write (said on stderr). */
  readonly force?: boolean;
}

/**
 * The service-version spec's gate: exit 2 while a live service cannot read the object versions the migrations
 * write, naming them and the upgrade step still to do; `--force` runs anyway, saying so.
 */
async function passGate(
  db: Database,
  service: ServiceDefinition,
  force: boolean,
  err: (line: string) => void,
): Promise<void> {
  const gate = await checkOnlineMigrationGate(db, service);
  if (gate.message === undefined) return;
  if (!force) throw new CliExit(gate.message, EXIT.incompatible);
  err(`baton: warning: --force: running the online data migrations anyway: ${gate.message}`);
}

/** A number of seconds from the command line, as milliseconds; absent stays absent. */
function seconds(flag: string, text: string | undefined, allowZero: boolean): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text.trim());
  if (!/^\s*\d+(\.\d+)?\s*$/.test(text) || (!allowZero && value === 0)) {
    const what = allowZero ? 'a number of seconds, 0 or more' : 'a positive number of seconds';
    throw usageError(`${flag} must be ${what}, not '${text}'`);
  }
  return Math.round(value * 1_000);
}

/** `--max-count` as `ironic-dbsync` reads it: any integer (below 1 is refused later, 127). */
function dbsyncMaxCount(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\s*-?\d+\s*$/.test(text)) {
    throw usageError(`argument --max-count: invalid int value: '${text}'`);
  }
  return Number(text.trim());
}

export async function dbOnlineMigrations(
  options: OnlineMigrationOptions,
  out: (line: string) => void,
  env: ProgressEnv = processProgressEnv(),
  err: (line: string) => void = out,
  /** The service, when a test brings its own definition; else the one `options.service` names. */
  definition?: ServiceDefinition,
): Promise<number> {
  const force = options.force === true;
  const dialect = (definition ?? (await resolveService(options.service))).operatorDialect;
  if (dialect !== undefined) {
    // The service's own tool's lines and statuses (cli/ironic-dbsync-dialect.ts).
    const maxCount = dbsyncMaxCount(options.maxCount);
    return withServiceDatabase(
      options,
      'existing',
      async (service, db, config) => {
        await passGate(db, service, force, err);
        return dbsyncOnlineMigrations(db, service, dialect, config, maxCount, { out, err });
      },
      definition,
    );
  }
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
  const batchPauseMs = seconds('--sleep-between-batches', options.sleepBetweenBatches, true);
  const maxRunMs = seconds('--max-run-seconds', options.maxRunSeconds, false);
  return withServiceDatabase(
    options,
    'existing',
    async (service, db, config) => {
      await passGate(db, service, force, err);
      const progress = batchReporter(env, out);
      const report = await runOnlineMigrations(db, service.onlineMigrations(config), {
        maxCount,
        batchSize,
        ...(batchPauseMs === undefined ? {} : { batchPauseMs }),
        ...(maxRunMs === undefined ? {} : { maxRunMs }),
        now: env.now,
        sleep: env.sleep,
        onBatch: progress.onBatch,
        compatibility: compatibilityOf(service),
      });
      progress.stop();
      out(renderOnlineMigrationsReport(report, { release: service.release }));
      if (report.timeLimitReached) {
        out(
          `Stopped after --max-run-seconds ${options.maxRunSeconds} with rows left to migrate; run the command again to carry on from there.`,
        );
      }
      return report.exitStatus;
    },
    definition,
  );
}
