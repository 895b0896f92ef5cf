/**
 * GET /allocation_candidates (1.10+): the query read per microversion, the search run over
 * a snapshot loaded in a few queries, then the answer shaped per microversion — list or
 * dict allocation requests (1.12), mappings (1.34), summaries with traits (1.17), every
 * class of the tree (1.27) and parent/root (1.29).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FeatureWindows } from '../../microversion/index.ts';
import { flatGroup } from '../candidates/flat.ts';
import {
  type Candidate,
  type CandidateQuery,
  type CandidateSnapshot,
  UnknownResourceClassError,
  UnknownTraitError,
} from '../candidates/model.ts';
import { searchCandidates } from '../candidates/search.ts';
import {
  CANDIDATES_QUERY_1_10,
  CANDIDATES_QUERY_1_16,
  CANDIDATES_QUERY_1_17,
  CANDIDATES_QUERY_1_21,
  CANDIDATES_QUERY_1_25,
  CANDIDATES_QUERY_1_31,
  CANDIDATES_QUERY_1_33,
  CANDIDATES_QUERY_1_35,
  CANDIDATES_QUERY_1_36,
} from '../schemas/allocation-candidate.ts';
import type { JsonSchema } from '../schemas/validator.ts';
import { loadSharedCandidateSnapshot } from '../store/candidate-snapshot.ts';
import { type ProviderSummary, sharedProviderSummaries } from '../store/provider-summaries.ts';
import { setCacheHeaders } from './cache-headers.ts';
import { parseCandidateQuery } from './candidate-params.ts';
import { badRequest } from './errors.ts';
import { FEATURES } from './features.ts';
import { answerFlat } from './flat-candidates-answer.ts';
import { type PythonNumber, pythonIntOfFloat, pythonJsonText } from './python-number.ts';
import { validateQuery } from './query.ts';
import { sendJsonText } from './reply.ts';
import { checkAcceptsJson } from './request-body.ts';
import { authorize } from './request-context.ts';
import { declareRoute, since } from './routing.ts';

/** The query string's schema, one per microversion that added parameters. */
export const CANDIDATES_QUERY_SCHEMAS = new FeatureWindows<JsonSchema>(
  'GET /allocation_candidates query',
  [
    {
      since: FEATURES.allocationCandidates,
      until: FEATURES.candidateLimit,
      use: CANDIDATES_QUERY_1_10,
    },
    { since: FEATURES.candidateLimit, until: FEATURES.candidateTraits, use: CANDIDATES_QUERY_1_16 },
    {
      since: FEATURES.candidateTraits,
      until: FEATURES.candidateMemberOf,
      use: CANDIDATES_QUERY_1_17,
    },
    {
      since: FEATURES.candidateMemberOf,
      until: FEATURES.granularGroups,
      use: CANDIDATES_QUERY_1_21,
    },
    { since: FEATURES.granularGroups, until: FEATURES.candidateInTree, use: CANDIDATES_QUERY_1_25 },
    {
      since: FEATURES.candidateInTree,
      until: FEATURES.namedGroupSuffixes,
      use: CANDIDATES_QUERY_1_31,
    },
    {
      since: FEATURES.namedGroupSuffixes,
      until: FEATURES.rootRequired,
      use: CANDIDATES_QUERY_1_33,
    },
    { since: FEATURES.rootRequired, until: FEATURES.sameSubtree, use: CANDIDATES_QUERY_1_35 },
    { since: FEATURES.sameSubtree, use: CANDIDATES_QUERY_1_36 },
  ],
);

interface Named {
  readonly uuidOf: (providerId: number) => string;
  readonly classOf: (classId: number) => string;
}

/** What a microversion shows of an allocation request, decided once per answer. */
interface RequestShape {
  readonly asDict: boolean;
  readonly mappings: boolean;
}

function requestShape(request: FastifyRequest): RequestShape {
  return {
    asDict: request.microversion.atLeast(FEATURES.allocationsAsDict),
    mappings: request.microversion.atLeast(FEATURES.allocationMappings),
  };
}

/** One allocation request's body, keys in first-seen order (a provider, then its classes). */
function allocationRequest(shape: RequestShape, candidate: Candidate, named: Named) {
  const byProvider = new Map<string, Record<string, number>>();
  for (const a of candidate.allocations) {
    const uuid = named.uuidOf(a.providerId);
    let resources = byProvider.get(uuid);
    if (resources === undefined) {
      resources = {};
      byProvider.set(uuid, resources);
    }
    resources[named.classOf(a.classId)] = a.amount;
  }
  if (!shape.asDict) {
    const allocations: { resource_provider: { uuid: string }; resources: object }[] = [];
    for (const [uuid, resources] of byProvider) {
      allocations.push({ resource_provider: { uuid }, resources });
    }
    return { allocations };
  }
  // Provider uuids as keys (never "__proto__", so assigning is defining).
  const allocations: Record<string, { resources: Record<string, number> }> = {};
  for (const [uuid, resources] of byProvider) allocations[uuid] = { resources };
  const body: Record<string, unknown> = { allocations };
  if (shape.mappings) {
    body.mappings = Object.fromEntries(
      [...candidate.mappings].map(([suffix, ids]) => [suffix, ids.map(named.uuidOf)]),
    );
  }
  return body;
}

function summaryBody(
  request: FastifyRequest,
  summary: ProviderSummary,
  named: Named,
  requested: ReadonlySet<string>,
) {
  const allClasses = request.microversion.atLeast(FEATURES.summariesAllClasses);
  const resources: Record<string, { capacity: number | PythonNumber; used: number }> = {};
  for (const r of summary.resources) {
    const name = named.classOf(r.classId);
    if (allClasses || requested.has(name)) {
      resources[name] = { capacity: pythonIntOfFloat(r.capacity), used: r.used };
    }
  }
  const body: Record<string, unknown> = { resources };
  if (request.microversion.atLeast(FEATURES.candidateTraits)) body.traits = summary.traits;
  if (request.microversion.atLeast(FEATURES.nestedCandidates)) {
    body.parent_provider_uuid = summary.parentUuid;
    body.root_provider_uuid = summary.rootUuid;
  }
  return body;
}

async function listAllocationCandidates(request: FastifyRequest, reply: FastifyReply) {
  checkAcceptsJson(request);
  authorize(request, 'placement:allocation_candidates:list');
  validateQuery(request, CANDIDATES_QUERY_SCHEMAS.expect(request.microversion.version));
  const query: CandidateQuery = parseCandidateQuery(request);
  // The common case in one query; the general search when trees or sharing are involved.
  const flat = flatGroup(query);
  if (flat !== undefined && (await answerFlat(request, reply, flat, query.limit))) return reply;
  const { db, config, resourceClasses } = request.server.placement;
  const random = config.randomizeAllocationCandidates ? Math.random : undefined;
  let body: Buffer;
  try {
    const snapshot = await loadSharedCandidateSnapshot(db.kysely, resourceClasses, query);
    // Requests that shared the snapshot and ask the very same thing share the answer (its
    // summaries were read after all of them asked); never when randomized.
    const key = random ? undefined : `${request.microversion.text} ${request.url}`;
    let answer = key === undefined ? undefined : sharedAnswers.get(snapshot)?.get(key);
    if (answer === undefined) {
      answer = answerFrom(request, query, snapshot, random);
      if (key !== undefined) {
        const answers = sharedAnswers.get(snapshot) ?? new Map<string, Promise<Buffer>>();
        answers.set(key, answer);
        sharedAnswers.set(snapshot, answers);
      }
    }
    body = await answer;
  } catch (error) {
    if (error instanceof UnknownResourceClassError) {
      throw badRequest(`Invalid resource class in resources parameter: ${error.message}`);
    }
    if (error instanceof UnknownTraitError) throw badRequest(error.message);
    throw error;
  }
  setCacheHeaders(request, reply, new Date());
  return sendJsonText(reply, 200, body);
}

/** Answers already under way per shared snapshot (they live as long as the snapshot). */
const sharedAnswers = new WeakMap<CandidateSnapshot, Map<string, Promise<Buffer>>>();

/** The search over the snapshot, the summaries of what it found, the body. */
async function answerFrom(
  request: FastifyRequest,
  query: CandidateQuery,
  snapshot: CandidateSnapshot,
  random: (() => number) | undefined,
): Promise<Buffer> {
  const { db, resourceClasses } = request.server.placement;
  const { candidates } = searchCandidates(query, snapshot, { random });
  // Summaries cover the trees whose providers the candidates use (before 1.29 with trees:
  // only the providers used).
  const used = new Set(candidates.flatMap((c) => c.allocations.map((a) => a.providerId)));
  const roots = new Set([...used].map((id) => snapshot.providers.get(id)?.rootId ?? id));
  let summaries = await sharedProviderSummaries(db.kysely, db.caps, roots, {
    traits: request.microversion.atLeast(FEATURES.candidateTraits),
  });
  if (!query.nestedAware && snapshot.hasTrees) {
    summaries = summaries.filter((summary) => used.has(summary.id));
  }
  // A summary's uuid first, else the snapshot's (as one map filled from both, in that order).
  const uuids = new Map<number, string>();
  for (const summary of summaries) uuids.set(summary.id, summary.uuid);
  const classNames = new Map<number, string>();
  const classIds = new Set([
    ...candidates.flatMap((c) => c.allocations.map((a) => a.classId)),
    ...summaries.flatMap((s) => s.resources.map((r) => r.classId)),
  ]);
  for (const id of classIds) classNames.set(id, await resourceClasses.nameOf(db.kysely, id));
  const named: Named = {
    uuidOf: (id) => uuids.get(id) ?? snapshot.providers.get(id)?.uuid ?? '',
    classOf: (id) => classNames.get(id) ?? '',
  };
  const requested = new Set(query.groups.flatMap((g) => [...g.resources.keys()]));
  const shape = requestShape(request);
  const body = {
    allocation_requests: candidates.map((c) => allocationRequest(shape, c, named)),
    provider_summaries: Object.fromEntries(
      summaries.map((s) => [s.uuid, summaryBody(request, s, named, requested)]),
    ),
  };
  // A capacity past 2**53 is written with all its digits, as Python's int() has them.
  const exact = summaries.some((s) => s.resources.some((r) => !Number.isSafeInteger(r.capacity)));
  return Buffer.from(exact ? pythonJsonText(body) : JSON.stringify(body));
}

export function registerAllocationCandidateRoutes(app: FastifyInstance): void {
  declareRoute(app, '/allocation_candidates', {
    GET: since(FEATURES.allocationCandidates, listAllocationCandidates),
  });
}
