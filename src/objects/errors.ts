/**
 * Errors of the versioned-object layer. Each carries the facts as fields so
 * callers can map them to their own wire format.
 */

export class ObjectError extends Error {
  override name = 'ObjectError';
}

/** A value that a field cannot hold. Names the object, the field and the value. */
export class FieldValueError extends ObjectError {
  override name = 'FieldValueError';
  readonly objectName: string;
  readonly field: string;
  readonly value: unknown;
  readonly reason: string;
  constructor(objectName: string, field: string, value: unknown, reason: string) {
    super(`${objectName}.${field}: invalid value ${describeValue(value)}: ${reason}`);
    this.objectName = objectName;
    this.field = field;
    this.value = value;
    this.reason = reason;
  }
}

/** Thrown by field types; the object layer adds the object and field names. */
export class CoercionError extends Error {
  override name = 'CoercionError';
  /** Path inside a container value, such as `[3]` or `[key]`. */
  readonly path: string;
  constructor(message: string, path = '') {
    super(message);
    this.path = path;
  }
}

export class UnknownFieldError extends ObjectError {
  override name = 'UnknownFieldError';
  readonly objectName: string;
  readonly field: string;
  constructor(objectName: string, field: string) {
    super(`${objectName} object has no field '${field}'`);
    this.objectName = objectName;
    this.field = field;
  }
}

export class UnsetFieldError extends ObjectError {
  override name = 'UnsetFieldError';
  readonly objectName: string;
  readonly field: string;
  constructor(objectName: string, field: string) {
    super(`${objectName}.${field} is not set`);
    this.objectName = objectName;
    this.field = field;
  }
}

export class ReadOnlyFieldError extends ObjectError {
  override name = 'ReadOnlyFieldError';
  readonly objectName: string;
  readonly field: string;
  constructor(objectName: string, field: string) {
    super(`${objectName}.${field} is read-only and already set to another value`);
    this.objectName = objectName;
    this.field = field;
  }
}

export class NoDefaultError extends ObjectError {
  override name = 'NoDefaultError';
  readonly objectName: string;
  readonly field: string;
  constructor(objectName: string, field: string) {
    super(`${objectName}.${field} has no default value`);
    this.objectName = objectName;
    this.field = field;
  }
}

/** A version this object type does not know (unlisted, malformed or newer). */
export class UnknownVersionError extends ObjectError {
  override name = 'UnknownVersionError';
  readonly objectName: string;
  readonly version: string;
  readonly known: readonly string[];
  constructor(objectName: string, version: string, known: readonly string[]) {
    super(
      `${objectName} has no version '${version}'; known versions: ${known.join(', ') || '(none)'}`,
    );
    this.objectName = objectName;
    this.version = version;
    this.known = known;
  }
}

/** `toPrimitive` asked for a version newer than the object's own. */
export class InvalidTargetVersionError extends ObjectError {
  override name = 'InvalidTargetVersionError';
  readonly objectName: string;
  readonly target: string;
  readonly current: string;
  constructor(objectName: string, target: string, current: string) {
    super(`Invalid target version ${target} for ${objectName} at version ${current}`);
    this.objectName = objectName;
    this.target = target;
    this.current = current;
  }
}

/** A received object whose version this process cannot handle. */
export class IncompatibleObjectVersionError extends ObjectError {
  override name = 'IncompatibleObjectVersionError';
  readonly objectName: string;
  readonly version: string;
  readonly supported: string;
  constructor(objectName: string, version: string, supported: string) {
    super(
      `Version ${version} of ${objectName} is not supported, supported version is ${supported}`,
    );
    this.objectName = objectName;
    this.version = version;
    this.supported = supported;
  }
}

/** A received object of an unknown type or namespace. */
export class UnsupportedObjectError extends ObjectError {
  override name = 'UnsupportedObjectError';
  readonly objectType: string;
  constructor(objectType: string) {
    super(`Unsupported object type ${objectType}`);
    this.objectType = objectType;
  }
}

/** A primitive that does not have the shape of a serialized object. */
export class MalformedPrimitiveError extends ObjectError {
  override name = 'MalformedPrimitiveError';
  constructor(reason: string) {
    super(`Malformed object primitive: ${reason}`);
  }
}

/** A value, shortened for an error message. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string')
    return JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);
  if (typeof value === 'bigint') return `${value}n`;
  if (value === undefined) return 'undefined';
  if (typeof value === 'number' || typeof value === 'boolean' || value === null)
    return String(value);
  if (value instanceof Date)
    return `Date(${Number.isNaN(value.getTime()) ? 'invalid' : value.toISOString()})`;
  if (Array.isArray(value)) return `array(${value.length})`;
  const ctor = (value as object).constructor?.name;
  return ctor && ctor !== 'Object' ? ctor : 'object';
}
