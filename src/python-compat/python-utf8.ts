/**
 * Request bodies decoded as UTF-8 the way Python's strict decoder does it: invalid bytes are
 * refused, not replaced, and the refusal is worded as Python's UnicodeDecodeError
 * (`'utf-8' codec can't decode byte 0xff in position 12: invalid start byte`), which the real
 * services put in their "Malformed JSON" answer.
 */

const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export type Utf8Result = { readonly text: string } | { readonly error: string };

/** The text of `bytes`, or Python's words for its first invalid sequence. */
export function decodeUtf8AsPython(bytes: Uint8Array): Utf8Result {
  try {
    return { text: fatal.decode(bytes) };
  } catch {
    return { error: pythonUtf8Error(bytes) };
  }
}

/** The valid range of the first continuation byte after `lead` (RFC 3629's table). */
function secondByteRange(lead: number): readonly [number, number] {
  if (lead === 0xe0) return [0xa0, 0xbf];
  if (lead === 0xed) return [0x80, 0x9f];
  if (lead === 0xf0) return [0x90, 0xbf];
  if (lead === 0xf4) return [0x80, 0x8f];
  return [0x80, 0xbf];
}

const isContinuation = (byte: number | undefined) =>
  byte !== undefined && byte >= 0x80 && byte <= 0xbf;

/** CPython's message for the first invalid sequence in `bytes` (which must contain one). */
export function pythonUtf8Error(bytes: Uint8Array): string {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] as number;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const length = lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : 4;
    if (lead < 0xc2 || lead > 0xf4) return describe(bytes, i, i + 1, 'invalid start byte');
    const [low, high] = secondByteRange(lead);
    // How many bytes after the lead are right, as CPython counts before it gives up.
    for (let k = 1; k < length; k++) {
      const byte = bytes[i + k];
      if (byte === undefined) return describe(bytes, i, bytes.length, 'unexpected end of data');
      const ok = k === 1 ? byte >= low && byte <= high : isContinuation(byte);
      if (!ok) return describe(bytes, i, i + k, 'invalid continuation byte');
    }
    i += length;
  }
  return describe(bytes, 0, 0, 'invalid data');
}

function describe(bytes: Uint8Array, start: number, end: number, reason: string): string {
  if (end - start === 1) {
    const byte = (bytes[start] as number).toString(16).padStart(2, '0');
    return `'utf-8' codec can't decode byte 0x${byte} in position ${start}: ${reason}`;
  }
  return `'utf-8' codec can't decode bytes in position ${start}-${end - 1}: ${reason}`;
}
