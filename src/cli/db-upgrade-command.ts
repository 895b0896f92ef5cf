/**
 * `baton db upgrade`: like `ironic-dbsync upgrade`, it first checks that
 * every row's object version is one this release supports (else exit 2 with
 * the rows to migrate first), then applies the pending schema migrations,
 * showing their progress step by step (step-progress.ts).
 */
import {
  findIncompatibleObjectVersions,
  incompatibleObjectVersionsMessage,
  type MigrationResultSet,
  migrateToLatest,
} from '../db/index.ts';
import { compatibilityOf, type ServiceDefinition } from '../service/index.ts';
import { CliExit, EXIT } from './cli-error.ts';
import { type DatabaseOptions, withServiceDatabase } from './command-context.ts';
import { incompatibleDatabaseMessage, incompatibleRows } from './ironic-dbsync-dialect.ts';
import { type ProgressEnv, processProgressEnv } from './progress-env.ts';
import { stepReporter } from './step-progress.ts';

export async function dbUpgrade(
  options: DatabaseOptions,
  out: (line: string) => void,
  env: ProgressEnv = processProgressEnv(),
  /** The service, when a test brings its own definition; else the one --service names. */
  definition?: ServiceDefinition,
): Promise<number> {
  return withServiceDatabase(
    options,
    'create',
    async (service, db) => {
      out(`${service.name}: database ${db.url.redacted}`);
      const dialect = service.operatorDialect;
      if (dialect !== undefined) {
        const rows = await incompatibleRows(db, service);
        if (rows.length > 0) {
          throw new CliExit(
            incompatibleDatabaseMessage(rows, dialect, service.name),
            EXIT.incompatible,
          );
        }
      }
      const compatibility = dialect === undefined ? compatibilityOf(service) : undefined;
      if (compatibility !== undefined) {
        const incompatible = await findIncompatibleObjectVersions(db, compatibility);
        if (incompatible.length > 0) {
          throw new CliExit(
            incompatibleObjectVersionsMessage(incompatible, {
              service: service.name,
              release: service.release,
            }),
            EXIT.incompatible,
          );
        }
      }
      const progress = stepReporter(env, out);
      let result: MigrationResultSet;
      try {
        result = await migrateToLatest(db, service.migrations, { onStep: progress.onStep });
      } finally {
        progress.stop();
      }
      for (const applied of result.applied) {
        out(`applied ${applied.id} (${applied.release})`);
        for (const warning of applied.lockWarnings) out(`  release note: ${warning.message}`);
      }
      if (result.error !== undefined) throw new CliExit(result.error.message, EXIT.failure);
      out(
        result.applied.length === 0
          ? `${service.name}: the schema is up to date (${result.alreadyApplied} migrations applied)`
          : `${service.name}: ${result.applied.length} migration(s) applied; the schema is up to date`,
      );
      return EXIT.ok;
    },
    definition,
  );
}
