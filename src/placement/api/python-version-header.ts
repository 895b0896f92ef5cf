/**
 * Reading `OpenStack-API-Version` as the real service's microversion_parse does (pure): the
 * last `placement <version>` entry wins; `latest` is the max; the version is two Python `int()`
 * literals around the first dot (so `01.05`, `+1.5` and `1.1_0` are accepted, read as 1.5,
 * 1.5 and 1.10); a version outside the list is refused with the text as sent. The refusals
 * are worded as Python words them.
 */

export type VersionReading =
  | { readonly kind: 'default' }
  | { readonly kind: 'version'; readonly text: string }
  | { readonly kind: 'malformed'; readonly message: string }
  | { readonly kind: 'unacceptable'; readonly message: string };

/** Characters Python's str.strip() and str.split() treat as whitespace (latin-1 range). */
const PY_SPACE = '[ \\t\\n\\r\\x0b\\x0c\\x1c-\\x1f\\x85\\xa0]';
const LEADING = new RegExp(`^${PY_SPACE}+`);
const TRAILING = new RegExp(`${PY_SPACE}+$`);
const NON_SPACE_RUN = new RegExp(`^((?:(?!${PY_SPACE})[\\s\\S])+)${PY_SPACE}+([\\s\\S]*)$`);
const INT_LITERAL = /^([+-]?)([0-9](?:_?[0-9])*)$/;

function pyStrip(text: string): string {
  return text.replace(LEADING, '').replace(TRAILING, '');
}

/** Python's repr() of a str (latin-1 range): the quote it picks and the escapes it writes. */
export function pyRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const code = ch.codePointAt(0) as number;
    if (ch === '\\' || ch === quote) out += `\\${ch}`;
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (code < 0x20 || (code >= 0x7f && code <= 0xa0) || code === 0xad) {
      out += `\\x${code.toString(16).padStart(2, '0')}`;
    } else out += ch;
  }
  return out + quote;
}

/** Python's int(text) in base 10, as its decimal text; or its ValueError message. */
export function pyInt(text: string): { value: string } | { error: string } {
  const match = INT_LITERAL.exec(pyStrip(text));
  if (match === null) return { error: `invalid literal for int() with base 10: ${pyRepr(text)}` };
  const digits = (match[2] as string).replaceAll('_', '').replace(/^0+(?=.)/, '');
  return { value: match[1] === '-' && digits !== '0' ? `-${digits}` : digits };
}

/** The version text of the last `placement` entry of the header, if any. */
function entryVersion(header: string): string | undefined {
  const entries = header.split(',');
  for (let i = entries.length - 1; i >= 0; i--) {
    const parts = NON_SPACE_RUN.exec(pyStrip(entries[i] as string)) ?? undefined;
    if (parts === undefined) continue;
    if ((parts[1] as string).toLowerCase() === 'placement') return pyStrip(parts[2] as string);
  }
  return undefined;
}

/**
 * The version a request asks for. `versions` is the ordered list the service supports (the
 * last one is what `latest` means).
 */
export function readVersionHeader(
  header: string | undefined,
  versions: readonly string[],
): VersionReading {
  const found = header === undefined ? undefined : entryVersion(header);
  if (!found) return { kind: 'default' };
  const text = found === 'latest' ? (versions[versions.length - 1] as string) : found;
  const dot = text.indexOf('.');
  const values: string[] = [];
  for (const part of dot === -1 ? [text] : [text.slice(0, dot), text.slice(dot + 1)]) {
    const read = pyInt(part);
    if ('error' in read) {
      return { kind: 'malformed', message: `invalid version string: ${text}; ${read.error}` };
    }
    values.push(read.value);
  }
  if (values.length === 1) {
    return {
      kind: 'malformed',
      message: `invalid version string: ${text}; Version.__new__() missing 1 required positional argument: 'minor'`,
    };
  }
  const canonical = `${values[0]}.${values[1]}`;
  if (!versions.includes(canonical)) {
    return { kind: 'unacceptable', message: `Unacceptable version header: ${text}` };
  }
  return { kind: 'version', text: canonical };
}
