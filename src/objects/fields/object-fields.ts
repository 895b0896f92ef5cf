/** Fields holding other versioned objects: one object, or a list of them. */
import { CoercionError, describeValue } from '../errors.ts';
import type { FieldMap, ObjectType } from '../object-type.ts';
import { toPrimitive } from '../primitive.ts';
import { VersionedObject } from '../versioned-object.ts';
import type { FieldType } from './field.ts';

/** Marks field types whose values are objects, so encoders can recurse into them. */
export interface NestedObjectType {
  readonly nested: 'object' | 'list';
  /** The name of the object type held. */
  readonly objectName: string;
}

export function isNestedObjectType(
  type: FieldType<unknown>,
): type is FieldType<unknown> & NestedObjectType {
  return 'nested' in type;
}

function checkObject(value: unknown, objectName: string): VersionedObject {
  if (value instanceof VersionedObject && value.type.name === objectName) return value;
  throw new CoercionError(`${describeValue(value)} is not a ${objectName} object`);
}

/** A nested object. The type is given lazily so that types can refer to each other. */
export function objectType<F extends FieldMap>(
  target: () => ObjectType<F>,
): FieldType<VersionedObject<F>> & NestedObjectType {
  return {
    kind: 'Object',
    get detail() {
      return target().name;
    },
    nested: 'object',
    get objectName() {
      return target().name;
    },
    coerce: (value) => checkObject(value, target().name) as VersionedObject<F>,
    toPrimitive: (value) => toPrimitive(value),
    fromPrimitive: (value, reader) => reader.readObject(value),
    clone: (value) => value.clone(),
  };
}

/** A list of objects of one type. */
export function listOfObjectsType<F extends FieldMap>(
  target: () => ObjectType<F>,
): FieldType<VersionedObject<F>[]> & NestedObjectType {
  return {
    kind: 'List',
    get detail() {
      return `Object:${target().name}`;
    },
    nested: 'list',
    get objectName() {
      return target().name;
    },
    coerce(value) {
      const objectName = target().name;
      if (!Array.isArray(value)) throw new CoercionError(`${describeValue(value)} is not a list`);
      return value.map((item, i) => {
        try {
          return checkObject(item, objectName) as VersionedObject<F>;
        } catch (error) {
          if (error instanceof CoercionError) throw new CoercionError(error.message, `[${i}]`);
          throw error;
        }
      });
    },
    toPrimitive: (value) => value.map((item) => toPrimitive(item)),
    fromPrimitive(value, reader) {
      if (!Array.isArray(value)) throw new CoercionError(`${describeValue(value)} is not a list`);
      return value.map((item) => reader.readObject(item));
    },
    clone: (value) => value.map((item) => item.clone()),
  };
}
