/**
 * Folding the groups' answers into candidates: per anchor tree, one answer from each group,
 * kept when `group_policy`, `same_subtree`, the summed capacity and (before 1.29) the
 * one-provider-per-tree rule hold. Anchors are visited in turn, one candidate each, so a
 * limit stops the work early and spreads the answer over trees.
 */
import { product, roundRobin, shuffle, type WorkBudget } from './combinations.ts';
import type {
  Allocation,
  Candidate,
  CandidateSnapshot,
  GroupRequest,
  InventoryCapacity,
} from './model.ts';

export interface MergeOptions {
  readonly suffixes: readonly string[];
  readonly groupPolicy?: 'none' | 'isolate';
  readonly sameSubtrees: readonly ReadonlySet<string>[];
  /** Before 1.29 (and only when trees exist): one provider per tree in a candidate. */
  readonly oneProviderPerTree: boolean;
  /** Stop after this many candidates. */
  readonly target: number;
  readonly budget: WorkBudget;
  /** Visit anchors and answers in random order (randomize_allocation_candidates). */
  readonly random?: () => number;
}

export function mergeGroups(
  perGroup: ReadonlyMap<string, readonly GroupRequest[]>,
  snapshot: CandidateSnapshot,
  options: MergeOptions,
): Candidate[] {
  const byAnchor = new Map<number, Map<string, GroupRequest[]>>();
  for (const [suffix, requests] of perGroup) {
    for (const request of requests) {
      const bySuffix = byAnchor.get(request.anchorId) ?? new Map<string, GroupRequest[]>();
      byAnchor.set(request.anchorId, bySuffix);
      const list = bySuffix.get(suffix) ?? [];
      list.push(request);
      bySuffix.set(suffix, list);
    }
  }
  let anchors = [...byAnchor.keys()]
    .filter((anchorId) => options.suffixes.every((s) => byAnchor.get(anchorId)?.has(s)))
    .sort((a, b) => a - b);
  if (options.random) anchors = shuffle(anchors, options.random);

  const capacity = capacityIndex(snapshot);
  const granular = options.suffixes.filter((suffix) => suffix !== '').length;
  const iterators = anchors.map((anchorId) => {
    const bySuffix = byAnchor.get(anchorId) as Map<string, GroupRequest[]>;
    const lists = options.suffixes.map((suffix) => {
      const list = [...(bySuffix.get(suffix) as GroupRequest[])];
      return options.random ? shuffle(list, options.random) : list;
    });
    return product(lists);
  });

  const seen = new Set<string>();
  const out: Candidate[] = [];
  if (options.target <= 0) return out;
  for (const picks of roundRobin(iterators)) {
    if (!options.budget.take()) break;
    if (options.groupPolicy === 'isolate' && !isolated(picks, granular)) continue;
    if (!sameSubtreesHold(picks, options.sameSubtrees, snapshot)) continue;
    const candidate = consolidate(picks);
    if (exceedsCapacity(candidate, capacity)) continue;
    if (options.oneProviderPerTree && sharesATree(candidate, snapshot)) continue;
    const key = candidateKey(candidate);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(candidate);
    if (out.length >= options.target) break;
  }
  return out;
}

/** `isolate`: the granular groups are served by as many distinct providers as there are. */
function isolated(picks: readonly GroupRequest[], granular: number): boolean {
  const providers = new Set<number>();
  for (const pick of picks) {
    if (pick.useSameProvider) providers.add(pick.providers[0] as number);
  }
  return providers.size === granular;
}

function sameSubtreesHold(
  picks: readonly GroupRequest[],
  sameSubtrees: readonly ReadonlySet<string>[],
  snapshot: CandidateSnapshot,
): boolean {
  for (const suffixes of sameSubtrees) {
    const providers = new Set<number>();
    for (const pick of picks) {
      if (suffixes.has(pick.suffix)) for (const id of pick.providers) providers.add(id);
    }
    if (!inOneSubtree(providers, snapshot)) return false;
  }
  return true;
}

/** One of the providers is an ancestor-or-self of all the others. */
export function inOneSubtree(providers: ReadonlySet<number>, snapshot: CandidateSnapshot): boolean {
  if (providers.size <= 1) return true;
  let common: Set<number> | undefined;
  for (const id of providers) {
    const lineage = new Set<number>();
    for (let at: number | null = id; at !== null; ) {
      if (lineage.has(at)) break;
      lineage.add(at);
      at = snapshot.providers.get(at)?.parentId ?? null;
    }
    common = common === undefined ? lineage : new Set([...common].filter((x) => lineage.has(x)));
  }
  for (const id of providers) if (common?.has(id)) return true;
  return false;
}

/** Sums amounts of one provider and class; mappings keep each group's providers. */
function consolidate(picks: readonly GroupRequest[]): Candidate {
  // First-seen order of (provider, class), as a Map keyed by both would keep it.
  const allocations: Allocation[] = [];
  const mappings = new Map<string, readonly number[]>();
  for (const pick of picks) {
    for (const a of pick.allocations) {
      const at = allocations.findIndex(
        (prior) => prior.providerId === a.providerId && prior.classId === a.classId,
      );
      const prior = allocations[at];
      if (prior === undefined) allocations.push(a);
      else allocations[at] = { ...prior, amount: prior.amount + a.amount };
    }
    mappings.set(pick.suffix, pick.providers);
  }
  return { allocations, mappings };
}

/** Class id → provider id → its inventory, built on first use (no string keys). */
class CapacityIndex {
  readonly #snapshot: CandidateSnapshot;
  #byClass: Map<number, Map<number, InventoryCapacity>> | undefined;

  constructor(snapshot: CandidateSnapshot) {
    this.#snapshot = snapshot;
  }

  get(providerId: number, classId: number): InventoryCapacity | undefined {
    if (this.#byClass === undefined) {
      const byClass = new Map<number, Map<number, InventoryCapacity>>();
      // The last row of a provider and class wins, as in one map over all rows.
      for (const rows of this.#snapshot.inventories.values()) {
        for (const row of rows) {
          let byProvider = byClass.get(row.classId);
          if (byProvider === undefined) {
            byProvider = new Map();
            byClass.set(row.classId, byProvider);
          }
          byProvider.set(row.providerId, row);
        }
      }
      this.#byClass = byClass;
    }
    return this.#byClass.get(classId)?.get(providerId);
  }
}

function capacityIndex(snapshot: CandidateSnapshot): CapacityIndex {
  return new CapacityIndex(snapshot);
}

/** The summed amounts still fit (capacity rounded down as the summaries show it). */
function exceedsCapacity(candidate: Candidate, capacity: CapacityIndex): boolean {
  for (const a of candidate.allocations) {
    const row = capacity.get(a.providerId, a.classId);
    if (row === undefined) return true;
    if (row.used + a.amount > Math.trunc(row.capacity) || a.amount > row.maxUnit) return true;
  }
  return false;
}

function sharesATree(candidate: Candidate, snapshot: CandidateSnapshot): boolean {
  const providers = new Set(candidate.allocations.map((a) => a.providerId));
  const roots = new Set([...providers].map((id) => snapshot.providers.get(id)?.rootId ?? id));
  return roots.size !== providers.size;
}

function candidateKey(candidate: Candidate): string {
  const allocations = candidate.allocations
    .map((a) => `${a.providerId}:${a.classId}:${a.amount}`)
    .sort()
    .join(',');
  const mappings = [...candidate.mappings]
    .map(([suffix, ids]) => `${suffix}=${[...ids].sort((a, b) => a - b).join('.')}`)
    .sort()
    .join(';');
  return `${allocations}|${mappings}`;
}
