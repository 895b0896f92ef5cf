/**
 * Converting an object to another version of its type, older or newer. The rule at both
 * boundaries (the database and the wire) is the same: what an older version does not know,
 * it can neither carry nor change.
 *
 * - Down (a pinned write to the database, a send at the RPC cap): the fields the target
 *   version lacks are removed. A receiver running older code never sees them, and a write
 *   at the older version leaves their columns as they are: a field set by a newer release
 *   is never erased by a process that cannot see it. (Ironic writes such fields as null;
 *   docs/objects.md says why Baton does not.)
 * - Up (a row read, an object received): after a step's own `upgrade` rule, each field the
 *   step added that is still unset is filled with its unavailable value (null, or the
 *   step's `unavailableValues`) so the object is whole. Read from the database, the fill is a change, so the next save completes the row
 *   at the newer version. Received over the wire, it is not: the sender did not know the
 *   field, so a save must not write it.
 *
 * Only a step's own rules (`upgrade`, `downgrade`) and the type's `onConversion` hook make
 * changes of their own. Every conversion returns a copy and leaves the original alone, and
 * the copy keeps the original's changed marks (a Node 1.14 read by 1.15 code has `meta` and
 * `extra` changed when a rule moved one into the other).
 */
import type { FieldMap } from './object-type.ts';
import { VersionedObject } from './versioned-object.ts';

/** Whether filling a field the source lacked is a change to save (database) or not (wire). */
type FillMark = 'fill-as-change' | 'fill-unchanged';

export function convertForWire<F extends FieldMap>(
  obj: VersionedObject<F>,
  target: string,
): VersionedObject<F> {
  return convertInPlace(obj.shallowCopy(), target, 'fill-unchanged');
}

export function convertForDb<F extends FieldMap>(
  obj: VersionedObject<F>,
  target: string,
): VersionedObject<F> {
  return convertInPlace(obj.shallowCopy(), target, 'fill-as-change');
}

/**
 * `convertForWire` without the copy, for an object no one else holds yet: the serializer's own
 * object, just read from a primitive.
 */
export function convertOwnForWire<F extends FieldMap>(
  obj: VersionedObject<F>,
  target: string,
): VersionedObject<F> {
  return convertInPlace(obj, target, 'fill-unchanged');
}

function convertInPlace<F extends FieldMap>(
  copy: VersionedObject<F>,
  target: string,
  fill: FillMark,
): VersionedObject<F> {
  const type = copy.type;
  const to = type.stepIndex(target);
  if (copy.version !== target) {
    const from = type.stepIndex(copy.version);
    if (to > from) {
      for (let i = from + 1; i <= to; i++) {
        const step = type.history[i];
        if (step === undefined) continue;
        step.upgrade?.(copy);
        for (const field of step.added ?? []) {
          if (copy.isSet(field)) continue;
          copy.assign(field, step.unavailableValues?.[field] ?? null);
          if (fill === 'fill-unchanged') copy.resetChanges([field]);
        }
      }
    } else {
      for (let i = from; i > to; i--) {
        const step = type.history[i];
        if (step === undefined) continue;
        step.downgrade?.(copy);
        for (const field of step.added ?? []) copy.unset(field);
      }
    }
    type.onConversion?.(copy, target);
    copy.version = target;
  }
  convertChildren(copy, target, fill);
  return copy;
}

/** List types declare which child version goes with each of their versions. */
function convertChildren(list: VersionedObject, target: string, fill: FillMark): void {
  const childVersion = list.type.childVersions?.[target];
  if (childVersion === undefined) return;
  list.forEachSet((name, value, index) => {
    let converted: unknown;
    if (value instanceof VersionedObject) {
      converted = convertInPlace(value.shallowCopy(), childVersion, fill);
    } else if (Array.isArray(value) && value.some((item) => item instanceof VersionedObject)) {
      converted = value.map((child: VersionedObject) =>
        convertInPlace(child.shallowCopy(), childVersion, fill),
      );
    } else return;
    // Replacing the children is not a change of the list itself.
    const wasChanged = list.isMarkedChanged(index);
    list.assign(name, converted);
    if (!wasChanged) list.resetChanges([name]);
  });
}
