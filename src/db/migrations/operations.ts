/**
 * Schema operations as data. A migration lists these instead of running
 * code, so the change policy can read them before anything runs (pure) and
 * the DDL compiler can map them to each backend in one place.
 */
import type { Backend } from '../database-url.ts';

/**
 * Portable column types. `string(n)` is a bounded string (VARCHAR(n)); `text`
 * and `json` are unbounded; `datetime` is a point in time (UTC).
 */
export type ColumnType =
  | 'integer'
  | 'bigint'
  | 'text'
  | 'boolean'
  | 'datetime'
  | 'json'
  | 'float'
  | `string(${number})`;

/** A literal default value (SQL expressions are not portable; use a `sql` operation). */
export type ColumnDefault = string | number | boolean;

/** A column, as a table creation or an added column declares it. */
export interface Column {
  readonly name: string;
  readonly type: ColumnType;
  /** Defaults to true, as in SQL. Primary-key columns are never nullable. */
  readonly nullable?: boolean;
  readonly default?: ColumnDefault;
  readonly primaryKey?: boolean;
  /** Generated ascending values; only on an `integer` or `bigint` primary key. */
  readonly autoIncrement?: boolean;
}

/** What a foreign key does when the row it refers to is deleted. */
export type ForeignKeyAction = 'cascade' | 'set null' | 'restrict' | 'no action';

/** A foreign key from columns of one table to columns of another. */
export interface ForeignKey {
  /** Constraint name; derived from the table and columns when left out. */
  readonly name?: string;
  readonly columns: readonly string[];
  readonly references: { readonly table: string; readonly columns: readonly string[] };
  readonly onDelete?: ForeignKeyAction;
}

/** A unique constraint over one or more columns. */
export interface UniqueConstraint {
  /** Constraint name; derived from the table and columns when left out. */
  readonly name?: string;
  readonly columns: readonly string[];
}

/** Creates a table with its columns, primary key and constraints. */
export interface CreateTable {
  readonly op: 'createTable';
  readonly table: string;
  readonly columns: readonly Column[];
  /** A composite primary key (a single-column key can be set on the column). */
  readonly primaryKey?: readonly string[];
  readonly unique?: readonly UniqueConstraint[];
  readonly foreignKeys?: readonly ForeignKey[];
}

/** Adds a column to a table (expand: allowed at any time). */
export interface AddColumn {
  readonly op: 'addColumn';
  readonly table: string;
  readonly column: Column;
}

/** Creates an index. */
export interface CreateIndex {
  readonly op: 'createIndex';
  readonly table: string;
  /** Index names are unique per database on some backends: name them `<table>_<what>_idx`. */
  readonly name: string;
  readonly columns: readonly string[];
  readonly unique?: boolean;
  /** PostgreSQL: build without blocking writes (runs outside any transaction). */
  readonly concurrently?: boolean;
}

/** Adds a foreign key to an existing table. */
export interface AddForeignKey extends ForeignKey {
  readonly op: 'addForeignKey';
  readonly table: string;
}

/** Drops a column (contract: refused by the change policy while older code may read it). */
export interface DropColumn {
  readonly op: 'dropColumn';
  readonly table: string;
  readonly column: string;
}

/** Drops a table (contract). */
export interface DropTable {
  readonly op: 'dropTable';
  readonly table: string;
}

/** Renames a column (refused by the change policy during a rolling upgrade). */
export interface RenameColumn {
  readonly op: 'renameColumn';
  readonly table: string;
  readonly from: string;
  readonly to: string;
}

/** A change of type, size or nullability, stated as the column's whole new definition. */
export interface AlterColumn {
  readonly op: 'alterColumn';
  readonly table: string;
  readonly column: string;
  readonly type: ColumnType;
  readonly nullable: boolean;
}

/** Renames a table (refused by the change policy during a rolling upgrade). */
export interface RenameTable {
  readonly op: 'renameTable';
  readonly from: string;
  readonly to: string;
}

/**
 * Raw SQL, the escape hatch: one statement, the same for every backend or one
 * per backend (`null`: nothing to do there). The policy cannot read it, so it
 * is always flagged, with `reviewed` (who reviewed it and why it is safe for
 * the previous release's code) as its justification.
 */
export interface RawSql {
  readonly op: 'sql';
  readonly sql: string | Readonly<Record<Backend, string | null>>;
  readonly reviewed: string;
}

/** Every schema operation a migration may hold. */
export type Operation =
  | CreateTable
  | AddColumn
  | CreateIndex
  | AddForeignKey
  | DropColumn
  | DropTable
  | RenameColumn
  | AlterColumn
  | RenameTable
  | RawSql;

/** The table an operation changes (for a rename, the table as it was named before). */
export function tableOf(operation: Operation): string | undefined {
  switch (operation.op) {
    case 'renameTable':
      return operation.from;
    case 'sql':
      return undefined;
    default:
      return operation.table;
  }
}
