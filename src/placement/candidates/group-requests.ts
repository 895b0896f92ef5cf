/**
 * The ways one request group can be served, anchored at tree roots. A granular group (or any
 * group where no tree or sharing provider exists) takes everything from one provider; the
 * unsuffixed group may spread its classes over one tree and the sharing providers whose
 * aggregates reach it, as the reference's RequestGroupSearchContext does.
 */
import { product, type WorkBudget } from './combinations.ts';
import type { Allocation, CandidateSnapshot, GroupRequest, InventoryCapacity } from './model.ts';

/** A group with its names resolved to ids and its per-class provider lists computed. */
export interface ResolvedGroup {
  readonly suffix: string;
  readonly useSameProvider: boolean;
  /** [class id, amount] in request order. */
  readonly resources: readonly (readonly [number, number])[];
  readonly requiredTraits: readonly ReadonlySet<number>[];
  readonly forbiddenTraits: ReadonlySet<number>;
  /** Providers in the `member_of` aggregates (undefined: no member_of). */
  readonly inAggregates?: ReadonlySet<number>;
  /** Providers in any forbidden aggregate. */
  readonly inForbiddenAggregates: ReadonlySet<number>;
  readonly treeRootId?: number;
  /** Class id → providers with room for the amount (within `in_tree` when given). */
  readonly withResource: ReadonlyMap<number, readonly number[]>;
}

/** Room for `amount`: capacity, min/max unit and step size, as the reference's filter. */
export function fits(inventory: InventoryCapacity, amount: number): boolean {
  return (
    inventory.used + amount <= inventory.capacity &&
    inventory.minUnit <= amount &&
    inventory.maxUnit >= amount &&
    amount % inventory.stepSize === 0
  );
}

export interface GroupContext {
  readonly snapshot: CandidateSnapshot;
  readonly budget: WorkBudget;
  readonly maxPerTree: number;
  /** Whether a root may anchor a candidate (`root_required`). */
  readonly anchorAllowed: (rootId: number) => boolean;
}

function rootOf(snapshot: CandidateSnapshot, providerId: number): number {
  return snapshot.providers.get(providerId)?.rootId ?? providerId;
}

function hasAll(traits: ReadonlySet<number> | undefined, required: readonly ReadonlySet<number>[]) {
  return required.every((anyOf) => [...anyOf].some((trait) => traits?.has(trait) === true));
}

function hasAny(traits: ReadonlySet<number> | undefined, forbidden: ReadonlySet<number>) {
  if (traits === undefined || forbidden.size === 0) return false;
  for (const trait of forbidden) if (traits.has(trait)) return true;
  return false;
}

/** Providers that carry any of the forbidden traits or sit in a forbidden aggregate. */
function forbiddenProviders(group: ResolvedGroup, snapshot: CandidateSnapshot): Set<number> {
  const out = new Set(group.inForbiddenAggregates);
  if (group.forbiddenTraits.size > 0) {
    for (const [providerId, traits] of snapshot.providerTraits) {
      if (hasAny(traits, group.forbiddenTraits)) out.add(providerId);
    }
  }
  return out;
}

/**
 * Each provider that alone meets the whole group; a sharing one is offered once more for
 * every tree its aggregates reach.
 */
export function singleProviderRequests(group: ResolvedGroup, ctx: GroupContext): GroupRequest[] {
  const { snapshot } = ctx;
  // undefined: no filter applied yet (every provider passes).
  let filtered: Set<number> | undefined;
  if (group.requiredTraits.length > 0) {
    filtered = new Set();
    for (const [providerId, traits] of snapshot.providerTraits) {
      if (hasAll(traits, group.requiredTraits)) filtered.add(providerId);
    }
    if (filtered.size === 0) return [];
  }
  if (group.inAggregates !== undefined) {
    const inAggs = group.inAggregates;
    filtered = filtered === undefined ? new Set(inAggs) : intersect(filtered, inAggs);
    if (filtered.size === 0) return [];
  }
  const forbidden = forbiddenProviders(group, snapshot);
  if (filtered !== undefined) {
    for (const id of forbidden) filtered.delete(id);
    if (filtered.size === 0) return [];
  }
  for (const [classId] of group.resources) {
    const able = group.withResource.get(classId) ?? [];
    if (filtered === undefined) {
      filtered = new Set(able);
      for (const id of forbidden) filtered.delete(id);
    } else {
      filtered = intersect(filtered, new Set(able));
    }
    if (filtered.size === 0) return [];
  }
  // A group without resources and without filters matches nothing, as in the reference.
  if (filtered === undefined) return [];

  const out: GroupRequest[] = [];
  for (const providerId of [...filtered].sort((a, b) => a - b)) {
    const allocations = group.resources.map(([classId, amount]) => ({
      providerId,
      classId,
      amount,
    }));
    const rootId = rootOf(snapshot, providerId);
    const base = {
      suffix: group.suffix,
      useSameProvider: group.useSameProvider,
      allocations,
      providers: [providerId],
    };
    if (ctx.anchorAllowed(rootId)) out.push({ ...base, anchorId: rootId });
    if (snapshot.sharing.has(providerId)) {
      for (const anchorId of snapshot.sharingAnchors.get(providerId) ?? []) {
        if (anchorId === rootId || !ctx.anchorAllowed(anchorId)) continue;
        out.push({ ...base, anchorId });
      }
    }
  }
  return out;
}

function intersect<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): Set<T> {
  const out = new Set<T>();
  for (const x of a) if (b.has(x)) out.add(x);
  return out;
}

/**
 * Trees (and the sharing providers reaching them) that together meet the whole group:
 * for each tree, every pick of one provider per class whose traits, taken together, hold.
 */
export function treeRequests(group: ResolvedGroup, ctx: GroupContext): GroupRequest[] {
  const { snapshot } = ctx;
  // Root → class id → providers, narrowed class by class to trees able to serve them all.
  let trees: Map<number, Map<number, number[]>> | undefined;
  const inAggs = group.inAggregates;
  const bad = group.inForbiddenAggregates;
  for (const [classId] of group.resources) {
    // Root → this class's providers there, in first-seen order; a pair is kept once.
    const forClass = new Map<number, number[]>();
    let kept = 0;
    const add = (providerId: number, rootId: number) => {
      if (!ctx.anchorAllowed(rootId)) return;
      // An aggregate on the root spans its whole tree.
      if (inAggs !== undefined && !inAggs.has(providerId) && !inAggs.has(rootId)) return;
      if (bad.size > 0 && (bad.has(providerId) || bad.has(rootId))) return;
      const list = forClass.get(rootId);
      if (list === undefined) {
        forClass.set(rootId, [providerId]);
      } else {
        if (list.includes(providerId)) return;
        list.push(providerId);
      }
      kept++;
    };
    const able = group.withResource.get(classId) ?? [];
    for (const providerId of able) add(providerId, rootOf(snapshot, providerId));
    if (group.treeRootId === undefined && snapshot.sharing.size > 0) {
      for (const providerId of able) {
        if (!snapshot.sharing.has(providerId)) continue;
        if (inAggs !== undefined && !inAggs.has(providerId)) continue;
        for (const anchorId of snapshot.sharingAnchors.get(providerId) ?? []) {
          add(providerId, anchorId);
        }
      }
    }
    if (kept === 0) return [];
    if (trees === undefined) {
      trees = new Map();
      for (const [rootId, list] of forClass) trees.set(rootId, new Map([[classId, list]]));
    } else {
      const merged = new Map<number, Map<number, number[]>>();
      for (const [rootId, byClass] of trees) {
        const more = forClass.get(rootId);
        if (more === undefined) continue;
        byClass.set(classId, more);
        merged.set(rootId, byClass);
      }
      trees = merged;
    }
    if (trees.size === 0) return [];
  }
  if (trees === undefined) return [];

  const amounts = new Map(group.resources);
  // Without required or forbidden traits every pick holds (traitsHold would say so).
  const anyTraitRule = group.requiredTraits.length > 0 || group.forbiddenTraits.size > 0;
  const out: GroupRequest[] = [];
  for (const rootId of [...trees.keys()].sort((a, b) => a - b)) {
    const byClass = trees.get(rootId) as Map<number, number[]>;
    const classIds = [...byClass.keys()].sort((a, b) => a - b);
    const classAmounts = classIds.map((classId) => amounts.get(classId) as number);
    const lists = classIds.map((classId) =>
      (byClass.get(classId) as number[]).sort((a, b) => a - b),
    );
    let inTree = 0;
    for (const pick of product(lists)) {
      if (inTree >= ctx.maxPerTree) {
        ctx.budget.cut();
        break;
      }
      if (!ctx.budget.take()) break;
      if (anyTraitRule && !traitsHold(pick, group, snapshot)) continue;
      const allocations: Allocation[] = [];
      for (let i = 0; i < pick.length; i++) {
        allocations.push({
          providerId: pick[i] as number,
          classId: classIds[i] as number,
          amount: classAmounts[i] as number,
        });
      }
      out.push({
        suffix: group.suffix,
        anchorId: rootId,
        useSameProvider: group.useSameProvider,
        allocations,
        providers: distinctSorted(pick),
      });
      inTree++;
    }
  }
  return out;
}

/** The distinct ids of `ids`, ascending (as `[...new Set(ids)].sort(numeric)`). */
function distinctSorted(ids: readonly number[]): number[] {
  const out: number[] = [];
  for (const id of ids) if (!out.includes(id)) out.push(id);
  return out.sort((a, b) => a - b);
}

/** The picked providers together have the required traits and none has a forbidden one. */
function traitsHold(
  pick: readonly number[],
  group: ResolvedGroup,
  snapshot: CandidateSnapshot,
): boolean {
  const all = new Set<number>();
  for (const providerId of pick) {
    const traits = snapshot.providerTraits.get(providerId);
    if (hasAny(traits, group.forbiddenTraits)) return false;
    for (const trait of traits ?? []) all.add(trait);
  }
  return hasAll(all, group.requiredTraits);
}
