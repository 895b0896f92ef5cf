/**
 * An instance of an object type: field values (a field may be unset), the
 * set of changed fields, and the version its data is in. Inside a process an
 * instance is at its type's current version; other versions appear only in
 * the copies made at the boundaries (see conversion.ts).
 */
import { OffsetDateTime } from './datetime.ts';
import {
  CoercionError,
  FieldValueError,
  NoDefaultError,
  ReadOnlyFieldError,
  UnknownFieldError,
  UnsetFieldError,
} from './errors.ts';
import { coerceFieldValue, defaultValue, type ValueOf } from './fields/field.ts';
import type { FieldMap, ObjectType } from './object-type.ts';

const UNSET: unique symbol = Symbol('unset');

type Slot = unknown | typeof UNSET;

const blanks = new WeakMap<ObjectType, { slots: Slot[]; changed: number[] }>();

/** The values of a type's fields, by name. */
export type FieldValues<F extends FieldMap> = { [K in keyof F]: ValueOf<F[K]> };

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a instanceof OffsetDateTime && b instanceof OffsetDateTime) return a.equals(b);
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * An object of a versioned type: its field values, which of them are set, and which changed since
 * it was read.
 */
export class VersionedObject<F extends FieldMap = FieldMap> {
  readonly type: ObjectType<F>;
  /** The version this instance's data is in. */
  version: string;
  readonly #slots: Slot[];
  readonly #changed: number[];

  constructor(type: ObjectType<F>, version: string) {
    this.type = type;
    this.version = version;
    let blank = blanks.get(type);
    if (blank === undefined) {
      blank = {
        slots: new Array<Slot>(type.fieldNames.length).fill(UNSET),
        changed: new Array<number>(type.fieldNames.length).fill(0),
      };
      blanks.set(type, blank);
    }
    this.#slots = blank.slots.slice();
    this.#changed = blank.changed.slice();
  }

  #indexOf(name: string): number {
    const index = this.type.fieldIndex(name);
    if (index < 0) throw new UnknownFieldError(this.type.name, name);
    return index;
  }

  /** The value of a field; throws UnsetFieldError when it has none. */
  get<K extends keyof F & string>(name: K): ValueOf<F[K]> {
    const value = this.#slots[this.#indexOf(name)];
    if (value === UNSET) throw new UnsetFieldError(this.type.name, name);
    return value as ValueOf<F[K]>;
  }

  /** The value of a field, or undefined when it is unset. */
  peek<K extends keyof F & string>(name: K): ValueOf<F[K]> | undefined {
    const value = this.#slots[this.#indexOf(name)];
    return value === UNSET ? undefined : (value as ValueOf<F[K]>);
  }

  /** `peek` by the field's position in `type.fieldNames` (code walking many objects' fields). */
  peekAt(index: number): unknown {
    const value = this.#slots[index];
    return value === UNSET ? undefined : value;
  }

  /** Whether the field has a value (null counts as one). */
  isSet(name: keyof F & string): boolean {
    return this.#slots[this.#indexOf(name)] !== UNSET;
  }

  /** Sets a field (validated and coerced) and marks it changed, even when equal. */
  set<K extends keyof F & string>(name: K, value: ValueOf<F[K]>): this {
    return this.assign(name, value);
  }

  /** Like `set`, for input of unknown type (wire data, user input): coerced or refused. */
  assign(name: string, value: unknown): this {
    const index = this.type.positions.get(name);
    if (index === undefined) throw new UnknownFieldError(this.type.name, name);
    return this.assignAt(index, value);
  }

  /**
   * `assign` by the field's position in `type.fieldNames`, for code that walks every field
   * (reading a primitive or a row) and need not look each name up.
   */
  assignAt(index: number, value: unknown): this {
    const spec = this.type.specs[index];
    if (spec === undefined)
      throw new RangeError(`${this.type.name} has no field at position ${index}`);
    let coerced: unknown;
    try {
      coerced =
        value === null || value === undefined
          ? coerceFieldValue(spec, value)
          : (this.type.coercers[index] as (value: unknown) => unknown)(value);
    } catch (error) {
      if (error instanceof CoercionError) {
        const name = this.type.fieldNames[index] as string;
        throw new FieldValueError(this.type.name, name + error.path, value, error.message);
      }
      throw error;
    }
    if (spec.readOnly) {
      const current = this.#slots[index];
      if (current !== UNSET && !sameValue(current, coerced))
        throw new ReadOnlyFieldError(this.type.name, this.type.fieldNames[index] as string);
    }
    this.#slots[index] = coerced;
    this.#changed[index] = 1;
    return this;
  }

  /** Removes a field's value. Its changed mark stays, as in oslo. */
  unset(name: keyof F & string): this {
    this.#slots[this.#indexOf(name)] = UNSET;
    return this;
  }

  /** Sets the named fields (all fields with a default when none named) to their defaults. */
  setDefaults(...names: (keyof F & string)[]): this {
    const targets =
      names.length > 0
        ? names
        : this.type.fieldNames.filter((n) => this.type.fields[n]?.hasDefault);
    for (const name of targets) {
      const spec = this.type.specs[this.#indexOf(name)];
      if (!spec?.hasDefault) throw new NoDefaultError(this.type.name, name);
      this.assign(name, defaultValue(spec));
    }
    return this;
  }

  /**
   * Names of the changed fields, including object fields whose nested
   * object (or any object in a list) has changes of its own.
   */
  changedFields(): Set<keyof F & string> {
    const names = this.type.fieldNames;
    const result = new Set<keyof F & string>();
    for (let i = 0; i < names.length; i++) {
      if (this.#changed[i] === 1 || hasNestedChanges(this.#slots[i]))
        result.add(names[i] as keyof F & string);
    }
    return result;
  }

  /** Marks fields changed without touching their values (unknown names are ignored). */
  markChanged(fields: Iterable<string>): this {
    const names = this.type.fieldNames;
    // Lists of changes usually come in declaration order (primitives are written that
    // way): try the field after the last one found before looking the name up.
    let next = 0;
    for (const name of fields) {
      const index = names[next] === name ? next : this.type.fieldIndex(name);
      if (index >= 0) {
        this.#changed[index] = 1;
        next = index + 1;
      }
    }
    return this;
  }

  /** Clears the changed marks: of the named fields only, or of all; `recursive` also clears nested objects. */
  resetChanges(fields?: Iterable<string>, options: { recursive?: boolean } = {}): this {
    if (fields === undefined) {
      this.#changed.fill(0);
    } else {
      for (const name of fields) {
        const index = this.type.fieldIndex(name);
        if (index >= 0) this.#changed[index] = 0;
      }
    }
    if (options.recursive) {
      for (const slot of this.#slots)
        forEachNested(slot, (child) => child.resetChanges(undefined, options));
    }
    return this;
  }

  /** The changed fields that are set, with their values. */
  getChanges(): Partial<FieldValues<F>> {
    const names = this.type.fieldNames;
    const result: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) {
      const value = this.#slots[i];
      if (value !== UNSET && (this.#changed[i] === 1 || hasNestedChanges(value))) {
        result[names[i] as string] = value;
      }
    }
    return result as Partial<FieldValues<F>>;
  }

  /** The set fields and their values. */
  asDict(): Partial<FieldValues<F>> {
    const result: Record<string, unknown> = {};
    this.forEachSet((name, value) => {
      result[name] = value;
    });
    return result as Partial<FieldValues<F>>;
  }

  /** Calls `fn` for each set field, in declaration order. */
  forEachSet(fn: (name: string, value: unknown, index: number) => void): void {
    const names = this.type.fieldNames;
    for (let i = 0; i < names.length; i++) {
      const value = this.#slots[i];
      if (value !== UNSET) fn(names[i] as string, value, i);
    }
  }

  /** Whether the field at a slot index is marked changed (own mark only). */
  isMarkedChanged(index: number): boolean {
    return this.#changed[index] === 1;
  }

  /** A deep copy: values, changed marks and version. */
  clone(): VersionedObject<F> {
    return this.#copy(true);
  }

  /**
   * A copy sharing field values with this one (nested objects are copied).
   * Enough for conversions, which replace values and never edit them in place.
   */
  shallowCopy(): VersionedObject<F> {
    return this.#copy(false);
  }

  #copy(deep: boolean): VersionedObject<F> {
    const copy = new VersionedObject<F>(this.type, this.version);
    for (let i = 0; i < this.#slots.length; i++) {
      const value = this.#slots[i];
      const spec = this.type.specs[i];
      copy.#slots[i] = copyValue(value, deep, spec?.type.clone);
      copy.#changed[i] = this.#changed[i] as number;
    }
    return copy;
  }

  /** The type, version and set fields, for logs. */
  toString(): string {
    const parts: string[] = [];
    this.forEachSet((name, value) => {
      parts.push(
        `${name}=${value instanceof VersionedObject ? value.toString() : JSON.stringify(value)}`,
      );
    });
    return `${this.type.name}@${this.version}(${parts.join(',')})`;
  }
}

function copyValue(
  value: unknown,
  deep: boolean,
  clone: ((v: never) => unknown) | undefined,
): unknown {
  if (value === UNSET || value === null) return value;
  if (value instanceof VersionedObject) return deep ? value.clone() : value.shallowCopy();
  if (Array.isArray(value) && value[0] instanceof VersionedObject) {
    return value.map((child: VersionedObject) => (deep ? child.clone() : child.shallowCopy()));
  }
  return deep && clone ? clone(value as never) : value;
}

function forEachNested(value: unknown, fn: (child: VersionedObject) => void): void {
  if (value instanceof VersionedObject) fn(value);
  else if (Array.isArray(value)) {
    for (const item of value) if (item instanceof VersionedObject) fn(item);
  }
}

function hasNestedChanges(value: unknown): boolean {
  if (value instanceof VersionedObject) return value.changedFields().size > 0;
  if (Array.isArray(value) && value.length > 0 && value[0] instanceof VersionedObject) {
    return value.some((child: VersionedObject) => child.changedFields().size > 0);
  }
  return false;
}
