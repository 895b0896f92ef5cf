import { type CompiledHeaderStyle, STANDARD_HEADER } from './header-style.ts';

/** Request headers keyed by lower-cased name, as Node (and so Fastify) hands them over. */
export type HeaderBag = Readonly<Record<string, string | readonly string[] | undefined>>;

/** Lower-cased standard header name, as Node keys request headers. */
export const STANDARD_KEY = STANDARD_HEADER.toLowerCase();
const COMMA = 44;

function isSpace(c: number): boolean {
  return c === 32 || c === 9;
}

export function headerValue(headers: HeaderBag, key: string): string | undefined {
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

/** The values of the version headers a style reads (undefined: absent). */
export interface VersionHeaderValues {
  standard: string | undefined;
  legacy: string | undefined;
}

/** The values of the standard and legacy version headers of a request. */
export function versionHeaderValues(
  headers: HeaderBag,
  style: CompiledHeaderStyle,
): VersionHeaderValues {
  return {
    standard: style.readsStandard ? headerValue(headers, STANDARD_KEY) : undefined,
    legacy: style.legacyKey === undefined ? undefined : headerValue(headers, style.legacyKey),
  };
}

/**
 * The requested version text, or undefined when the request names no version for this service
 * (it then gets the default). The standard header is looked at first; the legacy one only when
 * the standard header has no entry for the service. `serviceType` must be lower case.
 */
export function findRequestedVersion(
  standard: string | undefined,
  legacy: string | undefined,
  serviceType: string,
): string | undefined {
  if (standard !== undefined) {
    const found = findServiceEntry(standard, serviceType);
    if (found !== undefined) return found;
  }
  return legacy === undefined ? undefined : lastListElement(legacy);
}

/** Name of the header `findRequestedVersion` took its answer from; used for error messages. */
export function requestedVersionHeader(
  standard: string | undefined,
  style: CompiledHeaderStyle,
  serviceType: string,
): string {
  if (standard !== undefined && findServiceEntry(standard, serviceType) !== undefined) {
    return STANDARD_HEADER;
  }
  return style.legacyKey === undefined ? STANDARD_HEADER : style.versionName;
}
