/**
 * The migration every registry ends with (Ironic's update_to_latest_versions):
 * rows whose `version` is not their type's latest (NULL included) are read
 * as objects, which converts them to the latest version, and written back
 * with `versionChangesForDb` unpinned, so the data moves too, not just the
 * version stamp. Run it after unpinning: it writes versions the previous
 * release cannot read.
 *
 * Each row is written only if its version is still the one read, and on
 * PostgreSQL and MariaDB the batch's rows are locked while it works
 * (`FOR UPDATE`; SQLite's single writer already excludes others), so a
 * service saving the same row meanwhile is never overwritten.
 */
import type { Kysely } from 'kysely';
import {
  type FieldMap,
  type ObjectType,
  objectFromDbRow,
  versionChangesForDb,
} from '../../objects/index.ts';
import { defaultColumnValues } from './column-values.ts';
import { RowMigrationError } from './errors.ts';
import type {
  MigrationCount,
  OnlineMigration,
  OnlineMigrationContext,
  ServiceRequirement,
} from './online-migration.ts';
import { totalAfterBatch } from './online-migration.ts';

/** The name of the online migration that rewrites rows to their types' latest object versions. */
export const UPDATE_TO_LATEST_VERSIONS = 'update_to_latest_versions';

type Row = Record<string, unknown>;

/** A table whose rows hold versioned objects, with how to read a row and write it back. */
export interface VersionedTable<F extends FieldMap = FieldMap> {
  readonly table: string;
  readonly type: ObjectType<F>;
  /** The primary key column (default `id`): batches are taken in its order. */
  readonly idColumn?: string;
  /**
   * The version the data of a row with a NULL version is in (rows written
   * before the column existed). Default: the type's first version.
   */
  readonly nullVersion?: string;
  /** Normalizes a row as the driver returns it before it is read as an object. */
  readonly fromRow?: (row: Row) => Row;
  /** Turns the changed fields into column values (default: `defaultColumnValues`). */
  readonly toColumns?: (changes: Readonly<Row>) => Row;
}

/** How updateToLatestVersions is gated. */
export interface UpdateToLatestOptions {
  /** Services that must all run new enough code before rows may be written at the latest versions. */
  readonly requires?: ServiceRequirement | readonly ServiceRequirement[];
}

// biome-ignore lint/suspicious/noExplicitAny: tables are named at run time
type AnyKysely = Kysely<any>;

function stale(db: AnyKysely, table: string, latest: string) {
  return db
    .selectFrom(table)
    .where((eb) => eb.or([eb('version', 'is', null), eb('version', '<>', latest)]));
}

/**
 * The online migration that rewrites every row of these tables to its type's latest object version,
 * once every live process can read it.
 */
export function updateToLatestVersions(
  tables: readonly VersionedTable[],
  options: UpdateToLatestOptions = {},
): OnlineMigration {
  for (const t of tables) {
    // A bad nullVersion is a programming error: fail when the registry is built.
    if (t.nullVersion !== undefined) t.type.stepIndex(t.nullVersion);
  }
  const migration: OnlineMigration = {
    name: UPDATE_TO_LATEST_VERSIONS,
    description: `Bring every ${tables.map((t) => t.type.name).join(', ')} row to its latest object version`,
    async run(ctx, maxCount) {
      // Counted on a run's first batch only; later batches go on the estimate.
      let total = 0;
      if (ctx.remainingEstimate === undefined) {
        for (const t of tables) {
          const row = await stale(ctx.db, t.table, t.type.version)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirst();
          total += Number(row?.n ?? 0);
        }
        if (total === 0) return { total, migrated: 0 };
      }
      let migrated = 0;
      for (const t of tables) {
        if (migrated >= maxCount) break;
        migrated += await migrateTable(ctx, t, maxCount - migrated);
      }
      if (ctx.remainingEstimate !== undefined) {
        total = totalAfterBatch(ctx.remainingEstimate, maxCount, migrated);
      }
      return { total, migrated } satisfies MigrationCount;
    },
  };
  return options.requires === undefined ? migration : { ...migration, requires: options.requires };
}

async function migrateTable(
  ctx: OnlineMigrationContext,
  t: VersionedTable,
  limit: number,
): Promise<number> {
  const idColumn = t.idColumn ?? 'id';
  let query = stale(ctx.db, t.table, t.type.version).selectAll().orderBy(idColumn).limit(limit);
  if (!ctx.caps.singleWriter) query = query.forUpdate();
  const rows = (await query.execute()) as Row[];
  let migrated = 0;
  for (const row of rows) {
    const stored = (row.version ?? null) as string | null;
    const id = row[idColumn];
    let columns: Row;
    try {
      const input = t.fromRow ? t.fromRow(row) : row;
      const readable =
        stored === null
          ? { ...input, version: t.nullVersion ?? t.type.history[0]?.version }
          : input;
      const changes = versionChangesForDb(objectFromDbRow(t.type, readable));
      columns = t.toColumns ? t.toColumns(changes) : defaultColumnValues(t.table, changes);
    } catch (error) {
      throw new RowMigrationError(t.table, id, stored, error);
    }
    const result = await ctx.db
      .updateTable(t.table)
      .set(columns)
      .where(idColumn, '=', id)
      .where('version', stored === null ? 'is' : '=', stored)
      .executeTakeFirst();
    migrated += Number(result.numUpdatedRows);
  }
  return migrated;
}
