/**
 * The object types a process knows, by name, for reading primitives. A
 * registry is built explicitly from a list of types: an old release's
 * process is simply a registry holding the old types.
 */
import {
  CoercionError,
  FieldValueError,
  IncompatibleObjectVersionError,
  MalformedPrimitiveError,
  UnsupportedObjectError,
} from './errors.ts';
import { decodeWire, type PrimitiveReader } from './fields/field.ts';
import type { ObjectNamespace, ObjectType } from './object-type.ts';
import { isPlainObject } from './plain-object.ts';
import { type PrimitiveKeys, primitiveKeys } from './primitive.ts';
import { isCompatibleVersion, parseObjectVersion } from './version.ts';
import { VersionedObject } from './versioned-object.ts';

/** The object types of one namespace, by name: what reads a primitive back into an object. */
export class ObjectRegistry implements PrimitiveReader {
  readonly namespace: ObjectNamespace;
  readonly #keys: PrimitiveKeys;
  readonly #types = new Map<string, ObjectType>();

  constructor(namespace: ObjectNamespace, types: readonly ObjectType[]) {
    this.namespace = namespace;
    this.#keys = primitiveKeys(namespace);
    for (const type of types) {
      if (
        type.namespace.project !== namespace.project ||
        type.namespace.serial !== namespace.serial
      ) {
        throw new RangeError(
          `${type.name} belongs to namespace ${type.namespace.project}, not ${namespace.project}`,
        );
      }
      if (this.#types.has(type.name)) throw new RangeError(`${type.name} is registered twice`);
      this.#types.set(type.name, type);
    }
  }

  /** The type of this name, or undefined. */
  get(name: string): ObjectType | undefined {
    return this.#types.get(name);
  }

  /** Every registered type. */
  types(): ObjectType[] {
    return [...this.#types.values()];
  }

  /** Whether a value has the `<serial>.name` key of an object primitive. */
  isPrimitive(value: unknown): value is Record<string, unknown> {
    return isPlainObject(value) && this.#keys.name in value;
  }

  /**
   * Reads a primitive into an object at the version it was sent in (the
   * caller converts it to the latest; see ObjectSerializer). Values go through
   * the fields' coercion; unknown data keys and unknown changed names are
   * ignored, as in oslo.
   */
  fromPrimitive(primitive: unknown): VersionedObject {
    const keys = this.#keys;
    if (!isPlainObject(primitive)) throw new MalformedPrimitiveError('not a JSON object');
    const name = primitive[keys.name];
    const namespace = primitive[keys.namespace];
    const version = primitive[keys.version];
    if (typeof name !== 'string') throw new MalformedPrimitiveError(`missing ${keys.name}`);
    if (typeof namespace !== 'string')
      throw new MalformedPrimitiveError(`missing ${keys.namespace}`);
    if (namespace !== this.namespace.project)
      throw new UnsupportedObjectError(`${namespace}.${name}`);
    const type = this.#types.get(name);
    if (type === undefined) throw new UnsupportedObjectError(name);
    // The type's own version (the usual case) is valid, compatible and known.
    if (version !== type.version) {
      if (typeof version !== 'string' || parseObjectVersion(version) === null) {
        throw new MalformedPrimitiveError(`bad ${keys.version} ${JSON.stringify(version)}`);
      }
      if (!isCompatibleVersion(version, type.version) || !type.isKnownVersion(version)) {
        throw new IncompatibleObjectVersionError(name, version, type.version);
      }
    }
    const data = primitive[keys.data];
    if (!isPlainObject(data)) throw new MalformedPrimitiveError(`missing ${keys.data}`);
    const changes = primitive[keys.changes] ?? [];
    if (!Array.isArray(changes)) throw new MalformedPrimitiveError(`${keys.changes} is not a list`);

    const obj = new VersionedObject(type, version);
    const { decoders, fieldNames } = type;
    for (let i = 0; i < fieldNames.length; i++) {
      const field = fieldNames[i] as string;
      const raw = data[field];
      if (raw === undefined && !(field in data)) continue;
      try {
        // assignAt() coerces; the wire value only needs decoding.
        obj.assignAt(i, decodeWire(decoders[i], raw, this));
      } catch (error) {
        if (error instanceof CoercionError)
          throw new FieldValueError(name, field + error.path, raw, error.message);
        throw error;
      }
    }
    // The sender's changes replace the marks the assignments made.
    obj.resetChanges();
    // Entries that are not field names (not even strings) match no field and are ignored.
    obj.markChanged(changes as string[]);
    return obj;
  }

  /** Reads a primitive back into an object. */
  readObject(primitive: unknown): unknown {
    return this.fromPrimitive(primitive);
  }
}
