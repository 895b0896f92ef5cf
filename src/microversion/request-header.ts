import { type CompiledHeaderStyle, STANDARD_HEADER } from './header-style.ts';

/** Request headers keyed by lower-cased name, as Node (and so Fastify) hands them over. */
export type HeaderBag = Readonly<Record<string, string | readonly string[] | undefined>>;

const STANDARD_KEY = STANDARD_HEADER.toLowerCase();
const COMMA = 44;

function isSpace(c: number): boolean {
  return c === 32 || c === 9;
}

function headerValue(headers: HeaderBag, key: string): string | undefined {
  const value = headers[key];
  // Node folds repeated custom headers into one comma-joined string; other callers may not.
  return typeof value === 'string' || value === undefined ? value : value.join(',');
}

/** Case-insensitive ASCII comparison of `text[start..]` with an already lower-cased `lower`. */
function matchesLower(text: string, start: number, lower: string): boolean {
  for (let k = 0; k < lower.length; k++) {
    let c = text.charCodeAt(start + k);
    if (c >= 65 && c <= 90) c += 32;
    if (c !== lower.charCodeAt(k)) return false;
  }
  return true;
}

/** The version token of one `<service> <version>` entry in `text[start, end)`, if it is ours. */
function entryVersion(
  text: string,
  start: number,
  end: number,
  service: string,
): string | undefined {
  while (start < end && isSpace(text.charCodeAt(start))) start++;
  while (end > start && isSpace(text.charCodeAt(end - 1))) end--;
  let i = start;
  while (i < end && !isSpace(text.charCodeAt(i))) i++;
  // An entry without a version part is skipped, as microversion_parse does.
  if (i === end || i - start !== service.length || !matchesLower(text, start, service)) {
    return undefined;
  }
  while (isSpace(text.charCodeAt(i))) i++;
  return text.slice(i, end);
}

/**
 * The version text for `serviceType` in an `OpenStack-API-Version` value such as
 * `compute 2.1, placement 1.20`. Service names compare case-insensitively; when the service
 * appears several times the last entry wins (microversion_parse's rule, and HTTP's "later
 * field lines refine earlier ones"). `serviceType` must be lower case.
 */
export function findServiceEntry(value: string, serviceType: string): string | undefined {
  let end = value.length;
  while (end > 0) {
    const comma = value.lastIndexOf(',', end - 1);
    const found = entryVersion(value, comma + 1, end, serviceType);
    if (found !== undefined) return found;
    end = comma;
  }
  return undefined;
}

/** The last element of a comma-joined legacy header value, trimmed: again the last one wins. */
export function lastListElement(value: string): string {
  let start = value.length;
  while (start > 0 && value.charCodeAt(start - 1) !== COMMA) start--;
  let end = value.length;
  while (start < end && isSpace(value.charCodeAt(start))) start++;
  while (end > start && isSpace(value.charCodeAt(end - 1))) end--;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

/**
 * Where the requested version came from: the raw text and the header that carried it, or
 * undefined when the request names no version for this service (it then gets the default).
 * The standard header is looked at first; the legacy one only when the standard header has no
 * entry for the service.
 */
export function findRequestedVersion(
  headers: HeaderBag,
  style: CompiledHeaderStyle,
  serviceType: string,
): string | undefined {
  if (style.readsStandard) {
    const value = headerValue(headers, STANDARD_KEY);
    if (value !== undefined) {
      const found = findServiceEntry(value, serviceType);
      if (found !== undefined) return found;
    }
  }
  if (style.legacyKey !== undefined) {
    const value = headerValue(headers, style.legacyKey);
    if (value !== undefined) return lastListElement(value);
  }
  return undefined;
}

/** Name of the header `findRequestedVersion` took its answer from; used for error messages. */
export function requestedVersionHeader(
  headers: HeaderBag,
  style: CompiledHeaderStyle,
  serviceType: string,
): string {
  if (style.readsStandard) {
    const value = headerValue(headers, STANDARD_KEY);
    if (value !== undefined && findServiceEntry(value, serviceType) !== undefined) {
      return STANDARD_HEADER;
    }
  }
  return style.legacyKey === undefined ? STANDARD_HEADER : (style.versionName as string);
}
