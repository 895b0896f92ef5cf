/** Recognises a foreign-key violation from any of the three drivers. */

/** True when `error` is a row still referenced, or a reference to a row that is gone. */
export function isForeignKeyError(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const { code, errno } = error as { code?: unknown; errno?: unknown };
  return (
    code === '23503' || // PostgreSQL foreign_key_violation
    errno === 1451 || // MariaDB / MySQL: row is referenced
    errno === 1452 || // MariaDB / MySQL: referenced row missing
    code === 'SQLITE_CONSTRAINT_FOREIGNKEY'
  );
}
