/**
 * A SQLite schema as comparable data (read with better-sqlite3 straight from the file): per
 * table its columns, primary key, unique constraints, indexes and foreign keys, and the
 * constraint names its CREATE TABLE text declares.
 */
import Sqlite from 'better-sqlite3';

export interface ColumnInfo {
  readonly type: string;
  readonly notNull: boolean;
  /** The default, booleans as 0/1; null when none. */
  readonly default: string | null;
}

export interface TableInfo {
  readonly columns: Record<string, ColumnInfo>;
  readonly primaryKey: string[];
  /** Column lists of unique constraints, each joined with ',', sorted. */
  readonly unique: string[];
  /** Index name -> columns joined with ','. */
  readonly indexes: Record<string, string>;
  /** `column -> table.column`, sorted. */
  readonly foreignKeys: string[];
  /** Names given with CONSTRAINT in the table's definition, sorted. */
  readonly constraintNames: string[];
}

function normalizeDefault(value: string | null): string | null {
  if (value === null) return null;
  const text = value.replace(/^\((.*)\)$/, '$1').toLowerCase();
  if (text === 'false') return '0';
  if (text === 'true') return '1';
  return text;
}

export function readSqliteSchema(
  path: string,
  tables: readonly string[],
): Record<string, TableInfo> {
  const db = new Sqlite(path, { readonly: true });
  try {
    const result: Record<string, TableInfo> = {};
    for (const table of tables) {
      const columns: Record<string, ColumnInfo> = {};
      const pk: { name: string; pk: number }[] = [];
      for (const c of db.pragma(`table_info(${table})`) as {
        name: string;
        type: string;
        notnull: number;
        dflt_value: string | null;
        pk: number;
      }[]) {
        columns[c.name] = {
          type: c.type.toLowerCase(),
          notNull: c.notnull === 1 || c.pk > 0,
          default: normalizeDefault(c.dflt_value),
        };
        if (c.pk > 0) pk.push({ name: c.name, pk: c.pk });
      }
      const unique: string[] = [];
      const indexes: Record<string, string> = {};
      for (const index of db.pragma(`index_list(${table})`) as { name: string; origin: string }[]) {
        const cols = (db.pragma(`index_info(${index.name})`) as { name: string }[])
          .map((c) => c.name)
          .join(',');
        if (index.origin === 'u') unique.push(cols);
        else if (index.origin === 'c') indexes[index.name] = cols;
      }
      const foreignKeys = (
        db.pragma(`foreign_key_list(${table})`) as { table: string; from: string; to: string }[]
      ).map((k) => `${k.from} -> ${k.table}.${k.to}`);
      const sqlText = (
        db.prepare(`select sql from sqlite_master where type = 'table' and name = ?`).get(table) as
          | { sql: string }
          | undefined
      )?.sql;
      if (sqlText === undefined) throw new Error(`no table ${table} in ${path}`);
      const constraintNames = [...sqlText.matchAll(/constraint\s+"?(\w+)"?/gi)].map(
        (m) => m[1] as string,
      );
      result[table] = {
        columns,
        primaryKey: pk.sort((a, b) => a.pk - b.pk).map((c) => c.name),
        unique: unique.sort(),
        indexes,
        foreignKeys: foreignKeys.sort(),
        constraintNames: constraintNames.sort(),
      };
    }
    return result;
  } finally {
    db.close();
  }
}
