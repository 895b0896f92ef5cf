/**
 * Operations to SQL, per backend, through kysely's schema builder on a
 * compile-only instance (DummyDriver: no connection, no I/O). Each operation
 * becomes exactly one step, so progress can be counted in operations.
 */
import { createHash } from 'node:crypto';
import {
  type ColumnDefinitionBuilder,
  type CompiledQuery,
  type CreateTableBuilder,
  DummyDriver,
  Kysely,
  MysqlAdapter,
  MysqlIntrospector,
  MysqlQueryCompiler,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import { capabilitiesOf } from '../capabilities.ts';
import type { Backend } from '../database-url.ts';
import { sqlTypeOf } from './column-types.ts';
import type { Column, ForeignKey, Operation } from './operations.ts';

/**
 * One operation, compiled: statements to run in order, or (SQLite, which has
 * no ALTER TABLE … ADD CONSTRAINT) a table rebuild adding a foreign key.
 */
export type DdlStep =
  | {
      readonly kind: 'sql';
      readonly operation: number;
      readonly statements: readonly string[];
      /** PostgreSQL's CREATE INDEX CONCURRENTLY cannot run inside a transaction. */
      readonly outsideTransaction: boolean;
    }
  | {
      readonly kind: 'rebuild-with-foreign-key';
      readonly operation: number;
      readonly table: string;
      /** The constraint clause to add to the table's definition. */
      readonly constraint: string;
    };

/** A schema operation that the database's backend cannot do. */
export class UnsupportedOperationError extends Error {
  override name = 'UnsupportedOperationError';
  readonly backend: Backend;
  readonly operation: string;
  constructor(backend: Backend, operation: string, reason: string) {
    super(`${operation} cannot run on ${backend}: ${reason}`);
    this.backend = backend;
    this.operation = operation;
  }
}

// biome-ignore lint/suspicious/noExplicitAny: the compiler builds DDL for any table
type AnyKysely = Kysely<any>;

function compilerOnly(backend: Backend): AnyKysely {
  const parts = {
    sqlite: [SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler],
    postgresql: [PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler],
    mysql: [MysqlAdapter, MysqlIntrospector, MysqlQueryCompiler],
  } as const;
  const [Adapter, Introspector, Compiler] = parts[backend];
  return new Kysely({
    dialect: {
      createAdapter: () => new Adapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new Introspector(db),
      createQueryCompiler: () => new Compiler(),
    },
  });
}

const COMPILERS = new Map<Backend, AnyKysely>();

function compiler(backend: Backend): AnyKysely {
  let kysely = COMPILERS.get(backend);
  if (!kysely) {
    kysely = compilerOnly(backend);
    COMPILERS.set(backend, kysely);
  }
  return kysely;
}

/** A constraint name from its parts, shortened with a hash past 63 characters. */
export function constraintName(table: string, columns: readonly string[], suffix: string): string {
  const name = `${table}_${columns.join('_')}_${suffix}`;
  if (name.length <= 63) return name;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 8);
  return `${name.slice(0, 63 - suffix.length - 10)}_${hash}_${suffix}`;
}

function text(query: { compile(): CompiledQuery }): string {
  const compiled = query.compile();
  // DDL takes no bind parameters; kysely inlines defaults as literals.
  if (compiled.parameters.length > 0) throw new Error(`unexpected parameters in ${compiled.sql}`);
  return compiled.sql;
}

function defineColumn(column: Column, backend: Backend) {
  return (builder: ColumnDefinitionBuilder): ColumnDefinitionBuilder => {
    let c = builder;
    if (column.primaryKey) c = c.primaryKey();
    if (column.autoIncrement) {
      c = backend === 'postgresql' ? c.generatedByDefaultAsIdentity() : c.autoIncrement();
    }
    if (column.primaryKey || column.nullable === false) c = c.notNull();
    if (column.default !== undefined) c = c.defaultTo(column.default);
    return c;
  };
}

function foreignKeyClause(table: string, key: ForeignKey): string {
  const quote = (names: readonly string[]) => names.map((n) => `"${n}"`).join(', ');
  const name = key.name ?? constraintName(table, key.columns, 'fkey');
  const onDelete = key.onDelete ? ` on delete ${key.onDelete}` : '';
  return `constraint "${name}" foreign key (${quote(key.columns)}) references "${key.references.table}" (${quote(key.references.columns)})${onDelete}`;
}

function compileSql(operation: Operation, backend: Backend, concurrently: boolean): string[] {
  const k = compiler(backend);
  switch (operation.op) {
    case 'createTable': {
      const { table } = operation;
      let builder: CreateTableBuilder<string, string> = k.schema.createTable(table);
      for (const column of operation.columns) {
        const type = sqlTypeOf(column.type, backend, column.autoIncrement);
        builder = builder.addColumn(column.name, type, defineColumn(column, backend));
      }
      if (operation.primaryKey) {
        builder = builder.addPrimaryKeyConstraint(`${table}_pkey`, [...operation.primaryKey]);
      }
      for (const unique of operation.unique ?? []) {
        const name = unique.name ?? constraintName(table, unique.columns, 'key');
        builder = builder.addUniqueConstraint(name, [...unique.columns]);
      }
      for (const key of operation.foreignKeys ?? []) {
        const name = key.name ?? constraintName(table, key.columns, 'fkey');
        builder = builder.addForeignKeyConstraint(
          name,
          [...key.columns],
          key.references.table,
          [...key.references.columns],
          (fk) => (key.onDelete ? fk.onDelete(key.onDelete) : fk),
        );
      }
      return [text(builder)];
    }
    case 'addColumn': {
      const { column } = operation;
      const type = sqlTypeOf(column.type, backend, column.autoIncrement);
      return [
        text(
          k.schema
            .alterTable(operation.table)
            .addColumn(column.name, type, defineColumn(column, backend)),
        ),
      ];
    }
    case 'createIndex': {
      let builder = k.schema
        .createIndex(operation.name)
        .on(operation.table)
        .columns([...operation.columns]);
      if (operation.unique) builder = builder.unique();
      const statement = text(builder);
      // kysely has no CONCURRENTLY: it goes right after INDEX.
      return [
        concurrently
          ? statement.replace(/^create (unique )?index /, 'create $1index concurrently ')
          : statement,
      ];
    }
    case 'addForeignKey': {
      const { table } = operation;
      const name = operation.name ?? constraintName(table, operation.columns, 'fkey');
      const builder = k.schema
        .alterTable(table)
        .addForeignKeyConstraint(
          name,
          [...operation.columns],
          operation.references.table,
          [...operation.references.columns],
          (fk) => (operation.onDelete ? fk.onDelete(operation.onDelete) : fk),
        );
      return [text(builder)];
    }
    case 'dropColumn':
      return [text(k.schema.alterTable(operation.table).dropColumn(operation.column))];
    case 'dropTable':
      return [text(k.schema.dropTable(operation.table))];
    case 'renameColumn':
      return [
        text(k.schema.alterTable(operation.table).renameColumn(operation.from, operation.to)),
      ];
    case 'renameTable':
      return [text(k.schema.alterTable(operation.from).renameTo(operation.to))];
    case 'alterColumn': {
      const { table, column, nullable } = operation;
      const type = sqlTypeOf(operation.type, backend);
      if (backend === 'sqlite') {
        throw new UnsupportedOperationError(backend, 'alterColumn', 'SQLite cannot alter a column');
      }
      if (backend === 'mysql') {
        return [
          text(
            k.schema
              .alterTable(table)
              .modifyColumn(column, type, (c) => (nullable ? c : c.notNull())),
          ),
        ];
      }
      return [
        text(
          k.schema
            .alterTable(table)
            .alterColumn(column, (c) => c.setDataType(type))
            .alterColumn(column, (c) => (nullable ? c.dropNotNull() : c.setNotNull())),
        ),
      ];
    }
    case 'sql': {
      const statement = typeof operation.sql === 'string' ? operation.sql : operation.sql[backend];
      return statement === null ? [] : [statement];
    }
  }
}

/**
 * Compiles one operation for a backend. `createdHere`: the tables created by
 * the same migration (a concurrent build of an index on a new, empty table
 * gains nothing and would split the migration's transaction).
 */
export function compileOperation(
  operation: Operation,
  index: number,
  backend: Backend,
  createdHere: ReadonlySet<string> = new Set(),
): DdlStep {
  if (operation.op === 'addForeignKey' && backend === 'sqlite') {
    return {
      kind: 'rebuild-with-foreign-key',
      operation: index,
      table: operation.table,
      constraint: foreignKeyClause(operation.table, operation),
    };
  }
  const concurrently =
    operation.op === 'createIndex' &&
    operation.concurrently === true &&
    capabilitiesOf(backend).concurrentIndex &&
    !createdHere.has(operation.table);
  return {
    kind: 'sql',
    operation: index,
    statements: compileSql(operation, backend, concurrently),
    outsideTransaction: concurrently,
  };
}
