/**
 * The object ⇄ row boundary (the rolling-upgrade doc). Reading a row gives the object at its latest version,
 * whatever version the row was written at (`objectFromDbRow` converts it, keeping the changes
 * that conversion made so the next unpinned save upgrades the row). Writing converts the
 * object to the target version the caller's caps give (`versionChangesForDb`): a pinned
 * process writes rows at the pinned version, with the fields that version lacks set to their
 * unavailable values, and `version` always among the columns written.
 */
import {
  type FieldMap,
  type ObjectType,
  objectFromDbRow,
  type VersionedObject,
  type VersionTargets,
  versionChangesForDb,
} from '../../objects/index.ts';
import { toColumns } from './codec.ts';
import type { Row } from './tables.ts';

export function objectFromRow<F extends FieldMap>(
  type: ObjectType<F>,
  row: Readonly<Row>,
): VersionedObject<F> {
  return objectFromDbRow(type, row);
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
 * Ironic's association proxy) and never written to the port's own table.
 */
export const NODE_UUID_FIELD = 'node_uuid';

/**
 * The object read from a row, with its node's uuid as the join found it: a row written at a
 * version before the field (Port 1.10, Portgroup 1.4) is converted up with it null, but the
 * node's uuid is known whatever the row's version.
 */
export function withNodeUuid<O extends VersionedObject>(obj: O, row: Readonly<Row>): O {
  const uuid = row[NODE_UUID_FIELD] ?? null;
  if (obj.get(NODE_UUID_FIELD as never) !== uuid)
    obj.assign(NODE_UUID_FIELD as never, uuid as never);
  return obj;
}
