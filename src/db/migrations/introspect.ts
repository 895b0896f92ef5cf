/**
 * Catalog queries: does a table, column, index or foreign key exist? Used to
 * read the history table without creating it, and to tell whether a
 * non-transactional step that was interrupted before its progress record
 * had in fact run (so a re-run neither repeats it nor skips it).
 */
import { type Kysely, sql } from 'kysely';
import type { Backend } from '../database-url.ts';
import type { Operation } from './operations.ts';

// biome-ignore lint/suspicious/noExplicitAny: catalog tables are not in the caller's schema
type AnyKysely = Kysely<any>;

async function any(db: AnyKysely, query: ReturnType<typeof sql>): Promise<boolean> {
  const result = await query.execute(db);
  return result.rows.length > 0;
}

export function tableExists(db: AnyKysely, backend: Backend, table: string): Promise<boolean> {
  if (backend === 'sqlite') {
    return any(db, sql`select 1 from sqlite_master where type = 'table' and name = ${table}`);
  }
  const schema = backend === 'postgresql' ? sql`current_schema()` : sql`database()`;
  return any(
    db,
    sql`select 1 from information_schema.tables where table_schema = ${schema} and table_name = ${table}`,
  );
}

export function columnExists(
  db: AnyKysely,
  backend: Backend,
  table: string,
  column: string,
): Promise<boolean> {
  if (backend === 'sqlite') {
    return any(db, sql`select 1 from pragma_table_info(${table}) where name = ${column}`);
  }
  const schema = backend === 'postgresql' ? sql`current_schema()` : sql`database()`;
  return any(
    db,
    sql`select 1 from information_schema.columns where table_schema = ${schema} and table_name = ${table} and column_name = ${column}`,
  );
}

/** 'invalid': a PostgreSQL concurrent build that failed half-way left it behind. */
export async function indexState(
  db: AnyKysely,
  backend: Backend,
  table: string,
  index: string,
): Promise<'absent' | 'valid' | 'invalid'> {
  if (backend === 'sqlite') {
    const found = await any(
      db,
      sql`select 1 from sqlite_master where type = 'index' and name = ${index}`,
    );
    return found ? 'valid' : 'absent';
  }
  if (backend === 'mysql') {
    const found = await any(
      db,
      sql`select 1 from information_schema.statistics where table_schema = database() and table_name = ${table} and index_name = ${index}`,
    );
    return found ? 'valid' : 'absent';
  }
  const result = await sql<{ valid: boolean }>`
    select i.indisvalid as valid from pg_class c
      join pg_index i on i.indexrelid = c.oid
      join pg_namespace n on n.oid = c.relnamespace
    where c.relname = ${index} and n.nspname = current_schema()`.execute(db);
  const row = result.rows[0];
  return row === undefined ? 'absent' : row.valid ? 'valid' : 'invalid';
}

export function foreignKeyExists(
  db: AnyKysely,
  backend: Backend,
  table: string,
  name: string,
): Promise<boolean> {
  if (backend === 'sqlite') {
    // SQLite adds foreign keys by rebuilding the table in one transaction: never half-done.
    return Promise.resolve(false);
  }
  const schema = backend === 'postgresql' ? sql`current_schema()` : sql`database()`;
  return any(
    db,
    sql`select 1 from information_schema.table_constraints where constraint_schema = ${schema} and table_name = ${table} and constraint_name = ${name} and constraint_type = 'FOREIGN KEY'`,
  );
}

/**
 * Whether an operation's effect is already in the schema: true, false, or
 * undefined when the catalog cannot tell (raw SQL; a column alteration,
 * which is harmless to repeat). An invalid index left by a failed concurrent
 * build is dropped here, so the build can start again.
 */
export async function alreadyApplied(
  db: AnyKysely,
  backend: Backend,
  operation: Operation,
  foreignKeyName: string,
): Promise<boolean | undefined> {
  switch (operation.op) {
    case 'createTable':
      return tableExists(db, backend, operation.table);
    case 'dropTable':
      return !(await tableExists(db, backend, operation.table));
    case 'addColumn':
      return columnExists(db, backend, operation.table, operation.column.name);
    case 'dropColumn':
      return !(await columnExists(db, backend, operation.table, operation.column));
    case 'renameColumn':
      return (
        (await columnExists(db, backend, operation.table, operation.to)) &&
        !(await columnExists(db, backend, operation.table, operation.from))
      );
    case 'renameTable':
      return (
        (await tableExists(db, backend, operation.to)) &&
        !(await tableExists(db, backend, operation.from))
      );
    case 'createIndex': {
      const state = await indexState(db, backend, operation.table, operation.name);
      if (state === 'invalid') {
        await sql`drop index concurrently if exists ${sql.id(operation.name)}`.execute(db);
      }
      return state === 'valid';
    }
    case 'addForeignKey':
      return foreignKeyExists(db, backend, operation.table, foreignKeyName);
    case 'alterColumn':
    case 'sql':
      return undefined;
  }
}
