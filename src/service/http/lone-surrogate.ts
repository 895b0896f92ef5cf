/**
 * Lone surrogates in a parsed JSON body (pure). JSON's `\ud800` escape can name half of a
 * UTF-16 pair on its own; JSON.parse (and Python's json) accept it, but it is no Unicode text:
 * a database stores it replaced (SQLite's U+FFFD) or refuses it. The services refuse such a
 * body with a 400 in their own format (docs/security.md), so nothing is stored corrupted.
 */

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The first lone surrogate in a string of `value` (keys included), as a `\uXXXX` escape. */
export function loneSurrogateIn(value: unknown): string | undefined {
  if (typeof value === 'string') {
    const found = LONE.exec(value);
    return found === null ? undefined : `\\u${found[0].charCodeAt(0).toString(16)}`;
  }
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = loneSurrogateIn(item);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    const found = loneSurrogateIn(key) ?? loneSurrogateIn(item);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The refusal's words: the escape the body used. */
export function loneSurrogateMessage(sequence: string): string {
  return `The JSON body holds a lone surrogate (${sequence}), which is not Unicode text.`;
}
