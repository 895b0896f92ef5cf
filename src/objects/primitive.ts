/**
 * Objects as primitives in the oslo.versionedobjects layout, so Python
 * services read what Baton sends:
 *
 *   { "<serial>.name": "Node", "<serial>.namespace": "<project>",
 *     "<serial>.version": "1.15", "<serial>.data": {...set fields...},
 *     "<serial>.changes": [...changed fields present in data...] }
 *
 * The changes key is left out when there are none.
 */
import { convertForWire } from './conversion.ts';
import { InvalidTargetVersionError } from './errors.ts';
import { fieldToPrimitive } from './fields/field.ts';
import { isNestedObjectType } from './fields/object-fields.ts';
import type { ObjectNamespace } from './object-type.ts';
import { compareObjectVersions } from './version.ts';
import type { VersionedObject } from './versioned-object.ts';

/**
 * An object as oslo.versionedobjects' primitive (`<namespace>.name`, `.version`, `.data`,
 * `.changes`).
 */
export type ObjectPrimitive = Record<string, unknown>;

export interface PrimitiveKeys {
  readonly name: string;
  readonly namespace: string;
  readonly version: string;
  readonly data: string;
  readonly changes: string;
}

const keysCache = new Map<string, PrimitiveKeys>();

/** The primitive's keys for a namespace. */
export function primitiveKeys(namespace: ObjectNamespace): PrimitiveKeys {
  let keys = keysCache.get(namespace.serial);
  if (keys === undefined) {
    const s = namespace.serial;
    keys = {
      name: `${s}.name`,
      namespace: `${s}.namespace`,
      version: `${s}.version`,
      data: `${s}.data`,
      changes: `${s}.changes`,
    };
    keysCache.set(s, keys);
  }
  return keys;
}

/**
 * The primitive of an object. With a target version older than the
 * object's, the data is that of a wire conversion to the target, and the
 * changes are the object's own changes that are still present in the data
 * (oslo's `obj_to_primitive(target_version=...)`). To send an object with
 * the changes its conversion made, convert it first (the serializer does).
 */
export function toPrimitive(obj: VersionedObject, target?: string): ObjectPrimitive {
  if (target === undefined || target === obj.version) return encode(obj, obj);
  if (compareObjectVersions(target, obj.version) > 0) {
    throw new InvalidTargetVersionError(obj.type.name, target, obj.version);
  }
  return encode(convertForWire(obj, target), obj);
}

/** Encodes `obj`, taking changed marks from `marks` (the same object, or its unconverted original). */
function encode(obj: VersionedObject, marks: VersionedObject): ObjectPrimitive {
  const keys = primitiveKeys(obj.type.namespace);
  const data: Record<string, unknown> = {};
  const changed = marks.changedFields();
  const changes: string[] = [];
  const specs = obj.type.specs;
  obj.forEachSet((name, value, index) => {
    const spec = specs[index];
    if (spec === undefined) return;
    if (value !== null && isNestedObjectType(spec.type)) {
      const originals = marks === obj ? undefined : marks.peek(name);
      if (Array.isArray(value)) {
        data[name] = value.map((child: VersionedObject, i) =>
          encode(child, (Array.isArray(originals) ? originals[i] : undefined) ?? child),
        );
      } else {
        data[name] = encode(
          value as VersionedObject,
          (originals as VersionedObject | undefined) ?? (value as VersionedObject),
        );
      }
    } else {
      data[name] = fieldToPrimitive(spec, value);
    }
    if (changed.has(name)) changes.push(name);
  });
  const primitive: ObjectPrimitive = {
    [keys.name]: obj.type.name,
    [keys.namespace]: obj.type.namespace.project,
    [keys.version]: obj.version,
    [keys.data]: data,
  };
  if (changes.length > 0) primitive[keys.changes] = changes;
  return primitive;
}
