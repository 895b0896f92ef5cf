/**
 * Reading an object from a database row (seed 000, "Getting objects from the
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

export function objectFromDbRow<F extends FieldMap>(
  type: ObjectType<F>,
  row: Readonly<Record<string, unknown>>,
  versionColumn = 'version',
): VersionedObject<F> {
  const version = row[versionColumn];
  if (
    typeof version !== 'string' ||
    !isObjectVersion(version) ||
    !isCompatibleVersion(version, type.version) ||
    !type.isKnownVersion(version)
  ) {
    throw new IncompatibleObjectVersionError(type.name, String(version ?? 'NULL'), type.version);
  }
  const obj = new VersionedObject<F>(type, version);
  for (const field of type.fieldsAt(version)) {
    if (!(field in row)) continue;
    try {
      obj.assign(field, row[field]);
    } catch (error) {
      if (error instanceof CoercionError)
        throw new FieldValueError(type.name, field, row[field], error.message);
      throw error;
    }
  }
  obj.resetChanges();
  return version === type.version ? obj : convertForDb(obj, type.version);
}
