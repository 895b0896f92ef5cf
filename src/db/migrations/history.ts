/**
 * The history table, `baton_schema_migrations`: one row per (service,
 * migration) with the release and checksum it was applied with. `applied_at`
 * stays NULL while a migration that cannot run in one transaction is part-way
 * through; `steps_done` then counts the operations already applied.
 * `applied_by` names the code that applied it: the release of the newest migration that
 * code knows (NULL: code older than the column), so a schema built by one release's code
 * in one go (a fresh install) is told from one upgraded release by release.
 */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../connect.ts';
import type { Backend } from '../database-url.ts';
import { sqlTypeOf } from './column-types.ts';
import { HISTORY_TABLE } from './definition-checks.ts';
import { columnExists, tableExists } from './introspect.ts';

// biome-ignore lint/suspicious/noExplicitAny: the history table is not in the caller's schema
type AnyKysely = Kysely<any>;

/** One row of the schema history table: a migration that ran. */
export interface SchemaHistoryRow {
  readonly id: string;
  readonly release: string;
  readonly checksum: string;
  /** Undefined while the migration is part-way through. */
  readonly appliedAt: Date | undefined;
  readonly stepsDone: number;
  /** The release of the code that applied it; undefined: code older than the record. */
  readonly appliedBy: string | undefined;
}

const APPLIED_BY = 'applied_by';

/** Creates the table if missing (under the migration lock: concurrent creation races on PostgreSQL). */
export async function ensureHistoryTable(db: AnyKysely, backend: Backend): Promise<void> {
  await db.schema
    .createTable(HISTORY_TABLE)
    .ifNotExists()
    .addColumn('service', 'varchar(64)', (c) => c.notNull())
    .addColumn('id', 'varchar(128)', (c) => c.notNull())
    .addColumn('release', 'varchar(64)', (c) => c.notNull())
    .addColumn('checksum', 'varchar(64)', (c) => c.notNull())
    .addColumn('applied_at', sqlTypeOf('datetime', backend))
    .addColumn('steps_done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn(APPLIED_BY, 'varchar(64)')
    .addPrimaryKeyConstraint(`${HISTORY_TABLE}_pkey`, ['service', 'id'])
    .execute();
  // A table made by older code: the column added (nullable, so that code still writes rows).
  if (!(await columnExists(db, backend, HISTORY_TABLE, APPLIED_BY))) {
    await db.schema.alterTable(HISTORY_TABLE).addColumn(APPLIED_BY, 'varchar(64)').execute();
  }
}

function toDate(value: unknown): Date | undefined {
  if (value === null || value === undefined) return undefined;
  if (value instanceof Date) return value;
  // SQLite's CURRENT_TIMESTAMP: 'YYYY-MM-DD HH:MM:SS' in UTC.
  return new Date(`${String(value).replace(' ', 'T')}Z`);
}

/** The service's rows; empty when the table does not exist yet (nothing is created). */
export async function readSchemaHistory(
  db: AnyKysely,
  backend: Backend,
  service: string,
): Promise<SchemaHistoryRow[]> {
  if (!(await tableExists(db, backend, HISTORY_TABLE))) return [];
  const withAppliedBy = await columnExists(db, backend, HISTORY_TABLE, APPLIED_BY);
  const rows = await db
    .selectFrom(HISTORY_TABLE)
    .select(['id', 'release', 'checksum', 'applied_at', 'steps_done'])
    .$if(withAppliedBy, (query) => query.select(APPLIED_BY))
    .where('service', '=', service)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: String(row.id),
    release: String(row.release),
    checksum: String(row.checksum),
    appliedAt: toDate(row.applied_at),
    stepsDone: Number(row.steps_done),
    appliedBy:
      row[APPLIED_BY] === null || row[APPLIED_BY] === undefined
        ? undefined
        : String(row[APPLIED_BY]),
  }));
}

export interface Progress {
  readonly service: string;
  readonly id: string;
  readonly release: string;
  readonly checksum: string;
  readonly stepsDone: number;
  readonly finished: boolean;
  /** The release of the code applying it (the newest migration it knows). */
  readonly appliedBy: string;
}

/** Writes a migration's progress: a new row, or an update of the row of an earlier attempt. */
export async function recordProgress(db: AnyKysely, progress: Progress, rowExists: boolean) {
  const appliedAt = progress.finished ? sql`current_timestamp` : null;
  if (rowExists) {
    await db
      .updateTable(HISTORY_TABLE)
      .set({
        steps_done: progress.stepsDone,
        applied_at: appliedAt,
        checksum: progress.checksum,
        [APPLIED_BY]: progress.appliedBy,
      })
      .where('service', '=', progress.service)
      .where('id', '=', progress.id)
      .execute();
    return;
  }
  await db
    .insertInto(HISTORY_TABLE)
    .values({
      service: progress.service,
      id: progress.id,
      release: progress.release,
      checksum: progress.checksum,
      applied_at: appliedAt,
      steps_done: progress.stepsDone,
      [APPLIED_BY]: progress.appliedBy,
    })
    .execute();
}

/** A service's schema history read through an open database (reads only, creates nothing). */
export function schemaHistoryOf<DB>(
  database: Database<DB>,
  service: string,
): Promise<SchemaHistoryRow[]> {
  return readSchemaHistory(database.kysely as unknown as AnyKysely, database.caps.backend, service);
}
