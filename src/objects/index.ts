/** Versioned objects: the public surface of src/objects. */
export { convertForDb, convertForWire } from './conversion.ts';
export { OffsetDateTime } from './datetime.ts';
export { type DbChanges, versionChangesForDb } from './db-changes.ts';
export { objectFromDbRow } from './db-row.ts';
export * from './errors.ts';
export type { JsonDict } from './fields/collections.ts';
export type { FieldOptions, FieldSpec, FieldType, ValueOf } from './fields/field.ts';
export { f } from './fields/index.ts';
export {
  assertFingerprints,
  compareFingerprints,
  describeObjectType,
  type FingerprintReport,
  fingerprint,
} from './fingerprint.ts';
export {
  type ConversionHook,
  defineObjectType,
  type FieldMap,
  type MethodParam,
  type ObjectNamespace,
  ObjectType,
  type ObjectTypeDefinition,
  type RemotableMethod,
  type VersionStep,
} from './object-type.ts';
export { type ObjectPrimitive, primitiveKeys, toPrimitive } from './primitive.ts';
export { ObjectRegistry } from './registry.ts';
export { ObjectSerializer } from './serializer.ts';
export type { VersionTargets } from './targets.ts';
export {
  compareObjectVersions,
  isCompatibleVersion,
  maxObjectVersion,
  parseObjectVersion,
} from './version.ts';
export { type FieldValues, VersionedObject } from './versioned-object.ts';
