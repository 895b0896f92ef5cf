/**
 * The rolling-upgrade doc's "ironic-dbsync upgrade" guard: before a new release touches the
 * schema, every row of every object table must be at an object version the
 * new release supports, that is, one its release mapping lists for the type.
 * A NULL version is incompatible (the row was never stamped); a table that
 * does not exist yet is skipped, and so are the new release's new models
 * (Ironic's NEW_MODELS), whose tables its own migrations create.
 *
 * A table that exists without a version column means the database predates
 * versioned rows (a skipped release): its rows are all reported, flagged.
 */
import { type Kysely, sql } from 'kysely';
import { compareObjectVersions, parseObjectVersion } from '../../objects/index.ts';
import type { Release } from '../../releases/index.ts';
import type { Database } from '../connect.ts';

export interface ObjectTable {
  readonly table: string;
  /** The object type stored in the table, as the release mapping names it. */
  readonly objectName: string;
  readonly versionColumn?: string;
}

export interface FindIncompatibleOptions {
  readonly tables: readonly ObjectTable[];
  /** The release whose object versions must be supported (the release being installed). */
  readonly supported: Release;
  /** Object names new in that release: their tables are not checked. */
  readonly newModels?: readonly string[];
}

export interface IncompatibleObjectVersion {
  readonly table: string;
  readonly objectName: string;
  /** The version found; null for NULL (or for every row when there is no version column). */
  readonly version: string | null;
  readonly count: number;
  /** The table has no version column at all. */
  readonly noVersionColumn?: true;
}

export async function findIncompatibleObjectVersions(
  db: Database,
  options: FindIncompatibleOptions,
): Promise<IncompatibleObjectVersion[]> {
  const newModels = new Set(options.newModels ?? []);
  const existing = new Map(
    (await db.kysely.introspection.getTables()).map((t) => [
      t.name,
      new Set(t.columns.map((c) => c.name)),
    ]),
  );
  // biome-ignore lint/suspicious/noExplicitAny: tables are named at run time
  const kysely = db.kysely as unknown as Kysely<any>;
  const found: IncompatibleObjectVersion[] = [];
  for (const { table, objectName, versionColumn = 'version' } of options.tables) {
    if (newModels.has(objectName)) continue;
    const columns = existing.get(table);
    if (columns === undefined) continue;
    if (!columns.has(versionColumn)) {
      const row = await kysely
        .selectFrom(table)
        .select(sql<number | string>`count(*)`.as('count'))
        .executeTakeFirst();
      found.push({
        table,
        objectName,
        version: null,
        count: Number(row?.count ?? 0),
        noVersionColumn: true,
      });
      continue;
    }
    const supported = options.supported.objects[objectName] ?? [];
    let query = kysely
      .selectFrom(table)
      .select([`${versionColumn} as version`, sql<number | string>`count(*)`.as('count')])
      .groupBy(versionColumn);
    if (supported.length > 0) {
      query = query.where((eb) =>
        eb.or([eb(versionColumn, 'is', null), eb(versionColumn, 'not in', supported)]),
      );
    }
    const rows = (await query.execute()) as { version: string | null; count: number | string }[];
    rows.sort((a, b) => compareFound(a.version, b.version));
    for (const row of rows) {
      found.push({ table, objectName, version: row.version, count: Number(row.count) });
    }
  }
  return found;
}

/** NULL first, then by version (malformed versions last, as text). */
function compareFound(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  const aOk = parseObjectVersion(a) !== null;
  const bOk = parseObjectVersion(b) !== null;
  if (aOk && bOk) return compareObjectVersions(a, b);
  if (aOk !== bOk) return aOk ? -1 : 1;
  return a < b ? -1 : 1;
}
