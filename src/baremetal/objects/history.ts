/**
 * Builders for version histories written as Ironic writes them in its comments: one step per
 * version, saying what changed. A step that adds fields names, for each, the value Ironic's
 * `_convert_to_version` gives it when it is not available: the value an older object, which
 * lacks the field, gets when it is brought to this version. Converted down (written at an
 * older version, or sent to one), the field is removed (the toolkit's conversion.ts).
 */
import type { VersionedObject, VersionStep } from '../../objects/index.ts';

/** A version that changed no field (a method was added, or the type's behaviour changed). */
export function unchanged(version: string, note: string): VersionStep {
  return { version, note };
}

export interface AddedFieldsOptions {
  /** Runs when converting up to this version; the added fields it leaves unset are filled after. */
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
  return {
    version,
    note,
    added: Object.keys(unavailable),
    unavailableValues: unavailable,
    ...(options.upgrade === undefined ? {} : { upgrade: options.upgrade }),
  };
}
