/** Helpers shared by the migration tests. */
import type { Kysely } from 'kysely';
import type { Database, Migration, MigrationSet, Operation } from '../../../src/db/index.ts';

// biome-ignore lint/suspicious/noExplicitAny: the tests create their tables at run time
export type AnyKysely = Kysely<any>;

export const RELEASES = ['2026.1', '2026.2', '2027.1', '2027.2'] as const;

export function migration(
  id: string,
  operations: readonly Operation[],
  extra: Partial<Migration> = {},
): Migration {
  return { id, release: '2026.1', description: id, operations, ...extra };
}

export function migrationSet(
  service: string,
  migrations: readonly Migration[],
  extra: Partial<MigrationSet> = {},
): MigrationSet {
  return { service, releases: RELEASES, deprecations: [], migrations, ...extra };
}

export function anyKysely(db: Database): AnyKysely {
  return db.kysely as AnyKysely;
}

/** The table's column names, sorted (empty when it does not exist). */
export async function columnsOf(db: Database, table: string): Promise<string[]> {
  const tables = await db.kysely.introspection.getTables();
  const found = tables.find((t) => t.name === table);
  return found ? found.columns.map((c) => c.name).sort() : [];
}

export async function historyIds(db: Database, service: string): Promise<string[]> {
  const rows = await anyKysely(db)
    .selectFrom('baton_schema_migrations')
    .select('id')
    .where('service', '=', service)
    .where('applied_at', 'is not', null)
    .orderBy('id')
    .execute();
  return rows.map((r) => String(r.id));
}
