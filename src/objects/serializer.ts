/**
 * Objects crossing an RPC boundary (the rolling-upgrade doc): when sending, each object is
 * converted to the version the release pin asks for, keeping the changes the
 * conversion made so the receiver can save them; when receiving, each object
 * is converted to the latest version this process has, again keeping changes.
 * Containers (arrays, plain objects) are walked; other values pass through.
 */
import { convertForWire, convertOwnForWire } from './conversion.ts';
import { IncompatibleObjectVersionError } from './errors.ts';
import { isPlainObject, setOwn } from './plain-object.ts';
import { toPrimitive } from './primitive.ts';
import type { ObjectRegistry } from './registry.ts';
import type { VersionTargets } from './targets.ts';
import { stripPatchVersion } from './version.ts';
import { VersionedObject } from './versioned-object.ts';

/**
 * The RPC serializer of versioned objects: sends each at the version the caps in force allow, and
 * reads what arrives at the latest.
 */
export class ObjectSerializer {
  readonly registry: ObjectRegistry;
  readonly targets: VersionTargets | undefined;

  /** Without targets (no pin) objects are sent at their latest version. */
  constructor(registry: ObjectRegistry, targets?: VersionTargets) {
    this.registry = registry;
    this.targets = targets;
  }

  /** An entity as sent: objects converted to their target versions and made primitives. */
  serializeEntity(entity: unknown): unknown {
    if (entity instanceof VersionedObject) {
      const target =
        this.targets?.objectVersion(entity.type.name, entity.type.version) ?? entity.type.version;
      const sent = target === entity.version ? entity : convertForWire(entity, target);
      return toPrimitive(sent);
    }
    if (Array.isArray(entity)) return entity.map((item) => this.serializeEntity(item));
    if (isPlainObject(entity)) return mapValues(entity, (value) => this.serializeEntity(value));
    return entity;
  }

  /** An entity as received: primitives read back as objects of the latest version. */
  deserializeEntity(entity: unknown): unknown {
    if (this.registry.isPrimitive(entity)) {
      const obj = this.#read(entity);
      return obj.version === obj.type.version ? obj : convertOwnForWire(obj, obj.type.version);
    }
    if (Array.isArray(entity)) return entity.map((item) => this.deserializeEntity(item));
    if (isPlainObject(entity)) return mapValues(entity, (value) => this.deserializeEntity(value));
    return entity;
  }

  #read(primitive: Record<string, unknown>): VersionedObject {
    try {
      return this.registry.fromPrimitive(primitive);
    } catch (error) {
      // oslo's serializer accepts X.Y.Z by dropping the .Z, and so do we.
      const versionKey = `${this.registry.namespace.serial}.version`;
      const version = primitive[versionKey];
      if (error instanceof IncompatibleObjectVersionError && typeof version === 'string') {
        const stripped = stripPatchVersion(version);
        if (stripped !== version)
          return this.registry.fromPrimitive({ ...primitive, [versionKey]: stripped });
      }
      throw error;
    }
  }
}

function mapValues(
  source: Record<string, unknown>,
  fn: (value: unknown) => unknown,
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(source)) setOwn(result, key, fn(source[key]));
  return result;
}
