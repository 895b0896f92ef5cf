/**
 * The default way to turn an object's changed field values into column
 * values that the three drivers store alike: booleans as 1/0 (an integer or
 * boolean column accepts both), dicts, lists and sets as JSON text (which the
 * object fields read back from a string). Datetimes and nested objects have
 * no single column form across the backends; a table holding them gives its
 * own `toColumns`.
 */
import { OffsetDateTime, VersionedObject } from '../../objects/index.ts';
import { ColumnEncodingError } from './errors.ts';

export function defaultColumnValues(
  table: string,
  changes: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(changes)) {
    columns[column] = columnValue(table, column, value);
  }
  return columns;
}

function columnValue(table: string, column: string, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'bigint':
      return value;
    case 'boolean':
      return value ? 1 : 0;
  }
  if (value instanceof OffsetDateTime || value instanceof Date)
    throw new ColumnEncodingError(table, column, 'datetime');
  if (value instanceof VersionedObject || containsObject(value))
    throw new ColumnEncodingError(table, column, 'nested object');
  if (value instanceof Set) return JSON.stringify([...value]);
  return JSON.stringify(value);
}

function containsObject(value: unknown): boolean {
  return Array.isArray(value) && value.some((item) => item instanceof VersionedObject);
}
