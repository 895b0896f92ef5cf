/**
 * How deep a JSON text nests, found without parsing it (no recursion, linear time), so a
 * document nested thousands of levels is refused before anything recursive walks it.
 * Python's json module gives up at its recursion limit (about 1,000 levels, fewer once
 * validation recurses too) with a RecursionError, a 500 in the real services; Baton refuses
 * with a 400 in the service's format, in Python's words (docs/security.md).
 */

/**
 * Python decodes somewhat under 1,000 levels; the real Ironic stores a node's `extra` 500
 * levels deep (probed), so 500 are taken. Placement's deepest document, a reshape, is 6.
 */
export const MAX_JSON_DEPTH = 500;

/**
 * Python's RecursionError message for the container that went past `limit` levels, or
 * undefined when the text stays within it. Brackets inside strings do not count; the text
 * need not be valid JSON (the parser says what else is wrong).
 */
export function jsonTooDeep(text: string, limit = MAX_JSON_DEPTH): string | undefined {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 0x5c)
        i++; // backslash: the next character is escaped
      else if (ch === 0x22) inString = false;
      continue;
    }
    if (ch === 0x22) inString = true;
    else if (ch === 0x5b || ch === 0x7b) {
      depth++;
      if (depth > limit) {
        const kind = ch === 0x5b ? 'array' : 'object';
        return `maximum recursion depth exceeded while decoding a JSON ${kind} from a unicode string`;
      }
    } else if (ch === 0x5d || ch === 0x7d) depth--;
  }
  return undefined;
}
