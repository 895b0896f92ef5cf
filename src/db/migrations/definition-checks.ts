/**
 * Is an operation well formed? Names portable to all three backends, known
 * column types, keys that make sense. Problems are reported by the policy as
 * `invalid-definition`, before any SQL is generated. Pure.
 */
import type { Backend } from '../database-url.ts';
import { columnTypeProblem, stringLength } from './column-types.ts';
import type { Column, ForeignKey, Operation } from './operations.ts';

/**
 * Lower-case (MariaDB table names follow the file system's case rules), at
 * most 63 characters (PostgreSQL truncates longer names silently).
 */
const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

const BACKENDS: readonly Backend[] = ['sqlite', 'postgresql', 'mysql'];

/** The history table belongs to the runner; no migration may touch it. */
export const HISTORY_TABLE = 'baton_schema_migrations';

function nameProblems(kind: string, names: readonly string[]): string[] {
  const problems: string[] = [];
  for (const name of names) {
    if (!IDENTIFIER.test(name)) {
      problems.push(
        `${kind} name '${name}' is not portable: use lower-case letters, digits and _ (at most 63)`,
      );
    }
    if (name === HISTORY_TABLE) problems.push(`'${HISTORY_TABLE}' is the runner's own table`);
  }
  return problems;
}

function columnProblems(table: string, column: Column): string[] {
  const problems = nameProblems('column', [column.name]);
  const typeProblem = columnTypeProblem(column.type);
  if (typeProblem) problems.push(`${table}.${column.name}: ${typeProblem}`);
  if (column.autoIncrement && !(column.type === 'integer' || column.type === 'bigint')) {
    problems.push(`${table}.${column.name}: autoIncrement needs an integer or bigint column`);
  }
  if (column.autoIncrement && !column.primaryKey) {
    problems.push(`${table}.${column.name}: autoIncrement needs primaryKey: true`);
  }
  if (column.primaryKey && column.nullable === true) {
    problems.push(`${table}.${column.name}: a primary key cannot be nullable`);
  }
  if (column.default !== undefined && column.autoIncrement) {
    problems.push(`${table}.${column.name}: an autoIncrement column cannot have a default`);
  }
  const length = stringLength(column.type);
  if (
    typeof column.default === 'string' &&
    length !== undefined &&
    column.default.length > length
  ) {
    problems.push(`${table}.${column.name}: the default is longer than ${column.type}`);
  }
  return problems;
}

function foreignKeyProblems(table: string, key: ForeignKey): string[] {
  const problems = nameProblems('table', [key.references.table]);
  problems.push(...nameProblems('column', [...key.columns, ...key.references.columns]));
  if (key.name !== undefined) problems.push(...nameProblems('constraint', [key.name]));
  if (key.columns.length === 0 || key.columns.length !== key.references.columns.length) {
    problems.push(
      `${table}: a foreign key needs as many referenced columns as columns (at least one)`,
    );
  }
  return problems;
}

function duplicates(names: readonly string[]): string[] {
  return [...new Set(names.filter((name, i) => names.indexOf(name) !== i))];
}

function createTableProblems(operation: Extract<Operation, { op: 'createTable' }>): string[] {
  const { table, columns } = operation;
  const problems = nameProblems('table', [table]);
  if (columns.length === 0) problems.push(`table ${table} has no columns`);
  const names = columns.map((c) => c.name);
  for (const name of duplicates(names)) problems.push(`table ${table} declares ${name} twice`);
  for (const column of columns) problems.push(...columnProblems(table, column));
  const keyed = columns.filter((c) => c.primaryKey).length;
  if (operation.primaryKey && keyed > 0) {
    problems.push(
      `table ${table}: declare the primary key on its column or as primaryKey, not both`,
    );
  }
  if (keyed > 1)
    problems.push(`table ${table}: several columns say primaryKey; use primaryKey: [...]`);
  const listed = [
    ...(operation.primaryKey ?? []),
    ...(operation.unique ?? []).flatMap((u) => u.columns),
    ...(operation.foreignKeys ?? []).flatMap((k) => k.columns),
  ];
  for (const name of listed) {
    if (!names.includes(name)) problems.push(`table ${table} has no column ${name}`);
  }
  for (const unique of operation.unique ?? []) {
    if (unique.columns.length === 0)
      problems.push(`table ${table}: a unique constraint needs columns`);
    if (unique.name !== undefined) problems.push(...nameProblems('constraint', [unique.name]));
  }
  for (const key of operation.foreignKeys ?? []) problems.push(...foreignKeyProblems(table, key));
  return problems;
}

/** What is wrong with an operation's definition (empty when nothing is). */
export function definitionProblems(operation: Operation): string[] {
  switch (operation.op) {
    case 'createTable':
      return createTableProblems(operation);
    case 'addColumn':
      return [
        ...nameProblems('table', [operation.table]),
        ...columnProblems(operation.table, operation.column),
      ];
    case 'createIndex': {
      const problems = nameProblems('table', [operation.table]);
      problems.push(...nameProblems('index', [operation.name]));
      problems.push(...nameProblems('column', operation.columns));
      if (operation.columns.length === 0) problems.push(`index ${operation.name} has no columns`);
      return problems;
    }
    case 'addForeignKey':
      return [
        ...nameProblems('table', [operation.table]),
        ...foreignKeyProblems(operation.table, operation),
      ];
    case 'dropColumn':
      return nameProblems('table', [operation.table]).concat(
        nameProblems('column', [operation.column]),
      );
    case 'dropTable':
      return nameProblems('table', [operation.table]);
    case 'renameColumn':
      return nameProblems('table', [operation.table]).concat(
        nameProblems('column', [operation.from, operation.to]),
      );
    case 'alterColumn': {
      const problems = nameProblems('table', [operation.table]);
      problems.push(...nameProblems('column', [operation.column]));
      const typeProblem = columnTypeProblem(operation.type);
      if (typeProblem) problems.push(typeProblem);
      return problems;
    }
    case 'renameTable':
      return nameProblems('table', [operation.from, operation.to]);
    case 'sql': {
      if (typeof operation.sql === 'string') {
        return operation.sql.trim() === '' ? ['a sql operation has an empty statement'] : [];
      }
      const perBackend = operation.sql;
      return BACKENDS.flatMap((backend) => {
        const text = perBackend[backend];
        if (text === undefined)
          return [`a sql operation says nothing for ${backend} (null: skip it)`];
        return text !== null && text.trim() === '' ? [`the ${backend} statement is empty`] : [];
      });
    }
  }
}
