import type { Range } from './client-negotiation.ts';
import { tryParseVersion } from './version.ts';

/** One version entry of a document: `min_version` and `max_version` (or `version`, the max). */
function entryRange(entry: unknown): Range | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const fields = entry as Record<string, unknown>;
  const max = fields.max_version ?? fields.version;
  if (typeof fields.min_version !== 'string' || typeof max !== 'string') return undefined;
  // An empty string is how a major version without microversions says so (Nova's v2.0).
  const minVersion = tryParseVersion(fields.min_version);
  const maxVersion = tryParseVersion(max);
  return minVersion !== undefined && maxVersion !== undefined
    ? { min: minVersion, max: maxVersion }
    : undefined;
}

function isCurrent(entry: unknown): boolean {
  return (
    typeof entry === 'object' &&
    entry !== null &&
    (entry as { status?: unknown }).status === 'CURRENT'
  );
}

/**
 * The microversion range a version document states, in the shapes the OpenStack services use:
 * a `versions` list (Placement's and Ironic's root: `min_version` with `max_version` or
 * `version`), Ironic's root `default_version`, or a major version's own `version` object
 * (Ironic's `/v1`, Nova's `/v2.1`). A `CURRENT` entry wins over the others.
 */
export function readVersionDocument(body: unknown): Range | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const document = body as Record<string, unknown>;
  const entries: unknown[] = [];
  if (Array.isArray(document.versions)) entries.push(...document.versions);
  entries.push(document.default_version, document.version);
  const ordered = [...entries.filter(isCurrent), ...entries.filter((e) => !isCurrent(e))];
  for (const entry of ordered) {
    const range = entryRange(entry);
    if (range !== undefined) return range;
  }
  return undefined;
}
