/**
 * Builders for version histories written as Ironic writes them in its comments: one step per
 * version, saying what changed. A step that adds fields names, for each, the value Ironic's
 * `_convert_to_version` gives it when it is not available: the value written to the database
 * when saving at an older version, and the value set when an older object, which lacks the
 * field, is brought to this version (Ironic's "set it to its default value if it is not set").
 * Sent over the wire to an older version, the field is removed instead (the toolkit's
 * `convertForWire`).
 */
import type { VersionedObject, VersionStep } from '../../objects/index.ts';

/** A version that changed no field (a method was added, or the type's behaviour changed). */
export function unchanged(version: string, note: string): VersionStep {
  return { version, note };
}

export interface AddedFieldsOptions {
  /** Runs after the added fields are set, when converting up to this version. */
  readonly upgrade?: (obj: VersionedObject) => void;
}

/**
 * A version that added fields; `unavailable` maps each added field to its value when not
 * available (null for most fields; Ironic uses false, '' or {} for a few).
 */
export function addedFields(
  version: string,
  note: string,
  unavailable: Readonly<Record<string, unknown>>,
  options: AddedFieldsOptions = {},
): VersionStep {
  const fields = Object.keys(unavailable);
  return {
    version,
    note,
    added: fields,
    unavailableValues: unavailable,
    upgrade(obj) {
      for (const field of fields) {
        if (!obj.isSet(field)) obj.assign(field, unavailable[field]);
      }
      options.upgrade?.(obj);
    },
  };
}
