/**
 * Reading an object from a database row (the rolling-upgrade design's "getting objects from
 * the database", docs/design.md): the row's `version` column says which version its data is
 * in; the columns of that version are read, then the object is converted to the latest
 * version. The conversion's fills are changes, so the next save (unpinned) rewrites the row
 * at the latest version.
 *
 * A row written at an older version may still hold values in the columns of later fields:
 * a process pinned to the older version cannot see those fields, so its writes leave them
 * as a newer release wrote them (conversion.ts). They are read as they are, not as changes,
 * and a step's own `upgrade` rule still has the last word over them (it may decide that an
 * older write made one stale).
 */
import { convertForDb } from './conversion.ts';
import { IncompatibleObjectVersionError } from './errors.ts';
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

/**
 * Reads a database row as an object of the type's latest version, converting up from the row's
 * `version` and remembering the changes the conversion made.
 */
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
    obj.assignAt(index, value);
  }
  if (version === type.version) return obj.resetChanges();
  for (const index of type.positionsAfter(version)) {
    const value = row[names[index] as string];
    if (value === null || value === undefined) continue;
    obj.assignAt(index, value);
  }
  obj.resetChanges();
  return convertForDb(obj, type.version);
}
