/**
 * Recognising constraint violations from the three drivers (pg, mysql2, better-sqlite3) by
 * their error codes, and which constraint or columns a unique violation names: PostgreSQL and
 * MariaDB give the constraint's name, SQLite the table's columns.
 */

interface DriverError {
  code?: unknown;
  errno?: unknown;
  constraint?: unknown;
  sqlMessage?: unknown;
  message?: unknown;
}

function asDriverError(error: unknown): DriverError | undefined {
  return error !== null && typeof error === 'object' ? (error as DriverError) : undefined;
}

/** A unique or primary key constraint refused an insert or update. */
export function isUniqueViolation(error: unknown): boolean {
  const e = asDriverError(error);
  if (e === undefined) return false;
  return (
    e.code === '23505' ||
    e.code === 'ER_DUP_ENTRY' ||
    e.errno === 1062 ||
    e.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

/** A foreign key refused a write: a row still referenced, or a reference to no row. */
export function isForeignKeyViolation(error: unknown): boolean {
  const e = asDriverError(error);
  if (e === undefined) return false;
  return (
    e.code === '23503' ||
    e.errno === 1451 ||
    e.errno === 1452 ||
    e.code === 'SQLITE_CONSTRAINT_FOREIGNKEY'
  );
}

/**
 * The unique constraint a violation names, as one of `constraints` (constraint name -> the
 * column it covers, for the table written); undefined when it cannot be told.
 */
export function violatedUniqueColumn(
  error: unknown,
  table: string,
  constraints: Readonly<Record<string, string>>,
): string | undefined {
  const e = asDriverError(error);
  if (e === undefined) return undefined;
  if (typeof e.constraint === 'string' && Object.hasOwn(constraints, e.constraint))
    return constraints[e.constraint];
  const text = typeof e.sqlMessage === 'string' ? e.sqlMessage : String(e.message ?? '');
  // "Duplicate entry 'x' for key 'uniq_nodes0name'" (the key may be prefixed by the table).
  const key = /for key '(?:[^'.]+\.)?([^']+)'/.exec(text);
  if (key?.[1] !== undefined && Object.hasOwn(constraints, key[1])) return constraints[key[1]];
  // "UNIQUE constraint failed: nodes.name"
  const columns = /constraint failed: (.+)$/.exec(text);
  if (columns?.[1] !== undefined) {
    const named = columns[1].split(',').map((c) => c.trim());
    const column = named.length === 1 ? named[0]?.replace(`${table}.`, '') : undefined;
    if (column !== undefined && Object.values(constraints).includes(column)) return column;
  }
  return undefined;
}
