/**
 * GET /allocation_candidates' query string read as the reference reads it: request-wide
 * parameters (limit, group_policy, root_required, same_subtree) first, then request groups
 * by suffix with their checks per microversion, refused in the reference's words.
 */
import type { FastifyRequest } from 'fastify';
import { FeatureWindows } from '../../microversion/index.ts';
import type { CandidateQuery } from '../candidates/model.ts';
import { GROUP_KEY_PATTERN, GROUP_KEY_PATTERN_1_33 } from '../schemas/allocation-candidate.ts';
import { isUuidLike } from '../schemas/validator.ts';
import { badRequest, ErrorCodes } from './errors.ts';
import { FEATURES } from './features.ts';
import {
  parseMemberOf,
  parseRequiredTraits,
  parseResources,
  parseTraitsValue,
} from './filter-params.ts';
import { queryValues } from './query.ts';

/** Which query keys name request groups: numbered suffixes, then named ones. */
export const GROUP_KEY_PATTERNS = new FeatureWindows('GET /allocation_candidates group keys', [
  {
    since: FEATURES.allocationCandidates,
    until: FEATURES.namedGroupSuffixes,
    use: GROUP_KEY_PATTERN,
  },
  { since: FEATURES.namedGroupSuffixes, use: GROUP_KEY_PATTERN_1_33 },
]);

type RawQuery = Record<string, string | string[] | undefined>;

/** Python's repr of a list of strings: ['a', 'b']. */
function pyList(items: readonly string[]): string {
  return `[${items.map((item) => `'${item}'`).join(', ')}]`;
}

interface WideParams {
  limit?: number;
  groupPolicy?: 'none' | 'isolate';
  rootRequired?: { required: Set<string>; forbidden: Set<string> };
  sameSubtrees: Set<string>[];
}

function wideParams(request: FastifyRequest): WideParams {
  const params: WideParams = { sameSubtrees: [] };
  const limit = queryValues(request, 'limit')[0];
  if (limit !== undefined) params.limit = Number.parseInt(limit, 10);
  const policy = queryValues(request, 'group_policy')[0];
  if (policy === 'none' || policy === 'isolate') params.groupPolicy = policy;

  const rootRequired = queryValues(request, 'root_required');
  if (rootRequired.length > 1) {
    throw badRequest("Query parameter 'root_required' may be specified only once.", {
      code: ErrorCodes.ILLEGAL_DUPLICATE_QUERYPARAM,
    });
  }
  if (rootRequired[0] !== undefined) {
    // No any-traits here: `in:` is refused as before 1.39.
    const parsed = parseTraitsValue(rootRequired[0], true, false);
    const required = new Set(parsed.required.flatMap((anyOf) => [...anyOf]));
    const conflicts = [...parsed.forbidden].filter((trait) => required.has(trait));
    if (conflicts.length > 0) {
      throw badRequest(
        `Conflicting required and forbidden traits found in root_required: ${conflicts.join(', ')}`,
        { code: ErrorCodes.QUERYPARAM_BAD_VALUE },
      );
    }
    params.rootRequired = { required, forbidden: new Set(parsed.forbidden) };
  }

  for (const value of queryValues(request, 'same_subtree')) {
    const suffixes = new Set(value.split(',').map((part) => part.trim()));
    if (suffixes.has('')) {
      throw badRequest('Empty string (unsuffixed group) can not be specified in `same_subtree` ', {
        code: ErrorCodes.QUERYPARAM_BAD_VALUE,
      });
    }
    params.sameSubtrees.push(suffixes);
  }
  return params;
}

/** A group as it is being read (fields replaced as their keys come). */
interface MutableGroup {
  suffix: string;
  useSameProvider: boolean;
  resources: Map<string, number>;
  requiredTraits: ReadonlySet<string>[];
  forbiddenTraits: ReadonlySet<string>;
  memberOf: ReadonlySet<string>[];
  forbiddenAggregates: ReadonlySet<string>;
  inTree?: string;
}

/** The request groups by suffix, in the order their suffixes first appear. */
function requestGroups(request: FastifyRequest, wide: WideParams): MutableGroup[] {
  const version = request.microversion;
  const pattern = GROUP_KEY_PATTERNS.expect(version.version);
  const groups = new Map<string, MutableGroup>();
  for (const [key, raw] of Object.entries(request.query as RawQuery)) {
    const match = pattern.exec(key);
    if (match === null || raw === undefined) continue;
    const prefix = match[1] as string;
    const suffix = match[2] ?? '';
    let group = groups.get(suffix);
    if (group === undefined) {
      group = {
        suffix,
        useSameProvider: suffix !== '',
        resources: new Map(),
        requiredTraits: [],
        forbiddenTraits: new Set(),
        memberOf: [],
        forbiddenAggregates: new Set(),
      };
      groups.set(suffix, group);
    }
    const values = Array.isArray(raw) ? raw : [raw];
    if (prefix === 'resources') {
      for (const value of values) group.resources = parseResources(value);
    } else if (prefix === 'required') {
      const traits = parseRequiredTraits(request, suffix);
      group.requiredTraits = traits.required;
      group.forbiddenTraits = traits.forbidden;
    } else if (prefix === 'member_of') {
      const aggregates = parseMemberOf(request, suffix);
      group.memberOf = aggregates.memberOf;
      group.forbiddenAggregates = aggregates.forbidden;
    } else {
      for (const value of values) {
        const uuid = value.trim();
        if (!isUuidLike(uuid)) {
          throw badRequest(
            "Invalid query string parameters: Expected 'in_tree' parameter to be a format of " +
              `uuid. Got: ${value}`,
          );
        }
        group.inTree = uuid;
      }
    }
  }
  const list = [...groups.values()];
  if (version.atLeast(FEATURES.sameSubtree)) checkResourceless(list, wide);
  else checkOrphans(list);
  if (version.atLeast(FEATURES.forbiddenTraits)) checkConflicts(list);
  return list;
}

/** From 1.36 a group may have no resources if same_subtree names it. */
function checkResourceless(groups: readonly MutableGroup[], wide: WideParams): void {
  const resourceless = groups.filter((g) => g.resources.size === 0).map((g) => g.suffix);
  if (resourceless.length === groups.length) {
    throw badRequest('There must be at least one resources or resources[$S] parameter.', {
      code: ErrorCodes.QUERYPARAM_MISSING_VALUE,
    });
  }
  const inSubtrees = new Set(wide.sameSubtrees.flatMap((set) => [...set]));
  const bad = resourceless.filter((suffix) => !inSubtrees.has(suffix));
  if (bad.length > 0) {
    throw badRequest(
      'Resourceless suffixed group request should be specified in `same_subtree` query ' +
        `param: bad group(s) - ${pyList(bad)}.`,
      { code: ErrorCodes.QUERYPARAM_BAD_VALUE },
    );
  }
  const known = new Set(groups.map((g) => g.suffix));
  const unknown = [...inSubtrees].filter((suffix) => !known.has(suffix));
  if (unknown.length > 0) {
    throw badRequest(
      `Real suffixes should be specified in \`same_subtree\`: ${pyList(unknown)} not found in ` +
        `${pyList(groups.map((g) => g.suffix))}.`,
      { code: ErrorCodes.QUERYPARAM_BAD_VALUE },
    );
  }
}

/** Before 1.36 every group needs resources. */
function checkOrphans(groups: readonly MutableGroup[]): void {
  const orphanTraits = groups
    .filter((g) => g.requiredTraits.length > 0 && g.resources.size === 0)
    .map((g) => `required${g.suffix}`);
  if (orphanTraits.length > 0) {
    throw badRequest(
      'All traits parameters must be associated with resources.  Found the following ' +
        `orphaned traits keys: ${orphanTraits.join(', ')}`,
    );
  }
  const orphanAggregates = groups
    .filter(
      (g) => g.resources.size === 0 && (g.memberOf.length > 0 || g.forbiddenAggregates.size > 0),
    )
    .map((g) => `member_of${g.suffix}`);
  if (orphanAggregates.length > 0) {
    throw badRequest(
      'All member_of parameters must be associated with resources. Found the following ' +
        `orphaned member_of keys: ${orphanAggregates.join(', ')}`,
    );
  }
  if (groups.some((g) => g.resources.size === 0)) {
    throw badRequest('All request groups must specify resources.');
  }
  if (groups.length === 0) {
    throw badRequest('At least one request group (`resources` or `resources{$S}`) is required.');
  }
}

/** A required set wholly forbidden in the same group can never be met. */
function checkConflicts(groups: readonly MutableGroup[]): void {
  const conflicts: string[] = [];
  for (const group of groups) {
    for (const anyOf of group.requiredTraits) {
      if ([...anyOf].every((trait) => group.forbiddenTraits.has(trait))) {
        conflicts.push(`required${group.suffix}: (${[...anyOf].sort().join(', ')})`);
      }
    }
  }
  if (conflicts.length > 0) {
    throw badRequest(
      'Conflicting required and forbidden traits found in the following traits keys: ' +
        conflicts.sort().join(', '),
    );
  }
}

export function parseCandidateQuery(request: FastifyRequest): CandidateQuery {
  const wide = wideParams(request);
  const groups = requestGroups(request, wide);
  if (wide.groupPolicy === undefined && groups.filter((g) => g.useSameProvider).length > 1) {
    throw badRequest(
      'The "group_policy" parameter is required when specifying more than one "resources{N}" ' +
        'parameter.',
    );
  }
  return {
    groups,
    limit: wide.limit,
    groupPolicy: wide.groupPolicy,
    rootRequired: wide.rootRequired,
    sameSubtrees: wide.sameSubtrees,
    nestedAware: request.microversion.atLeast(FEATURES.nestedCandidates),
  };
}
