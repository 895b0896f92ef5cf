/**
 * What Ironic's Node object checks and adjusts before it writes (`create` and `save`): the
 * integer properties, the conductor group (validated, lower-cased), traits (written through
 * the trait functions, never as a node column), and over-long messages cut to
 * `log_in_db_max_size`.
 */
import { InvalidConductorGroupError, InvalidParameterError } from './errors.ts';
import type { Row } from './tables.ts';

const INTEGER_PROPERTIES = ['local_gb', 'cpus', 'memory_mb'];
const CONDUCTOR_GROUP = /^[a-zA-Z0-9_\-.]*$/;

/** Python's str() of a JSON value, for messages that show a value as Ironic does. */
function pythonStr(value: unknown): string {
  if (value === null) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string') return value;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** Whether Python's `int(value)` succeeds with a non-negative result. */
function isNonNegativeInt(value: unknown): boolean {
  if (typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value) && Math.trunc(value) >= 0;
  if (typeof value === 'string') {
    const text = value.trim();
    return /^[+-]?\d+(?:_\d+)*$/.test(text) && Number(text.replaceAll('_', '')) >= 0;
  }
  return false;
}

export function checkPropertyValues(properties: unknown, nodeUuid: unknown): void {
  if (properties === null || typeof properties !== 'object') return;
  const values = properties as Record<string, unknown>;
  const invalid = INTEGER_PROPERTIES.filter((name) => {
    const value = values[name];
    return value !== null && value !== undefined && !isNonNegativeInt(value);
  }).map((name) => `${name}=${pythonStr(values[name])}`);
  if (invalid.length > 0) {
    throw new InvalidParameterError(
      `The following properties for node ${pythonStr(nodeUuid ?? null)} should be non-negative integers, but provided values are: ${invalid.join(', ')}`,
      'properties',
    );
  }
}

/** A conductor group as stored: letters, digits, `_-.` only, lower-cased. */
export function validConductorGroup(group: unknown): string {
  if (typeof group !== 'string' || !CONDUCTOR_GROUP.test(group))
    throw new InvalidConductorGroupError(group);
  return group.toLowerCase();
}

/** Applies the rules to the field values about to be written; returns the values to write. */
export function nodeValuesToWrite(changes: Readonly<Row>, maxMessage: number, uuid: unknown): Row {
  const values: Row = { ...changes };
  if ('properties' in values) checkPropertyValues(values.properties, uuid);
  if ('traits' in values) {
    const traits = values.traits as { get(name: 'objects'): unknown[] } | null;
    // A pinned conversion may set traits to null; real traits are written on their own.
    if (traits !== null && traits.get('objects').length > 0) {
      throw new InvalidParameterError(
        'Traits of a node are set through its traits, not written with its fields',
        'traits',
      );
    }
    delete values.traits;
  }
  if ('conductor_group' in values)
    values.conductor_group = validConductorGroup(values.conductor_group);
  for (const field of ['last_error', 'maintenance_reason']) {
    const text = values[field];
    if (typeof text === 'string' && text.length > maxMessage)
      values[field] = text.slice(0, maxMessage);
  }
  return values;
}
