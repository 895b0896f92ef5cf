/**
 * What to write to the database for an object (the rolling-upgrade design's "saving objects
 * to the database", docs/design.md): its changed fields plus `version`, converted to the
 * pinned version when the release is pinned. The fields the pinned version lacks are not
 * written: their columns keep what a newer release may have put there (conversion.ts). The
 * object itself is not modified: it stays at the latest version in this process.
 */
import { convertForDb } from './conversion.ts';
import type { FieldMap } from './object-type.ts';
import type { VersionTargets } from './targets.ts';
import type { FieldValues, VersionedObject } from './versioned-object.ts';

/** The columns to write for an object, with its `version`. */
export type DbChanges<F extends FieldMap> = Partial<FieldValues<F>> & { version: string };

/**
 * What to write for an object: its changed fields and its version, converted to the version the
 * database is written at.
 */
export function versionChangesForDb<F extends FieldMap>(
  obj: VersionedObject<F>,
  pin?: VersionTargets,
): DbChanges<F> {
  const target = pin?.objectVersion(obj.type.name, obj.type.version) ?? obj.type.version;
  const saved = target === obj.version ? obj : convertForDb(obj, target);
  return { ...saved.getChanges(), version: saved.version } as DbChanges<F>;
}
