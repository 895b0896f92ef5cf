/**
 * The optimistic check of a node update (update_node with `expected_values`, RPC 1.3).
 *
 * The API computes an update from its own read of the node, made before the conductor holds
 * the node: a PATCH of `/extra/b` sends the whole new `extra`, and a PATCH of `/extra/a` that
 * read the same node meanwhile sends another. Writing both would keep one key. So the API
 * sends, with the change, the values it read of every field the change was computed from; the
 * conductor, holding the reservation (which every writer of these fields holds), compares them
 * with the node as it is now, and refuses the update (NodeChanged) when one differs. Fields the
 * conductor itself derives from the request (a reason cleared, a default interface) are
 * checked against the node the request carried, which is the API's read too. Nothing the
 * update did not read is compared: a power action between the read and the write does not
 * refuse a PATCH of `extra`.
 *
 * A dictionary field the request changed key by key (a PATCH of `/extra/a`, never of `/extra`
 * itself) is merged instead of refused when the other writer changed other keys: the request's
 * keys are applied to the dictionary as it is now, which is what applying the PATCH to a new
 * read would give. A key both changed is a conflict (NodeChanged): the PATCH is applied anew,
 * so that a `remove` of a key gone meanwhile fails as it would have.
 */
import type { NodeObject } from '../objects/index.ts';

/** A value as sorted-key JSON: equal values, equal text (dictionaries in any key order). */
function canonical(value: unknown): string {
  return JSON.stringify(value ?? null, (_key, item: unknown) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
    if (typeof (item as { toJSON?: unknown }).toJSON === 'function') return item;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(item).sort())
      sorted[key] = (item as Record<string, unknown>)[key];
    return sorted;
  });
}

/** Whether two field values are the same, as JSON (a timestamp as its text). */
export function sameFieldValue(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

/** The fields of `base` whose value in `node` is no longer the one in `base`, in base order. */
export function fieldsChangedSince(
  node: NodeObject,
  base: Readonly<Record<string, unknown>>,
): string[] {
  const fieldNames = new Set<string>(node.type.fieldNames);
  return Object.entries(base)
    .filter(([field]) => fieldNames.has(field))
    .filter(([field, value]) => !sameFieldValue(node.peek(field as never), value))
    .map(([field]) => field);
}

type Dict = Record<string, unknown>;

function asDict(value: unknown): Dict | undefined {
  if (value === null || value === undefined) return {};
  return typeof value === 'object' && !Array.isArray(value) ? (value as Dict) : undefined;
}

/**
 * `mine` (the request's value, computed from `base`) merged into `theirs` (the value now): the
 * keys whose value or presence differs between base and mine are set (or removed) in theirs.
 * Undefined when one of those keys also changed between base and theirs, or a value is not a
 * dictionary.
 */
export function mergeKeys(base: unknown, mine: unknown, theirs: unknown): Dict | undefined {
  const [b, m, t] = [asDict(base), asDict(mine), asDict(theirs)];
  if (b === undefined || m === undefined || t === undefined) return undefined;
  const changed = [...new Set([...Object.keys(b), ...Object.keys(m)])].filter(
    (key) => Object.hasOwn(b, key) !== Object.hasOwn(m, key) || !sameFieldValue(b[key], m[key]),
  );
  const merged: Dict = { ...t };
  for (const key of changed) {
    if (Object.hasOwn(b, key) !== Object.hasOwn(t, key) || !sameFieldValue(b[key], t[key])) {
      return undefined;
    }
    if (Object.hasOwn(m, key)) merged[key] = m[key];
    else delete merged[key];
  }
  return merged;
}
