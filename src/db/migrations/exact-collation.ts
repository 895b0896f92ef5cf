/**
 * A name column compared byte for byte on MariaDB, as PostgreSQL and SQLite compare it: the
 * server's default collation (utf8mb4_general_ci, PAD SPACE) makes `abc`, `ABC` and `abc ` one
 * value (a unique constraint refuses the second, a lookup by one finds the other);
 * utf8mb4_nopad_bin keeps case and trailing spaces apart. The column keeps its type, size and
 * nullability; nothing to do on the other databases.
 */
import type { Operation } from './operations.ts';

/**
 * The operations that make a name column compare byte for byte on MariaDB (none on the other
 * backends).
 */
export function exactCollationOnMariadb(
  table: string,
  column: string,
  length: number,
  nullable: boolean,
  reviewed: string,
): Operation {
  return {
    op: 'sql',
    sql: {
      sqlite: null,
      postgresql: null,
      mysql: `ALTER TABLE ${table} MODIFY ${column} VARCHAR(${length}) CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin ${nullable ? 'NULL' : 'NOT NULL'}`,
    },
    reviewed,
  };
}
