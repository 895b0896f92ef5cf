/**
 * The database commands of a service that speaks `ironic-dbsync`'s dialect (the bare metal
 * service): the real messages, lines and exit statuses of `ironic-dbsync upgrade`,
 * `ironic-dbsync online_data_migrations` and `ironic-status upgrade check`'s object version
 * check (ironic/cmd/dbsync.py), with Baton's command in the advice they give.
 *
 * online_data_migrations, as the real one runs it:
 *   - without --max-count: "Running batches of 50 until migrations have been completed.",
 *     then rounds of at most 50 objects, a line "<migration>() migrated <n> of <total>
 *     objects." per migration run in the round, until a round migrates fewer than 50; then
 *     "Data migrations have completed." and 0;
 *   - with --max-count N (N >= 1): one round of at most N; fewer than N migrated: "Data
 *     migrations have completed." and 0, else "Data migrations have not completed. Please
 *     re-run." and 1 (it cannot know whether more remain);
 *   - --max-count below 1: '"max-count" must be a positive value.' on stderr and 127;
 *   - rows at versions this release cannot read: the incompatibility message on stderr and 2;
 *   - a migration that fails: "Error while running <migration>: <error>." on stderr and 1.
 */
import {
  type Database,
  findIncompatibleObjectVersions,
  type IncompatibleObjectVersion,
  runOnlineMigrations,
} from '../db/index.ts';
import {
  compatibilityOf,
  type OperatorDialect,
  type ServiceConfig,
  type ServiceDefinition,
} from '../service/index.ts';

/** The real `ironic-dbsync` batch size. */
export const DBSYNC_BATCH = 50;

export const MAX_COUNT_NOT_POSITIVE = '"max-count" must be a positive value.';

/** Why `db upgrade` / `online_data_migrations` refuse (the real check_obj_versions messages). */
export function incompatibleDatabaseMessage(
  rows: readonly IncompatibleObjectVersion[],
  dialect: OperatorDialect,
  service: string,
): string {
  const release = `${dialect.product} (${dialect.releaseString})`;
  if (rows.some((row) => row.noVersionColumn)) {
    return (
      `The database version is not compatible with this release of ${release}. This can happen if ` +
      'you are attempting to upgrade from a version older than the previous release (skip versions ' +
      'upgrade). This is an unsupported upgrade method. Please run ' +
      `"baton db upgrade --service ${service}" using the previous releases for a fast-forward upgrade.`
    );
  }
  return (
    `The database is not compatible with this release of ${release}. Please run ` +
    `"baton db online-migrations --service ${service}" using the previous release.`
  );
}

/** The rows the object version check finds, or none when the service has no object tables. */
export async function incompatibleRows(
  db: Database,
  service: ServiceDefinition,
): Promise<readonly IncompatibleObjectVersion[]> {
  const compatibility = compatibilityOf(service);
  return compatibility === undefined ? [] : findIncompatibleObjectVersions(db, compatibility);
}

export interface DbsyncIo {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
}

/** online_data_migrations as the real one runs it; returns the exit status. */
export async function dbsyncOnlineMigrations(
  db: Database,
  service: ServiceDefinition,
  dialect: OperatorDialect,
  config: ServiceConfig,
  maxCount: number | undefined,
  io: DbsyncIo,
): Promise<number> {
  const rows = await incompatibleRows(db, service);
  if (rows.length > 0) {
    io.err(incompatibleDatabaseMessage(rows, dialect, service.name));
    return 2;
  }
  if (maxCount !== undefined && maxCount < 1) {
    io.err(MAX_COUNT_NOT_POSITIVE);
    return 127;
  }
  const registry = service.onlineMigrations(config);
  const round = async (limit: number): Promise<number | undefined> => {
    const report = await runOnlineMigrations(db, registry, { maxCount: limit, batchSize: limit });
    for (const migration of report.migrations) {
      if (migration.status === 'not-run') continue;
      if (migration.status === 'failed') {
        io.err(
          `Error while running ${migration.name}: ${migration.error?.message ?? 'unknown error'}.`,
        );
        return undefined;
      }
      io.out(`${migration.name}() migrated ${migration.migrated} of ${migration.total} objects.`);
    }
    return report.migrated;
  };
  if (maxCount === undefined) {
    io.out(`Running batches of ${DBSYNC_BATCH} until migrations have been completed.`);
    for (;;) {
      const migrated = await round(DBSYNC_BATCH);
      if (migrated === undefined) return 1;
      if (migrated < DBSYNC_BATCH) break;
    }
    io.out('Data migrations have completed.');
    return 0;
  }
  const migrated = await round(maxCount);
  if (migrated === undefined) return 1;
  if (migrated < maxCount) {
    io.out('Data migrations have completed.');
    return 0;
  }
  io.out('Data migrations have not completed. Please re-run.');
  return 1;
}
