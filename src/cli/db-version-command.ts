/**
 * `baton db version`: the schema version of the service's database, as `placement-manage db
 * version` and `ironic-dbsync version` print theirs: the last migration applied, or `None`
 * when the service has no schema there yet. `--verbose` lists every migration with its
 * state. Reads only: a missing database is an error (exit 1) and nothing is created.
 */
import { schemaHistoryOf } from '../db/index.ts';
import { renderBoxTable } from '../db/upgrade-check/box-table.ts';
import { EXIT } from './cli-error.ts';
import { type DatabaseOptions, withServiceDatabase } from './command-context.ts';

export interface VersionOptions extends DatabaseOptions {
  readonly verbose?: boolean;
}

export async function dbVersion(
  options: VersionOptions,
  out: (line: string) => void,
): Promise<number> {
  return withServiceDatabase(options, 'existing', async (service, db) => {
    const history = await schemaHistoryOf(db, service.name);
    const applied = history.filter((row) => row.appliedAt !== undefined);
    out(applied.at(-1)?.id ?? 'None');
    if (options.verbose) {
      const rows = new Map(history.map((row) => [row.id, row]));
      const known = new Set(service.migrations.migrations.map((m) => m.id));
      const lines = service.migrations.migrations.map((migration) => {
        const row = rows.get(migration.id);
        const state = row?.appliedAt
          ? `applied ${row.appliedAt.toISOString()}`
          : row
            ? `interrupted after ${row.stepsDone} of ${migration.operations.length} steps`
            : 'pending';
        return [migration.id, migration.release, state];
      });
      for (const row of history) {
        if (!known.has(row.id)) lines.push([row.id, row.release, 'applied by a newer release']);
      }
      out(renderBoxTable(['migration', 'release', 'state'], lines));
      const appliedKnown = applied.filter((row) => known.has(row.id)).length;
      out(
        `${service.name}: ${appliedKnown} of ${service.migrations.migrations.length} migrations applied (database ${db.url.redacted})`,
      );
    }
    return EXIT.ok;
  });
}
