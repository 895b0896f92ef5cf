/** Recognises a unique-constraint violation from any of the three drivers. */

/** True when `error` is a duplicate key on insert or update (PostgreSQL, MariaDB, SQLite). */
export function isDuplicateKeyError(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const { code, errno } = error as { code?: unknown; errno?: unknown };
  return (
    code === '23505' || // PostgreSQL unique_violation
    code === 'ER_DUP_ENTRY' ||
    errno === 1062 || // MariaDB / MySQL
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}
