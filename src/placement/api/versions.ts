/**
 * Placement's microversions: a plain list, one line each; the max is the last element.
 * Negotiation follows the real service's middleware: the header is read the Python way
 * (python-version-header.ts); a refused header is answered with no version headers (400 when
 * malformed, 406 with the range when outside it); an agreed version puts
 * `OpenStack-API-Version` and `Vary` on the answer.
 */
import type { FastifyInstance } from 'fastify';
import {
  compareVersions,
  parseVersion,
  ResolvedVersion,
  VersionNegotiator,
} from '../../microversion/index.ts';
import { PlacementHttpError } from './errors.ts';
import { readVersionHeader, type VersionReading } from './python-version-header.ts';

export const PLACEMENT_VERSIONS = [
  '1.0', // base API: providers, inventories, usages, allocations
  '1.1', // provider aggregates
  '1.2', // custom resource classes
  '1.3', // member_of on provider listing
  '1.4', // resources filter on provider listing
  '1.5', // DELETE all inventories of a provider
  '1.6', // traits
  '1.7', // PUT /resource_classes/{name} creates
  '1.8', // project_id and user_id required on allocations
  '1.9', // GET /usages
  '1.10', // allocation candidates
  '1.11', // allocations link in provider listings
  '1.12', // dict form of allocations
  '1.13', // POST /allocations for several consumers
  '1.14', // nested providers
  '1.15', // last-modified and cache-control headers
  '1.16', // limit on allocation candidates
  '1.17', // required traits on allocation candidates
  '1.18', // required traits on provider listing
  '1.19', // generations on provider aggregates
  '1.20', // POST /resource_providers answers with the provider
  '1.21', // member_of on allocation candidates
  '1.22', // forbidden traits
  '1.23', // code in error bodies
  '1.24', // several member_of parameters
  '1.25', // granular request groups
  '1.26', // reserved may equal total
  '1.27', // provider summaries list every resource class
  '1.28', // consumer generations
  '1.29', // nested allocation candidates
  '1.30', // POST /reshaper
  '1.31', // in_tree on allocation candidates
  '1.32', // forbidden aggregates
  '1.33', // string suffixes for request groups
  '1.34', // mappings in allocation requests
  '1.35', // root_required
  '1.36', // same_subtree
  '1.37', // re-parenting providers
  '1.38', // consumer_type
  '1.39', // any-traits in required
] as const;

export const MIN_VERSION = PLACEMENT_VERSIONS[0];
export const MAX_VERSION = PLACEMENT_VERSIONS[PLACEMENT_VERSIONS.length - 1] as string;

const VERSION_HEADER = 'openstack-api-version';
// Clients repeat the same few header values; a bounded memo spares re-reading them.
const MAX_MEMO = 256;
const MAX_MEMO_KEY = 64;

export function placementNegotiator(pinnedMax?: string): VersionNegotiator {
  return new VersionNegotiator({
    serviceType: 'placement',
    min: MIN_VERSION,
    max: MAX_VERSION,
    pinnedMax,
    headers: { mode: 'new' },
    malformedStatus: 400,
    // Placement answers version errors itself (registerVersionNegotiation).
    formatError: () => undefined,
  });
}

/** A refused version header: no version was agreed, so the answer has no version headers. */
export class VersionRefusedError extends PlacementHttpError {
  readonly range: { readonly min: string; readonly max: string } | undefined;

  constructor(
    reading: Extract<VersionReading, { kind: 'malformed' | 'unacceptable' }>,
    negotiator: VersionNegotiator,
  ) {
    super(reading.kind === 'malformed' ? 400 : 406, `Invalid microversion: ${reading.message}`);
    this.name = 'VersionRefusedError';
    // The range served: a release pin lowers its max, as it does the version document's.
    this.range =
      reading.kind === 'unacceptable'
        ? { min: negotiator.minText, max: negotiator.maxText }
        : undefined;
  }
}

/**
 * Decorates the app with the negotiator and every request with the version it is answered
 * at; register it after authentication (a request without a token is refused first).
 */
/** How the versions are read at one maximum: the negotiator and its memo of headers. */
function versioningAt(pinnedMax: string | undefined) {
  const negotiator = placementNegotiator(pinnedMax);
  const supported = PLACEMENT_VERSIONS.filter(
    (v) => compareVersions(parseVersion(v), negotiator.max) <= 0,
  );
  type Refusal = Extract<VersionReading, { kind: 'malformed' | 'unacceptable' }>;
  const memo = new Map<string, ResolvedVersion | Refusal>();
  const resolve = (header: string | undefined): ResolvedVersion | Refusal => {
    const known = header === undefined ? negotiator.defaultVersion : memo.get(header);
    if (known !== undefined) return known;
    const reading = readVersionHeader(header, supported);
    const answer =
      reading.kind === 'default'
        ? negotiator.defaultVersion
        : reading.kind === 'version'
          ? negotiator.resolvedFor(parseVersion(reading.text))
          : reading;
    if (header !== undefined && memo.size < MAX_MEMO && header.length <= MAX_MEMO_KEY) {
      memo.set(header, answer);
    }
    return answer;
  };
  return { negotiator, resolve };
}

/**
 * `pinnedMax`: the highest version to serve, or a function read at each request (the pool's
 * maximum, which follows the live processes: src/service/pool-api-max.ts).
 */
export function registerVersionNegotiation(
  app: FastifyInstance,
  pinnedMax?: string | (() => string | undefined),
): void {
  const built = new Map<string | undefined, ReturnType<typeof versioningAt>>();
  const now = () => {
    const max = typeof pinnedMax === 'function' ? pinnedMax() : pinnedMax;
    let versioning = built.get(max);
    if (versioning === undefined) {
      versioning = versioningAt(max);
      built.set(max, versioning);
    }
    return versioning;
  };
  app.decorate('microversion', { getter: () => now().negotiator });
  app.decorateRequest('microversion', null, []);
  const vary = VERSION_HEADER;
  app.addHook('onRequest', (request, reply, done) => {
    const { negotiator, resolve } = now();
    const raw = request.headers[VERSION_HEADER];
    const answer = resolve(Array.isArray(raw) ? raw.join(',') : raw);
    if (!(answer instanceof ResolvedVersion)) {
      done(new VersionRefusedError(answer, negotiator));
      return;
    }
    request.microversion = answer;
    reply.header(VERSION_HEADER, (answer.headers[0] as readonly [string, string])[1]);
    reply.header('vary', vary);
    done();
  });
}
