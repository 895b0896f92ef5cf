/**
 * Reading an object from a database row (the rolling-upgrade doc, "Getting objects from the
 * database"): the row's `version` column says which version its data is in;
 * only the columns of that version are read, then the object is converted to
 * the latest version. The conversion's changes are kept, so the next save
 * (unpinned) rewrites the row at the latest version.
 */
import { convertForDb } from './conversion.ts';
import { CoercionError, FieldValueError, IncompatibleObjectVersionError } from './errors.ts';
import type { FieldMap, ObjectType } from './object-type.ts';
import { isCompatibleVersion, isObjectVersion } from './version.ts';
import { VersionedObject } from './versioned-object.ts';

/** Per type, the row versions already found readable (checked once, not once per row). */
const readableVersions = new WeakMap<object, Set<string>>();

function checkRowVersion<F extends FieldMap>(
  type: ObjectType<F>,
  version: unknown,
): asserts version is string {
  let readable = readableVersions.get(type);
  if (readable === undefined) {
    readable = new Set();
    readableVersions.set(type, readable);
  }
  if (typeof version === 'string' && readable.has(version)) return;
  if (
    typeof version !== 'string' ||
    !isObjectVersion(version) ||
    !isCompatibleVersion(version, type.version) ||
    !type.isKnownVersion(version)
  ) {
    throw new IncompatibleObjectVersionError(type.name, String(version ?? 'NULL'), type.version);
  }
  readable.add(version);
}

export function objectFromDbRow<F extends FieldMap>(
  type: ObjectType<F>,
  row: Readonly<Record<string, unknown>>,
  versionColumn = 'version',
): VersionedObject<F> {
  const version = row[versionColumn];
  checkRowVersion(type, version);
  const obj = new VersionedObject<F>(type, version);
  const names = type.fieldNames;
  // By position: a page of wide rows (100 nodes of 58 columns) would otherwise look every
  // name up again for every row.
  for (const index of type.positionsAt(version)) {
    const field = names[index] as string;
    const value = row[field];
    if (value === undefined && !(field in row)) continue;
    try {
      obj.assignAt(index, value);
    } catch (error) {
      if (error instanceof CoercionError)
        throw new FieldValueError(type.name, field, row[field], error.message);
      throw error;
    }
  }
  obj.resetChanges();
  return version === type.version ? obj : convertForDb(obj, type.version);
}
