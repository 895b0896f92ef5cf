/**
 * Field values to column values and back, the same on the three backends: dicts and lists as
 * JSON text (Ironic's JsonEncodedDict/List), datetimes as Date objects (timestamptz,
 * DATETIME(6), ISO text on SQLite through the connection's value plugin), booleans as they are.
 */
import { OffsetDateTime, VersionedObject } from '../../objects/index.ts';
import type { Row } from './tables.ts';

export function columnValue(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof OffsetDateTime) return value.toDate();
  if (value instanceof Date) return value;
  if (value instanceof VersionedObject)
    throw new TypeError(`a ${value.type.name} object has no column form`);
  if (value instanceof Set) return JSON.stringify([...value]);
  if (typeof value === 'object') return JSON.stringify(value);
  return value;
}

/** The column values of changed fields, leaving out the names in `omit`. */
export function toColumns(changes: Readonly<Row>, omit: ReadonlySet<string> = new Set()): Row {
  const columns: Row = {};
  for (const [name, value] of Object.entries(changes)) {
    if (!omit.has(name)) columns[name] = columnValue(value);
  }
  return columns;
}

/** JSON text of a list column as the list its field accepts (other columns pass as they are). */
export function parseJsonColumns(row: Row, columns: readonly string[]): Row {
  const result = { ...row };
  for (const column of columns) {
    const value = result[column];
    if (typeof value === 'string') result[column] = JSON.parse(value);
  }
  return result;
}
