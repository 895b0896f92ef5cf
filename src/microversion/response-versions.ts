import { type CompiledHeaderStyle, STANDARD_HEADER } from './header-style.ts';
import { findServiceEntry, lastListElement } from './request-header.ts';
import { tryParseVersion, type Version } from './version.ts';

/** Read access to response headers (the Fetch API's `Headers`). */
export interface HeaderReader {
  /** The header's value, or null when absent. */
  get(name: string): string | null;
}

/** What a response says about versions; `aware` is false for a server that predates them. */
export interface ServerVersions {
  /** Some version header (current, min or max) was present, whatever its value. */
  readonly aware: boolean;
  readonly version: Version | undefined;
  readonly min: Version | undefined;
  readonly max: Version | undefined;
}

function headerVersion(headers: HeaderReader, name: string | undefined): Version | undefined {
  if (name === undefined) return undefined;
  const value = headers.get(name);
  return value === null ? undefined : tryParseVersion(lastListElement(value));
}

function present(headers: HeaderReader, name: string | undefined): boolean {
  return name !== undefined && headers.get(name) !== null;
}

/**
 * Reads the version headers of a response in the given style: the standard header's entry for
 * `serviceType` and the legacy header, plus the min/max headers where the service sends them.
 */
export function readServerVersions(
  headers: HeaderReader,
  style: CompiledHeaderStyle,
  serviceType: string,
): ServerVersions {
  let version: Version | undefined;
  let aware = false;
  const standard = headers.get(STANDARD_HEADER);
  if (standard !== null) {
    const entry = findServiceEntry(standard, serviceType.toLowerCase());
    if (entry !== undefined) {
      aware = true;
      version = tryParseVersion(entry);
    }
  }
  if (style.legacyKey !== undefined && present(headers, style.versionName)) {
    aware = true;
    version ??= headerVersion(headers, style.versionName);
  }
  const min = headerVersion(headers, style.minimumName);
  const max = headerVersion(headers, style.maximumName);
  aware ||= present(headers, style.minimumName) || present(headers, style.maximumName);
  return { aware, version, min, max };
}

/**
 * The supported range an API-SIG error body states on a 406 (Placement puts `min_version` and
 * `max_version` in each error), for services that send no min/max headers.
 */
export function readRangeFromBody(body: unknown): { min: Version; max: Version } | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const errors = (body as { errors?: unknown }).errors;
  if (!Array.isArray(errors)) return undefined;
  for (const error of errors as unknown[]) {
    if (typeof error !== 'object' || error === null) continue;
    const { min_version: min, max_version: max } = error as Record<string, unknown>;
    if (typeof min !== 'string' || typeof max !== 'string') continue;
    const minVersion = tryParseVersion(min);
    const maxVersion = tryParseVersion(max);
    if (minVersion !== undefined && maxVersion !== undefined) {
      return { min: minVersion, max: maxVersion };
    }
  }
  return undefined;
}

/** JSON.parse that yields undefined for a body that is not JSON (an HTML error page). */
export function parseJsonBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
