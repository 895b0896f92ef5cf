/**
 * JSON values written the way Python shows them, so validation messages read like the real
 * service's: repr() (`'abc'`, `None`, `True`, `{'a': 1}`, dict keys sorted as pprint sorts
 * them) and pprint.pformat(width=72), which jsonschema uses for the schema and the instance.
 */

import { ELLIPSIS } from './excerpt.ts';

/** Python's repr() of a JSON value (dicts in their own order; pprint sorts them). */
export function pythonRepr(value: unknown, sortKeys = false): string {
  if (value === ELLIPSIS) return '...';
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return numberRepr(value);
  if (typeof value === 'string') return quote(value);
  if (Array.isArray(value)) return `[${value.map((v) => pythonRepr(v, sortKeys)).join(', ')}]`;
  if (typeof value === 'object') {
    const items = sortKeys ? sortedEntries(value) : Object.entries(value);
    const entries = items.map(([key, item]) => `${quote(key)}: ${pythonRepr(item, sortKeys)}`);
    return `{${entries.join(', ')}}`;
  }
  return String(value);
}

function numberRepr(value: number): string {
  // JSON integers are Python ints; past 2**53 a JS number cannot tell, so large ones print as
  // the floats they most likely were (the schemas' SQL float maximum, for one).
  if (Number.isInteger(value) && Math.abs(value) < 1e16) return String(value);
  if (!Number.isFinite(value)) return Number.isNaN(value) ? 'nan' : value > 0 ? 'inf' : '-inf';
  const magnitude = Math.abs(value);
  if (magnitude !== 0 && (magnitude < 1e-4 || magnitude >= 1e16)) {
    const [mantissa, exponent] = value.toExponential().split('e') as [string, string];
    const sign = exponent.startsWith('-') ? '-' : '+';
    return `${mantissa}e${sign}${exponent.replace(/^[+-]/, '').padStart(2, '0')}`;
  }
  const text = String(value);
  return text.includes('.') ? text : `${text}.0`;
}

function sortedEntries(value: object): [string, unknown][] {
  return Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
}

function quote(text: string): string {
  const useDouble = text.includes("'") && !text.includes('"');
  const q = useDouble ? '"' : "'";
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) as number;
    if (ch === '\\') out += '\\\\';
    else if (ch === q) out += `\\${q}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (code < 0x20 || (code >= 0x7f && code < 0xa0))
      out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return q + out + q;
}

const WIDTH = 72;

/** pprint.pformat(value, width=72): the repr when it fits, else one item per line. */
export function pythonPformat(value: unknown): string {
  const out: string[] = [];
  format(value, out, 0, 0, 0);
  return out.join('');
}

function format(value: unknown, out: string[], indent: number, allowance: number, level: number) {
  const rep = pythonRepr(value, true);
  if (rep.length <= WIDTH - indent - allowance) {
    out.push(rep);
    return;
  }
  if (Array.isArray(value)) {
    out.push('[');
    formatItems(value, out, indent, allowance + 1, level + 1);
    out.push(']');
  } else if (value !== null && typeof value === 'object') {
    out.push('{');
    formatDictItems(sortedEntries(value), out, indent, allowance + 1, level + 1);
    out.push('}');
  } else if (typeof value === 'string') {
    formatString(value, out, indent, allowance, level + 1);
  } else out.push(rep);
}

function formatDictItems(
  items: readonly [string, unknown][],
  out: string[],
  indent: number,
  allowance: number,
  level: number,
) {
  const inner = indent + 1;
  items.forEach(([key, item], i) => {
    const last = i === items.length - 1;
    const rep = pythonRepr(key);
    out.push(rep, ': ');
    format(item, out, inner + rep.length + 2, last ? allowance : 1, level);
    if (!last) out.push(`,\n${' '.repeat(inner)}`);
  });
}

function formatItems(
  items: readonly unknown[],
  out: string[],
  indent: number,
  allowance: number,
  level: number,
) {
  const inner = indent + 1;
  items.forEach((item, i) => {
    const last = i === items.length - 1;
    if (i > 0) out.push(`,\n${' '.repeat(inner)}`);
    format(item, out, inner, last ? allowance : 1, level);
  });
}

/** Long strings are cut at whitespace into adjacent literals (parenthesised at top level). */
function formatString(
  text: string,
  out: string[],
  indent: number,
  allowance: number,
  level: number,
) {
  if (text === '') {
    out.push("''");
    return;
  }
  const lines = text.match(/[^\n\r]*(?:\r\n|\n|\r)|[^\n\r]+$/g) ?? [text];
  let start = indent;
  let slack = allowance;
  if (level === 1) {
    start += 1;
    slack += 1;
  }
  const maxWidth = WIDTH - start;
  let maxWidth1 = maxWidth;
  const chunks: string[] = [];
  lines.forEach((line, i) => {
    const lastLine = i === lines.length - 1;
    if (lastLine) maxWidth1 -= slack;
    if (quote(line).length <= maxWidth1) {
      chunks.push(quote(line));
      return;
    }
    const parts = line.match(/\S*\s*/g)?.filter((part) => part !== '') ?? [line];
    let maxWidth2 = maxWidth;
    let current = '';
    parts.forEach((part, j) => {
      const candidate = current + part;
      if (j === parts.length - 1 && lastLine) maxWidth2 -= slack;
      if (quote(candidate).length > maxWidth2) {
        if (current !== '') chunks.push(quote(current));
        current = part;
      } else current = candidate;
    });
    if (current !== '') chunks.push(quote(current));
  });
  if (chunks.length === 1) {
    out.push(quote(text));
    return;
  }
  if (level === 1) out.push('(');
  out.push(chunks.join(`\n${' '.repeat(start)}`));
  if (level === 1) out.push(')');
}

/** Python's str() of a JSON value: a string as it is, anything else as its repr. */
export function pythonStr(value: unknown): string {
  return typeof value === 'string' ? value : pythonRepr(value);
}
