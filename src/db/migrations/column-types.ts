/**
 * The one place where portable column types become each backend's SQL type.
 * MariaDB's TEXT holds only 64 KiB, so `text` and `json` map to LONGTEXT /
 * JSON there; PostgreSQL stores `json` as jsonb and `datetime` as timestamptz.
 */
import { type ColumnDataType, type Expression, sql } from 'kysely';
import type { Backend } from '../database-url.ts';
import type { ColumnType } from './operations.ts';

const STRING = /^string\((\d+)\)$/;

/** The largest `string(n)`: MariaDB's VARCHAR limit in utf8mb4 bytes / 4, rounded down. */
export const MAX_STRING_LENGTH = 16_383;

/** The length of a `string(n)` type, or undefined for another (or malformed) type. */
export function stringLength(type: string): number | undefined {
  const match = STRING.exec(type);
  return match ? Number(match[1]) : undefined;
}

/** Why a type cannot be used, or undefined when it is fine. */
export function columnTypeProblem(type: string): string | undefined {
  if (type.startsWith('string')) {
    const length = stringLength(type);
    if (length === undefined || length < 1 || length > MAX_STRING_LENGTH) {
      return `'${type}' is not a valid string type: use string(n) with 1 <= n <= ${MAX_STRING_LENGTH}`;
    }
    return undefined;
  }
  const known = ['integer', 'bigint', 'text', 'boolean', 'datetime', 'json', 'float'];
  return known.includes(type)
    ? undefined
    : `unknown column type '${type}' (use ${known.join(', ')} or string(n))`;
}

type SqlType = ColumnDataType | Expression<unknown>;

const FIXED: Record<Backend, Record<Exclude<ColumnType, `string(${number})`>, SqlType>> = {
  sqlite: {
    integer: 'integer',
    bigint: 'bigint',
    text: 'text',
    boolean: 'boolean',
    datetime: 'datetime',
    json: 'text',
    float: 'real',
  },
  postgresql: {
    integer: 'integer',
    bigint: 'bigint',
    text: 'text',
    boolean: 'boolean',
    datetime: 'timestamptz',
    json: 'jsonb',
    float: 'double precision',
  },
  mysql: {
    integer: 'integer',
    bigint: 'bigint',
    text: sql`longtext`,
    boolean: 'boolean',
    datetime: 'datetime(6)',
    json: 'json',
    float: 'double precision',
  },
};

/**
 * The SQL type of a column. An auto-increment key on SQLite must be spelled
 * `integer` (the rowid alias), whatever its width.
 */
export function sqlTypeOf(type: ColumnType, backend: Backend, autoIncrement = false): SqlType {
  const length = stringLength(type);
  if (length !== undefined) return `varchar(${length})`;
  if (autoIncrement && backend === 'sqlite') return 'integer';
  return FIXED[backend][type as Exclude<ColumnType, `string(${number})`>];
}
