/**
 * Field specs: a value type (how to coerce, send and read a value) plus the
 * field's options (nullable, default, read-only). Specs are plain data built
 * by the `f` helpers; objects declare them explicitly.
 */
import { CoercionError } from '../errors.ts';

/** Reads nested objects out of primitives; supplied by the object registry. */
export interface PrimitiveReader {
  readObject(primitive: unknown): unknown;
}

/**
 * A field's value type, as plain functions: object types keep `coerce` and `fromPrimitive` in
 * arrays by field position and call them without `this`, so they must not use it.
 */
export interface FieldType<T> {
  /** oslo's FieldType class name (`Integer`, `FlexibleDict`, `List`...). */
  readonly kind: string;
  /** What else defines the type: element type, enum values, object name. */
  readonly detail?: string;
  /** Converts an input to the field's value, or throws CoercionError. */
  coerce(value: unknown): T;
  /** The JSON form sent on the wire. */
  toPrimitive(value: T): unknown;
  /**
   * Turns a wire value back into something `coerce` accepts; absent when the wire value
   * already is such an input (most types: the read then skips a call per field).
   */
  fromPrimitive?(value: unknown, reader: PrimitiveReader): unknown;
  /** A deep copy; absent for immutable values. */
  clone?(value: T): T;
  /** What a nullable field of this type holds for null (FlexibleDict: `{}`). */
  nullValue?(): T;
}

/** A field: its type, whether it may be null, and its default. */
export interface FieldSpec<T = unknown, N extends boolean = boolean> {
  readonly type: FieldType<T>;
  readonly nullable: N;
  readonly hasDefault: boolean;
  readonly default: T | null | undefined;
  readonly readOnly: boolean;
}

/** The value type a field holds. */
export type ValueOf<S> =
  S extends FieldSpec<infer T, infer N> ? (N extends true ? T | null : T) : never;

/** What a field builder takes: whether the field may be null, its default, and read-only. */
export interface FieldOptions<T> {
  nullable?: boolean;
  default?: T | null;
  readOnly?: boolean;
}

type NullableOf<O> = O extends { nullable: true } ? true : false;

export function makeField<T, const O extends FieldOptions<T> = Record<never, never>>(
  type: FieldType<T>,
  options?: O,
): FieldSpec<T, NullableOf<O>> {
  const hasDefault = options !== undefined && 'default' in options;
  const spec: FieldSpec<T, NullableOf<O>> = {
    type,
    nullable: (options?.nullable === true) as NullableOf<O>,
    hasDefault,
    default: hasDefault ? options?.default : undefined,
    readOnly: options?.readOnly === true,
  };
  if (hasDefault && spec.default !== null && spec.default !== undefined) {
    // A default must itself be a valid value: fail at definition, not at use.
    type.coerce(spec.default);
  }
  return spec;
}

/**
 * Coerces a value for a field, applying the null rules: null is kept on a
 * nullable field (or becomes the type's null value), replaced by the default
 * on a non-nullable field that has one, and refused otherwise.
 */
export function coerceFieldValue<T>(spec: FieldSpec<T>, value: unknown): T | null {
  if (value === null || value === undefined) {
    if (spec.nullable) return spec.type.nullValue ? spec.type.nullValue() : null;
    if (spec.hasDefault) return defaultValue(spec);
    throw new CoercionError('cannot be null');
  }
  return spec.type.coerce(value);
}

/** A fresh copy of the field's default value. */
export function defaultValue<T>(spec: FieldSpec<T>): T | null {
  const value = spec.default;
  if (value === null || value === undefined) {
    return spec.nullable && spec.type.nullValue ? spec.type.nullValue() : null;
  }
  return spec.type.coerce(spec.type.clone ? spec.type.clone(value) : value);
}

/** The wire form of a field value. */
export function fieldToPrimitive<T>(spec: FieldSpec<T>, value: T | null): unknown {
  return value === null ? null : spec.type.toPrimitive(value);
}

/** A field type's wire decoding, called without `this` (see FieldType). */
export type WireDecoder = (value: unknown, reader: PrimitiveReader) => unknown;

/** A wire value turned into an input for coercion by a field's decoder, if it has one (null stays null). */
export function decodeWire(
  decode: WireDecoder | undefined,
  value: unknown,
  reader: PrimitiveReader,
): unknown {
  if (value === null || value === undefined) return null;
  return decode === undefined ? value : decode(value, reader);
}

/** A wire value turned into an input for coercion (null stays null). */
export function fromWire<T>(spec: FieldSpec<T>, value: unknown, reader: PrimitiveReader): unknown {
  return decodeWire(spec.type.fromPrimitive, value, reader);
}

/** Reads a wire value and coerces it. */
export function fieldFromPrimitive<T>(
  spec: FieldSpec<T>,
  value: unknown,
  reader: PrimitiveReader,
): T | null {
  return coerceFieldValue(spec, fromWire(spec, value, reader));
}
