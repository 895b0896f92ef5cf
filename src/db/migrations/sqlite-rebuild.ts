/**
 * SQLite cannot add a constraint to an existing table. Its documented way
 * (https://sqlite.org/lang_altertable.html, "other kinds of table schema
 * changes") is a rebuild: create the new definition under a temporary name,
 * copy the rows, drop the old table, rename, recreate indexes and triggers.
 * It needs foreign keys off (the migration session turns them off and checks
 * them all before the migration commits) and runs inside its transaction.
 */
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: any table can be rebuilt
type AnyKysely = Kysely<any>;

const HEADER = /^\s*create\s+table\s+(?:"(?:[^"]|"")+"|`[^`]+`|\[[^\]]+\]|[^\s(]+)/i;

/** The table's definition with a constraint added and a new name (pure). */
export function withConstraint(definition: string, newName: string, constraint: string): string {
  if (!HEADER.test(definition)) {
    throw new Error(`cannot read the table definition: ${definition.slice(0, 60)}`);
  }
  // The column list's closing parenthesis; table options (STRICT …) have none.
  const close = definition.lastIndexOf(')');
  return `${definition.slice(0, close).replace(HEADER, `create table "${newName}"`)}, ${constraint}${definition.slice(close)}`;
}

export async function rebuildWithForeignKey(
  db: AnyKysely,
  table: string,
  constraint: string,
): Promise<void> {
  const found = await sql<{
    sql: string;
  }>`select sql from sqlite_master where type = 'table' and name = ${table}`.execute(db);
  const definition = found.rows[0]?.sql;
  if (definition === undefined) throw new Error(`no such table: ${table}`);
  const dependents = await sql<{ sql: string }>`
    select sql from sqlite_master
    where tbl_name = ${table} and type in ('index', 'trigger') and sql is not null`.execute(db);
  // AUTOINCREMENT never reuses an id: keep the old table's high-water mark.
  const sequence = (await hasSequenceTable(db))
    ? (
        await sql<{ seq: number }>`select seq from sqlite_sequence where name = ${table}`.execute(
          db,
        )
      ).rows[0]
    : undefined;
  const temporary = `${table}__baton_rebuild`;
  await sql.raw(withConstraint(definition, temporary, constraint)).execute(db);
  await sql.raw(`insert into "${temporary}" select * from "${table}"`).execute(db);
  await sql.raw(`drop table "${table}"`).execute(db);
  await sql.raw(`alter table "${temporary}" rename to "${table}"`).execute(db);
  for (const dependent of dependents.rows) await sql.raw(dependent.sql).execute(db);
  if (sequence) {
    await sql`delete from sqlite_sequence where name = ${table}`.execute(db);
    await sql`insert into sqlite_sequence (name, seq) values (${table}, ${sequence.seq})`.execute(
      db,
    );
  }
  const broken = await sql<{
    parent: string;
  }>`select * from pragma_foreign_key_check(${table})`.execute(db);
  if (broken.rows.length > 0) {
    throw new Error(
      `${broken.rows.length} row(s) of ${table} reference missing rows of ${broken.rows[0]?.parent}`,
    );
  }
}

async function hasSequenceTable(db: AnyKysely): Promise<boolean> {
  const { rows } = await sql`select 1 from sqlite_master where name = 'sqlite_sequence'`.execute(
    db,
  );
  return rows.length > 0;
}
