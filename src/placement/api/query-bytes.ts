/**
 * The real service decodes each query key and value as UTF-8 (WebOb, strictly) before its
 * schema check, and refuses the query with Python's own UnicodeDecodeError text when one is
 * not UTF-8 once percent-decoded. Pure.
 */

/** Percent-decoding as WebOb does it: `+` is a space, a bad escape stays as it is. */
function percentBytes(text: string): number[] {
  const out: number[] = [];
  const source = Buffer.from(text.replaceAll('+', ' '), 'utf8');
  for (let i = 0; i < source.length; i++) {
    const byte = source[i] as number;
    const hex = source.subarray(i + 1, i + 3).toString('latin1');
    if (byte === 0x25 && /^[0-9a-fA-F]{2}$/.test(hex)) {
      out.push(Number.parseInt(hex, 16));
      i += 2;
    } else out.push(byte);
  }
  return out;
}

const inRange = (b: number | undefined, low: number, high: number) =>
  b !== undefined && b >= low && b <= high;

/** Python's UnicodeDecodeError text for the first bad sequence, or undefined. */
export function utf8Problem(bytes: readonly number[]): string | undefined {
  for (let i = 0; i < bytes.length; ) {
    const lead = bytes[i] as number;
    if (lead < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let low = 0x80;
    let high = 0xbf;
    if (inRange(lead, 0xc2, 0xdf)) need = 1;
    else if (inRange(lead, 0xe0, 0xef)) {
      need = 2;
      if (lead === 0xe0) low = 0xa0;
      if (lead === 0xed) high = 0x9f;
    } else if (inRange(lead, 0xf0, 0xf4)) {
      need = 3;
      if (lead === 0xf0) low = 0x90;
      if (lead === 0xf4) high = 0x8f;
    } else return describe(bytes, i, i + 1, 'invalid start byte');
    let end = i + 1;
    for (let k = 0; k < need; k++, end++) {
      const next = bytes[end];
      if (next === undefined) return describe(bytes, i, end, 'unexpected end of data');
      const ok = k === 0 ? inRange(next, low, high) : inRange(next, 0x80, 0xbf);
      if (!ok) return describe(bytes, i, end, 'invalid continuation byte');
    }
    i = end;
  }
  return undefined;
}

function describe(bytes: readonly number[], start: number, end: number, reason: string): string {
  const where =
    end - start === 1
      ? `byte 0x${(bytes[start] as number).toString(16).padStart(2, '0')} in position ${start}`
      : `bytes in position ${start}-${end - 1}`;
  return `'utf-8' codec can't decode ${where}: ${reason}`;
}

/** The first key or value of `url`'s query that is not UTF-8, in Python's words. */
export function undecodableQuery(url: string): string | undefined {
  const at = url.indexOf('?');
  if (at < 0) return undefined;
  for (const pair of url.slice(at + 1).split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const parts = eq < 0 ? [pair] : [pair.slice(0, eq), pair.slice(eq + 1)];
    for (const part of parts) {
      const problem = utf8Problem(percentBytes(part));
      if (problem !== undefined) return problem;
    }
  }
  return undefined;
}
