/**
 * `baton db upgrade`: like `ironic-dbsync upgrade`, it first checks that
 * every row's object version is one this release supports (else exit 2 with
 * the rows to migrate first), then applies the pending schema migrations.
 */
import {
  findIncompatibleObjectVersions,
  incompatibleObjectVersionsMessage,
  migrateToLatest,
} from '../db/index.ts';
import { compatibilityOf } from '../service/index.ts';
import { CliExit, EXIT } from './cli-error.ts';
import { type DatabaseOptions, withServiceDatabase } from './command-context.ts';

export async function dbUpgrade(
  options: DatabaseOptions,
  out: (line: string) => void,
): Promise<number> {
  return withServiceDatabase(options, 'create', async (service, db) => {
    out(`${service.name}: database ${db.url.redacted}`);
    const compatibility = compatibilityOf(service);
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
    const result = await migrateToLatest(db, service.migrations);
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
  });
}
