/**
 * What to write to the database for an object (the rolling-upgrade doc, "Saving objects to
 * the database"): its changed fields plus `version`, converted to the pinned
 * version when the release is pinned. Conversion for the database keeps the
 * fields the target version lacks and sets them to their unavailable value,
 * so the whole row stays consistent for older readers. The object itself is
 * not modified: it stays at the latest version in this process.
 */
import { convertForDb } from './conversion.ts';
import type { FieldMap } from './object-type.ts';
import type { VersionTargets } from './targets.ts';
import type { FieldValues, VersionedObject } from './versioned-object.ts';

export type DbChanges<F extends FieldMap> = Partial<FieldValues<F>> & { version: string };

export function versionChangesForDb<F extends FieldMap>(
  obj: VersionedObject<F>,
  pin?: VersionTargets,
): DbChanges<F> {
  const target = pin?.objectVersion(obj.type.name, obj.type.version) ?? obj.type.version;
  const saved = target === obj.version ? obj : convertForDb(obj, target);
  return { ...saved.getChanges(), version: saved.version } as DbChanges<F>;
}
