/**
 * Bounded excerpts of client input for error messages. The real services echo the whole
 * offending value (jsonschema's repr of the instance); a 32 MB string or a 2 MB list echoed
 * that way costs seconds of CPU, several copies of the input in memory and an answer larger
 * than the request. Baton echoes the start of it instead (docs/security.md, "Hostile input").
 */

/** Characters of a string shown before `...`: names in both APIs are at most 255. */
export const EXCERPT_STRING_CHARS = 256;
/** Items of a list, or entries of a dict, shown before `...`. */
export const EXCERPT_ITEMS = 32;
/** Containers nested deeper than this show as `...`. */
export const EXCERPT_DEPTH = 16;

/** Python's Ellipsis as pprint shows elided content: `...` (pythonRepr knows it). */
export const ELLIPSIS: unique symbol = Symbol('...');

/** `value` cut to the bounds above; values within them come back equal (the same object). */
export function excerpt(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') {
    return value.length > EXCERPT_STRING_CHARS
      ? `${value.slice(0, EXCERPT_STRING_CHARS)}...`
      : value;
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= EXCERPT_DEPTH) return ELLIPSIS;
  if (Array.isArray(value)) {
    const kept = value.slice(0, EXCERPT_ITEMS).map((item) => excerpt(item, depth + 1));
    if (value.length > EXCERPT_ITEMS) kept.push(ELLIPSIS);
    return unchanged(kept, value) ? value : kept;
  }
  const out: Record<string, unknown> = {};
  let count = 0;
  let changed = false;
  for (const key in value) {
    if (count === EXCERPT_ITEMS) {
      out['...'] = ELLIPSIS;
      changed = true;
      break;
    }
    const item = (value as Record<string, unknown>)[key];
    const cut = excerpt(item, depth + 1);
    const shownKey = excerpt(key) as string;
    if (cut !== item || shownKey !== key) changed = true;
    out[shownKey] = cut;
    count++;
  }
  return changed ? out : value;
}

function unchanged(kept: readonly unknown[], original: readonly unknown[]): boolean {
  return kept.length === original.length && kept.every((item, i) => item === original[i]);
}

/** A message cut to `max` characters (a last bound, whatever produced it). */
export function boundedMessage(message: string, max = 8192): string {
  return message.length > max ? `${message.slice(0, max)}...` : message;
}
