/**
 * The request path as the real service receives it from its WSGI server (pure): every
 * percent-escape decoded into one character per byte (so `%2F` is a path separator and
 * UTF-8 arrives as Latin-1 characters), a `%` that starts no escape kept as itself. Baton's
 * router decodes the remaining ASCII escapes of each segment itself, so only those that
 * differ are rewritten here.
 */
const ESCAPE = /%([0-9A-Fa-f]{2})?/g;

export function wsgiPath(url: string): string {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  if (!path.includes('%')) return url;
  const rewritten = path.replace(ESCAPE, (sequence, hex: string | undefined) => {
    if (hex === undefined) return '%25';
    const byte = Number.parseInt(hex, 16);
    if (byte === 0x2f) return '/';
    return byte >= 0x80 ? String.fromCharCode(byte) : sequence;
  });
  return query === -1 ? rewritten : rewritten + url.slice(query);
}
