/**
 * `X-OpenStack-Ironic-API-Version` as the real Ironic 21.4.4 reads it (base.Version and the v1
 * controller's `_check_version`): no header is the minimum, `latest` (any case) the served
 * maximum, each part of `X.Y` goes through Python's `int()` (so ` 1.5`, `01.05` and `+1.5` are
 * 1.5), and the refusals are 406 with the real texts:
 *
 * - not two integers: "Invalid value for X-OpenStack-Ironic-API-Version header", raised before
 *   any version header is set, so the answer has none;
 * - another major version: "Mutually exclusive versions requested. …", with the minimum and
 *   maximum headers;
 * - a minor version outside the range: "Version X.Y was requested but the minor version is not
 *   supported by this service. …", with the minimum and maximum headers.
 *
 * The accepted value is resolved by the toolkit's negotiator, which holds the range (the max
 * lowered by the caps in force) and the response headers of each version.
 */
import {
  type ResolvedVersion,
  type ResponseHeader,
  VersionNegotiator,
} from '../../microversion/index.ts';
import { pythonInt } from '../../python-compat/index.ts';
import { MIN_VERSION, SERVED_MAX_VERSION } from './versions.ts';

export const VERSION_HEADER = 'X-OpenStack-Ironic-API-Version';
export const MIN_VERSION_HEADER = 'X-OpenStack-Ironic-API-Minimum-Version';
export const MAX_VERSION_HEADER = 'X-OpenStack-Ironic-API-Maximum-Version';
const VERSION_KEY = VERSION_HEADER.toLowerCase();

/** A refused version header: always 406, the real text, and the headers the answer carries. */
export class VersionRefusal {
  readonly status = 406;
  readonly description: string;
  readonly headers: readonly ResponseHeader[];
  constructor(description: string, headers: readonly ResponseHeader[]) {
    this.description = description;
    this.headers = headers;
  }
}

/** The bare metal API's negotiator; `apiMax` is the caps in force (the served max unpinned). */
export function ironicNegotiator(apiMax?: string): VersionNegotiator {
  return new VersionNegotiator({
    serviceType: 'baremetal',
    min: MIN_VERSION,
    max: SERVED_MAX_VERSION,
    pinnedMax: apiMax,
    headers: {
      mode: 'legacy',
      legacyName: VERSION_HEADER,
      minimumName: MIN_VERSION_HEADER,
      maximumName: MAX_VERSION_HEADER,
    },
    malformedStatus: 406,
    // Refusals are worded here, not by the negotiator (resolveIronicVersion never lets it refuse).
    formatError: (report) => ({ error_message: report.detail }),
  });
}

type Parsed = { readonly major: bigint; readonly minor: bigint } | 'latest' | 'malformed';

/** The header's value as base.Version.parse_headers reads it. */
function parseValue(value: string): Parsed {
  if (value.toLowerCase() === 'latest') return 'latest';
  const parts = value.split('.');
  if (parts.length !== 2) return 'malformed';
  const major = pythonInt(parts[0] as string);
  const minor = pythonInt(parts[1] as string);
  if (major === undefined || minor === undefined) return 'malformed';
  return { major, minor };
}

/** The request's version, or the refusal the real service answers it with. */
export function resolveIronicVersion(
  negotiator: VersionNegotiator,
  headers: Readonly<Record<string, string | string[] | undefined>>,
): ResolvedVersion | VersionRefusal {
  const raw = headers[VERSION_KEY];
  if (raw === undefined) return negotiator.defaultVersion;
  // Repeated header lines arrive joined, as a WSGI server joins them.
  const parsed = parseValue(Array.isArray(raw) ? raw.join(', ') : raw);
  if (parsed === 'latest') return negotiator.latestVersion;
  if (parsed === 'malformed') {
    return new VersionRefusal(`Invalid value for ${VERSION_HEADER} header`, []);
  }
  const { minText: min, maxText: max } = negotiator;
  const rangeHeaders: ResponseHeader[] = [
    [MIN_VERSION_HEADER.toLowerCase(), min],
    [MAX_VERSION_HEADER.toLowerCase(), max],
  ];
  const text = `${parsed.major}.${parsed.minor}`;
  const range = `The supported version range is: [${min}, ${max}].`;
  if (parsed.major !== BigInt(negotiator.min.major)) {
    return new VersionRefusal(
      `Mutually exclusive versions requested. Version ${text} requested but not supported by this service. ${range}`,
      rangeHeaders,
    );
  }
  if (parsed.minor < BigInt(negotiator.min.minor) || parsed.minor > BigInt(negotiator.max.minor)) {
    return new VersionRefusal(
      `Version ${text} was requested but the minor version is not supported by this service. ${range}`,
      rangeHeaders,
    );
  }
  return negotiator.resolvedFor({ major: negotiator.min.major, minor: Number(parsed.minor) });
}
