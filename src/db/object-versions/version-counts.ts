/** How many rows of each object table are at each object version (`SELECT version, count(*)`). */
import { sql } from 'kysely';
import type { Database } from '../connect.ts';
import type { ObjectTable } from './find-incompatible.ts';

/** How many rows of a table are at each object version. */
export interface ObjectVersionCounts {
  readonly table: string;
  readonly objectName: string;
  /** Rows per version (`{'1.36': 120}`); a NULL version counts under `null`. */
  readonly rows: Readonly<Record<string, number>>;
}

/** The counts of the tables that exist (a table of a later schema is left out). */
export async function countObjectVersions(
  db: Database,
  tables: readonly ObjectTable[],
): Promise<ObjectVersionCounts[]> {
  const existing = new Set((await db.kysely.introspection.getTables()).map((t) => t.name));
  const counts: ObjectVersionCounts[] = [];
  for (const { table, objectName, versionColumn = 'version' } of tables) {
    if (!existing.has(table)) continue;
    const result = await sql<{ version: string | null; n: number | string }>`
      select ${sql.ref(versionColumn)} as version, count(*) as n from ${sql.table(table)}
      group by ${sql.ref(versionColumn)} order by ${sql.ref(versionColumn)}`.execute(db.kysely);
    counts.push({
      table,
      objectName,
      rows: Object.fromEntries(result.rows.map((row) => [String(row.version), Number(row.n)])),
    });
  }
  return counts;
}
