/**
 * Going back a release: rows a newer release wrote at object versions the older one does not
 * know are rewritten at the older versions (`baton db downgrade-rows`), so the older release's
 * processes can read them again. It is `update_to_latest_versions` run the other way: each row
 * is read as an object (at the latest version this code knows), converted down for the
 * database (the type's own downgrade rules apply; fields the older version lacks are left in
 * their columns, so going forward again finds them) and written with the older `version`.
 *
 * Only once every live process writes at the older versions (pinned to that release) may it
 * run, or they would write newer rows again behind it: the caller checks that. Like an online
 * migration it works in batches of `maxCount`, each row written only if its version is still
 * the one read (a service saving it meanwhile wins; the next run sees it again), with the
 * batch's rows locked on PostgreSQL and MariaDB.
 */
import type { Kysely } from 'kysely';
import {
  compareObjectVersions,
  objectFromDbRow,
  type VersionTargets,
  versionChangesForDb,
} from '../../objects/index.ts';
import type { Database } from '../connect.ts';
import { inRetriedTransaction } from '../deadlock-retry.ts';
import { defaultColumnValues } from '../online-migrations/column-values.ts';
import { RowMigrationError } from '../online-migrations/errors.ts';
import type { VersionedTable } from '../online-migrations/update-to-latest.ts';

type Row = Record<string, unknown>;
// biome-ignore lint/suspicious/noExplicitAny: tables are named at run time
type AnyKysely = Kysely<any>;

/** What rewriting rows down to older object versions did. */
export interface RewriteDownResult {
  /** Rows above the target versions when the run started, per table. */
  readonly tables: readonly {
    readonly table: string;
    readonly total: number;
    readonly rewritten: number;
  }[];
  /** Rows still above the target when it ended (0: done). */
  readonly remaining: number;
}

/** The versions of the table's type above the target: the rows to rewrite. */
function versionsAbove(t: VersionedTable, target: string): string[] {
  return t.type.knownVersions().filter((version) => compareObjectVersions(version, target) > 0);
}

const above = (db: AnyKysely, t: VersionedTable, versions: readonly string[]) =>
  db.selectFrom(t.table).where('version', 'in', versions);

async function count(db: AnyKysely, t: VersionedTable, versions: readonly string[]) {
  if (versions.length === 0) return 0;
  const row = await above(db, t, versions)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Rewrites at most `maxCount` rows at the versions `targets` gives; counts what is left. */
export async function rewriteRowsDown(
  database: Database,
  tables: readonly VersionedTable[],
  targets: VersionTargets,
  maxCount: number,
): Promise<RewriteDownResult> {
  const db = database.kysely as AnyKysely;
  const results: { table: string; total: number; rewritten: number }[] = [];
  let budget = maxCount;
  let remaining = 0;
  for (const t of tables) {
    const target = targets.objectVersion(t.type.name, t.type.version);
    const versions = versionsAbove(t, target);
    const total = await count(db, t, versions);
    let rewritten = 0;
    if (total > 0 && budget > 0) {
      rewritten = await inRetriedTransaction(database, (trx) =>
        rewriteBatch(trx as AnyKysely, database, t, versions, targets, Math.min(budget, total)),
      );
      budget -= rewritten;
    }
    results.push({ table: t.table, total, rewritten });
    remaining += await count(db, t, versions);
  }
  return { tables: results, remaining };
}

async function rewriteBatch(
  trx: AnyKysely,
  database: Database,
  t: VersionedTable,
  versions: readonly string[],
  targets: VersionTargets,
  limit: number,
): Promise<number> {
  const idColumn = t.idColumn ?? 'id';
  let query = above(trx, t, versions).selectAll().orderBy(idColumn).limit(limit);
  if (!database.caps.singleWriter) query = query.forUpdate();
  const rows = (await query.execute()) as Row[];
  let rewritten = 0;
  for (const row of rows) {
    const stored = String(row.version);
    const id = row[idColumn];
    let columns: Row;
    try {
      const obj = objectFromDbRow(t.type, t.fromRow ? t.fromRow(row) : row);
      const changes = versionChangesForDb(obj, targets);
      columns = t.toColumns ? t.toColumns(changes) : defaultColumnValues(t.table, changes);
    } catch (error) {
      throw new RowMigrationError(t.table, id, stored, error);
    }
    const result = await trx
      .updateTable(t.table)
      .set(columns)
      .where(idColumn, '=', id)
      .where('version', '=', stored)
      .executeTakeFirst();
    rewritten += Number(result.numUpdatedRows);
  }
  return rewritten;
}
