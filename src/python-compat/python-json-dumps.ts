/**
 * Python's `json.dumps(value)` with its defaults: `", "` and `": "` separators and
 * `ensure_ascii` (every character past ASCII as `\uXXXX`, astral ones as surrogate pairs).
 * The real services put such a text inside their error bodies (`error_message` holds the
 * dumped fault), so a client that compares the inner text sees the same bytes.
 */

const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\b': '\\b',
  '\f': '\\f',
};

function dumpString(text: string): string {
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    const code = text.charCodeAt(i);
    const short = SHORT_ESCAPES[ch];
    if (short !== undefined) out += short;
    else if (code < 0x20 || code > 0x7e) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

function dumpNumber(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? 'Infinity' : '-Infinity';
  return JSON.stringify(value);
}

/** The text Python's json.dumps gives for a JSON value (objects in their own key order). */
export function pythonJsonDumps(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (value === true) return 'true';
  if (value === false) return 'false';
  if (typeof value === 'number') return dumpNumber(value);
  if (typeof value === 'string') return dumpString(value);
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, item]) => item !== undefined)
    .map(([key, item]) => `${dumpString(key)}: ${pythonJsonDumps(item)}`);
  return `{${entries.join(', ')}}`;
}
