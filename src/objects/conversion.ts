/**
 * Converting an object to another version of its type, older or newer, in
 * the two forms the rolling-upgrade design needs:
 *
 * - for the wire: fields the target version does not have are removed, so a
 *   receiver running older code never sees them;
 * - for the database: such fields are kept and set to their unavailable
 *   value (null, or the step's `unavailableValues`), so the row is written
 *   whole and older code reading it finds what it expects.
 *
 * Both return a converted copy and leave the original alone. The copy keeps
 * the original's changed marks and adds those of the conversion (the rolling-upgrade doc:
 * a Node 1.14 read by 1.15 code has `meta` and `extra` changed).
 */
import type { FieldMap } from './object-type.ts';
import { VersionedObject } from './versioned-object.ts';

type UnavailableFields = 'remove' | 'set-unavailable-value';

export function convertForWire<F extends FieldMap>(
  obj: VersionedObject<F>,
  target: string,
): VersionedObject<F> {
  return convert(obj, target, 'remove');
}

export function convertForDb<F extends FieldMap>(
  obj: VersionedObject<F>,
  target: string,
): VersionedObject<F> {
  return convert(obj, target, 'set-unavailable-value');
}

/**
 * `convertForWire` without the copy, for an object no one else holds yet: the serializer's own
 * object, just read from a primitive.
 */
export function convertOwnForWire<F extends FieldMap>(
  obj: VersionedObject<F>,
  target: string,
): VersionedObject<F> {
  return convertInPlace(obj, target, 'remove');
}

function convert<F extends FieldMap>(
  obj: VersionedObject<F>,
  target: string,
  unavailable: UnavailableFields,
): VersionedObject<F> {
  return convertInPlace(obj.shallowCopy(), target, unavailable);
}

function convertInPlace<F extends FieldMap>(
  copy: VersionedObject<F>,
  target: string,
  unavailable: UnavailableFields,
): VersionedObject<F> {
  const type = copy.type;
  const to = type.stepIndex(target);
  if (copy.version !== target) {
    const from = type.stepIndex(copy.version);
    if (to > from) {
      for (let i = from + 1; i <= to; i++) type.history[i]?.upgrade?.(copy);
    } else {
      for (let i = from; i > to; i--) {
        const step = type.history[i];
        if (step === undefined) continue;
        step.downgrade?.(copy);
        for (const field of step.added ?? []) {
          if (!copy.isSet(field)) continue;
          if (unavailable === 'remove') copy.unset(field);
          else copy.assign(field, step.unavailableValues?.[field] ?? null);
        }
      }
    }
    type.onConversion?.(copy, target);
    copy.version = target;
  }
  convertChildren(copy, target, unavailable);
  return copy;
}

/** List types declare which child version goes with each of their versions. */
function convertChildren(
  list: VersionedObject,
  target: string,
  unavailable: UnavailableFields,
): void {
  const childVersion = list.type.childVersions?.[target];
  if (childVersion === undefined) return;
  list.forEachSet((name, value, index) => {
    let converted: unknown;
    if (value instanceof VersionedObject) converted = convert(value, childVersion, unavailable);
    else if (Array.isArray(value) && value.some((item) => item instanceof VersionedObject)) {
      converted = value.map((child: VersionedObject) => convert(child, childVersion, unavailable));
    } else return;
    // Replacing the children is not a change of the list itself.
    const wasChanged = list.isMarkedChanged(index);
    list.assign(name, converted);
    if (!wasChanged) list.resetChanges([name]);
  });
}
