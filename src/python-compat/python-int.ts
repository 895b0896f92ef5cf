/**
 * Python's `int(text)` for a string (base 10): surrounding whitespace as `str.strip()` sees it,
 * an optional sign, decimal digits of any script (Unicode category Nd) with single underscores
 * between them. The real services run it on request values (Ironic's version header parts,
 * integer parameters), so what it accepts is part of their wire behaviour.
 */

/** Characters Python's str.isspace() holds true for (the file separators \x1c-\x1f too). */
const SPACE_CLASS =
  '[\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const PY_SPACE = new RegExp(`^${SPACE_CLASS}+|${SPACE_CLASS}+$`, 'g');
/** What int() skips around the digits: the same, but for the file separators. */
const INT_SPACE_CLASS =
  '[\\t\\n\\v\\f\\r\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const INT_SPACE = new RegExp(`^${INT_SPACE_CLASS}+|${INT_SPACE_CLASS}+$`, 'g');
const DIGITS = /^\p{Nd}+(?:_\p{Nd}+)*$/u;
const ND = /^\p{Nd}$/u;

/** Python's str.strip() with no argument. */
export function pythonStrip(text: string): string {
  return text.replace(PY_SPACE, '');
}

/**
 * The value of a decimal digit of any script. Unicode keeps each script's digits as a
 * contiguous run from zero (a rule of category Nd), so the value is the distance from the
 * start of the run, modulo 10 where runs of several scripts touch.
 */
function digitValue(char: string): number {
  const code = char.codePointAt(0) as number;
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  let start = code;
  while (ND.test(String.fromCodePoint(start - 1))) start--;
  return (code - start) % 10;
}

/** The integer Python's int(text) gives, or undefined where it raises ValueError. */
export function pythonInt(text: string): bigint | undefined {
  let body = text.replace(INT_SPACE, '');
  let negative = false;
  if (body.startsWith('+') || body.startsWith('-')) {
    negative = body.startsWith('-');
    body = body.slice(1);
  }
  if (!DIGITS.test(body)) return undefined;
  let value = 0n;
  for (const char of body) {
    if (char !== '_') value = value * 10n + BigInt(digitValue(char));
  }
  return negative ? -value : value;
}
