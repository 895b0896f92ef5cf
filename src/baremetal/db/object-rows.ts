/**
 * The object ⇄ row boundary (docs/objects.md). Reading a row gives the object at its latest
 * version, whatever version the row was written at (`objectFromDbRow` converts it, keeping the
 * changes that conversion made so the next unpinned save upgrades the row). Writing converts
 * the object to the target version the caller's caps give (`versionChangesForDb`): a pinned
 * process writes rows at the pinned version, leaves the columns of the fields that version
 * lacks as they are, and always writes `version`.
 */
import {
  compareObjectVersions,
  type FieldMap,
  IncompatibleObjectVersionError,
  type ObjectType,
  objectFromDbRow,
  parseObjectVersion,
  type VersionedObject,
  type VersionTargets,
  versionChangesForDb,
} from '../../objects/index.ts';
import { toColumns } from './codec.ts';
import { NewerRowError } from './errors.ts';
import type { Row } from './tables.ts';

/** The row as an object at its latest version; NewerRowError for a version too new to read. */
export function objectFromRow<F extends FieldMap>(
  type: ObjectType<F>,
  row: Readonly<Row>,
): VersionedObject<F> {
  try {
    return objectFromDbRow(type, row);
  } catch (error) {
    if (
      error instanceof IncompatibleObjectVersionError &&
      newerThanCode(error.version, type.version)
    )
      throw new NewerRowError(type.name, error.version, type.version);
    throw error;
  }
}

function newerThanCode(version: string, latest: string): boolean {
  const parsed = parseObjectVersion(version);
  const known = parseObjectVersion(latest);
  return (
    parsed !== null &&
    known !== null &&
    parsed[0] === known[0] &&
    compareObjectVersions(version, latest) > 0
  );
}

/** The changed fields and `version`, at the target version, as column values. */
export function columnsForDb(
  obj: VersionedObject,
  targets: VersionTargets,
  omit?: ReadonlySet<string>,
): Row {
  return toColumns(versionChangesForDb(obj, targets), omit);
}

/** The changed fields and `version` at the target version, as field values. */
export function changesForDb(obj: VersionedObject, targets: VersionTargets): Row {
  return { ...versionChangesForDb(obj, targets) };
}

/** Targets that write every type at its latest version (an unpinned process). */
export const LATEST_VERSIONS: VersionTargets = {
  objectVersion: (_name, latest) => latest,
};

/**
 * Port 1.11 and Portgroup 1.5's `node_uuid`: their node's uuid, read with the row (a join, as
 * Ironic's association proxy) and never written to the port's own table. A row written at an
 * older version gets it too: a later field's value present in the row is read (objectFromDbRow).
 */
export const NODE_UUID_FIELD = 'node_uuid';
