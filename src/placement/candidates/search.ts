/**
 * The allocation-candidates search over a loaded snapshot, step by step in the reference's
 * order: the `root_required` anchors, then each group in turn (names resolved, aggregates,
 * traits, tree, capacity — an unknown class or trait refuses the request, an empty step
 * answers "no candidates" at once), then the merge of all groups.
 */
import { WorkBudget } from './combinations.ts';
import {
  fits,
  type GroupContext,
  type ResolvedGroup,
  singleProviderRequests,
  treeRequests,
} from './group-requests.ts';
import { mergeGroups } from './merge.ts';
import {
  type Candidate,
  type CandidateQuery,
  type CandidateSnapshot,
  DEFAULT_BOUNDS,
  type GroupQuery,
  type GroupRequest,
  type SearchBounds,
  UnknownResourceClassError,
  UnknownTraitError,
} from './model.ts';

export interface SearchOptions {
  readonly bounds?: SearchBounds;
  /** randomize_allocation_candidates: a random source makes the order (and subset) random. */
  readonly random?: () => number;
}

export interface SearchResult {
  readonly candidates: Candidate[];
  /** Whether a bound (not the request's limit) cut the enumeration short. */
  readonly truncated: boolean;
}

const NONE: SearchResult = { candidates: [], truncated: false };

function traitId(snapshot: CandidateSnapshot, name: string): number {
  const id = snapshot.traitIds.get(name);
  if (id === undefined) throw new UnknownTraitError(name);
  return id;
}

function membersOfAny(snapshot: CandidateSnapshot, aggregates: ReadonlySet<string>): Set<number> {
  const out = new Set<number>();
  for (const uuid of aggregates)
    for (const id of snapshot.aggregateMembers.get(uuid) ?? []) out.add(id);
  return out;
}

/** Resolves one group; undefined when a step already leaves no provider. */
function resolveGroup(group: GroupQuery, snapshot: CandidateSnapshot): ResolvedGroup | undefined {
  const resources: [number, number][] = [];
  for (const [name, amount] of group.resources) {
    const classId = snapshot.classIds.get(name);
    if (classId === undefined) throw new UnknownResourceClassError(name);
    resources.push([classId, amount]);
  }
  let inAggregates: Set<number> | undefined;
  for (const anyOf of group.memberOf) {
    const members = membersOfAny(snapshot, anyOf);
    inAggregates =
      inAggregates === undefined
        ? members
        : new Set([...inAggregates].filter((id) => members.has(id)));
  }
  if (inAggregates !== undefined && inAggregates.size === 0) return undefined;
  const requiredTraits = group.requiredTraits.map(
    (anyOf) => new Set([...anyOf].map((name) => traitId(snapshot, name))),
  );
  const forbiddenTraits = new Set(
    [...group.forbiddenTraits].map((name) => traitId(snapshot, name)),
  );
  let treeRootId: number | undefined;
  if (group.inTree !== undefined) {
    treeRootId = snapshot.treeRoots.get(group.inTree);
    if (treeRootId === undefined) return undefined;
  }
  const withResource = new Map<number, number[]>();
  for (const [classId, amount] of resources) {
    const able = (snapshot.inventories.get(classId) ?? [])
      .filter((inventory) => fits(inventory, amount))
      .map((inventory) => inventory.providerId)
      .filter(
        (providerId) =>
          treeRootId === undefined || snapshot.providers.get(providerId)?.rootId === treeRootId,
      );
    if (able.length === 0) return undefined;
    withResource.set(classId, able);
  }
  return {
    suffix: group.suffix,
    useSameProvider: group.useSameProvider,
    resources,
    requiredTraits,
    forbiddenTraits,
    inAggregates,
    inForbiddenAggregates: membersOfAny(snapshot, group.forbiddenAggregates),
    treeRootId,
    withResource,
  };
}

export function searchCandidates(
  query: CandidateQuery,
  snapshot: CandidateSnapshot,
  options: SearchOptions = {},
): SearchResult {
  const bounds = options.bounds ?? DEFAULT_BOUNDS;
  if (query.rootRequired !== undefined) {
    for (const name of query.rootRequired.required) traitId(snapshot, name);
    for (const name of query.rootRequired.forbidden) traitId(snapshot, name);
    if (snapshot.anchorRoots === undefined || snapshot.anchorRoots.size === 0) return NONE;
  }
  const anchors = snapshot.anchorRoots;
  const budget = new WorkBudget(bounds.maxCombinations);
  const ctx: GroupContext = {
    snapshot,
    budget,
    maxPerTree: bounds.maxPerTree,
    anchorAllowed: anchors === undefined ? () => true : (rootId) => anchors.has(rootId),
  };
  const spreads = snapshot.sharing.size > 0 || snapshot.hasTrees;
  const perGroup = new Map<string, readonly GroupRequest[]>();
  for (const group of query.groups) {
    const resolved = resolveGroup(group, snapshot);
    if (resolved === undefined) return NONE;
    const requests =
      !group.useSameProvider && spreads
        ? treeRequests(resolved, ctx)
        : singleProviderRequests(resolved, ctx);
    if (requests.length === 0) return { candidates: [], truncated: budget.exhausted };
    perGroup.set(group.suffix, requests);
  }
  const target = Math.min(query.limit ?? bounds.maxCandidates, bounds.maxCandidates);
  const candidates = mergeGroups(perGroup, snapshot, {
    suffixes: query.groups.map((group) => group.suffix),
    groupPolicy: query.groupPolicy,
    sameSubtrees: query.sameSubtrees,
    oneProviderPerTree: !query.nestedAware && snapshot.hasTrees,
    target,
    budget,
    random: options.random,
  });
  const capped =
    candidates.length >= bounds.maxCandidates && (query.limit ?? Infinity) > bounds.maxCandidates;
  return { candidates, truncated: budget.exhausted || capped };
}
