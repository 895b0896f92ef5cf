/**
 * The common request — one group of resources, maybe with required or forbidden traits,
 * nothing else — over providers that are neither nested nor sharing: each provider able to serve the whole group is one candidate,
 * anchored at itself. This is exactly what the general search yields there (one answer per
 * anchor, anchors in id order or shuffled), without its per-group and merge machinery.
 * `limit` and the bounds apply the same way: at most `min(limit, maxCandidates)` are taken.
 */

import { shuffle } from './combinations.ts';
import {
  type CandidateQuery,
  DEFAULT_BOUNDS,
  type GroupQuery,
  type SearchBounds,
} from './model.ts';

/** The request's only group when the flat shortcut may answer it, else undefined. */
export function flatGroup(query: CandidateQuery): GroupQuery | undefined {
  if (query.groups.length !== 1 || query.rootRequired !== undefined) return undefined;
  if (query.sameSubtrees.length > 0) return undefined;
  const group = query.groups[0] as GroupQuery;
  const plain =
    group.resources.size > 0 &&
    group.memberOf.length === 0 &&
    group.forbiddenAggregates.size === 0 &&
    group.inTree === undefined;
  return plain ? group : undefined;
}

export interface FlatInventoryFacts {
  readonly classId: number;
  /** (total - reserved) * allocation_ratio, unrounded. */
  readonly capacity: number;
  readonly used: number;
}

export interface FlatProviderFacts {
  readonly id: number;
  readonly inventories: readonly FlatInventoryFacts[];
  /** Its trait names (needed when the group filters by traits). */
  readonly traits: readonly string[];
}

export interface FlatOptions {
  /** Each set: at least one of its traits; every set must hold. */
  readonly requiredTraits?: readonly ReadonlySet<string>[];
  readonly forbiddenTraits?: ReadonlySet<string>;
  readonly limit?: number;
  readonly bounds?: SearchBounds;
  readonly random?: () => number;
}

/** The capacity of a class, or undefined when the provider has no such inventory. */
function inventoryOf(provider: FlatProviderFacts, classId: number): FlatInventoryFacts | undefined {
  for (const inv of provider.inventories) if (inv.classId === classId) return inv;
  return undefined;
}

/** Room for every amount against the unrounded capacity (the search's per-group check). */
function fitsAll(provider: FlatProviderFacts, resources: readonly (readonly [number, number])[]) {
  for (const [classId, amount] of resources) {
    const inv = inventoryOf(provider, classId);
    if (inv === undefined || inv.used + amount > inv.capacity) return false;
  }
  return true;
}

/** Room against the capacity rounded down (the merge's check, as summaries show it). */
function fitsRounded(
  provider: FlatProviderFacts,
  resources: readonly (readonly [number, number])[],
) {
  for (const [classId, amount] of resources) {
    const inv = inventoryOf(provider, classId);
    if (inv === undefined || inv.used + amount > Math.trunc(inv.capacity)) return false;
  }
  return true;
}

/**
 * The candidates, in answer order: providers (given in id order) with room for every
 * `[class id, amount]`, shuffled when `random` is given, cut at the limit — step by step as
 * the general search does it (same random draws, same work budget), minus its machinery.
 */
export function flatCandidates<P extends FlatProviderFacts>(
  providers: readonly P[],
  resources: readonly (readonly [number, number])[],
  options: FlatOptions = {},
): { candidates: P[]; truncated: boolean } {
  const bounds = options.bounds ?? DEFAULT_BOUNDS;
  const target = Math.min(options.limit ?? bounds.maxCandidates, bounds.maxCandidates);
  const required = options.requiredTraits ?? [];
  const forbidden = options.forbiddenTraits ?? new Set<string>();
  const traitsHold = (p: P) =>
    (required.length === 0 && forbidden.size === 0) ||
    (required.every((anyOf) => p.traits.some((t) => anyOf.has(t))) &&
      !p.traits.some((t) => forbidden.has(t)));
  let able = providers.filter((p) => fitsAll(p, resources) && traitsHold(p));
  if (options.random) able = shuffle(able, options.random);
  const candidates: P[] = [];
  let budget = bounds.maxCombinations;
  let exhausted = false;
  if (target > 0) {
    for (const provider of able) {
      // Each candidate examined costs one unit of the work budget, as in the merge.
      if (budget <= 0) {
        exhausted = true;
        break;
      }
      budget--;
      if (!fitsRounded(provider, resources)) continue;
      candidates.push(provider);
      if (candidates.length >= target) break;
    }
  }
  const capped =
    candidates.length >= bounds.maxCandidates && (options.limit ?? Infinity) > bounds.maxCandidates;
  return { candidates, truncated: exhausted || capped };
}
