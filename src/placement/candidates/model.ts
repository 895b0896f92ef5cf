/**
 * The allocation-candidates search as plain data: the parsed request (names, as the client
 * wrote them), the database facts it needs (ids, loaded in a few set-based queries), and
 * the candidates it yields. Everything here is free of I/O.
 */

/** One request group: `resources<suffix>`, `required<suffix>`, `member_of<suffix>`, `in_tree<suffix>`. */
export interface GroupQuery {
  readonly suffix: string;
  /** Granular (suffixed) groups must be satisfied by one provider. */
  readonly useSameProvider: boolean;
  /** Class name → amount, in request order. */
  readonly resources: ReadonlyMap<string, number>;
  /** Each set: at least one of its traits; every set must hold. */
  readonly requiredTraits: readonly ReadonlySet<string>[];
  readonly forbiddenTraits: ReadonlySet<string>;
  /** Each set: member of at least one of its aggregates; every set must hold. */
  readonly memberOf: readonly ReadonlySet<string>[];
  readonly forbiddenAggregates: ReadonlySet<string>;
  readonly inTree?: string;
}

export interface CandidateQuery {
  /** In the order their suffixes first appear in the query string. */
  readonly groups: readonly GroupQuery[];
  readonly limit?: number;
  readonly groupPolicy?: 'none' | 'isolate';
  /** `root_required` (1.35): traits the anchor (root) must have / must not have. */
  readonly rootRequired?: {
    readonly required: ReadonlySet<string>;
    readonly forbidden: ReadonlySet<string>;
  };
  /** `same_subtree` (1.36): sets of suffixes whose providers share one subtree. */
  readonly sameSubtrees: readonly ReadonlySet<string>[];
  /** From 1.29; before, one candidate never takes two providers of one tree. */
  readonly nestedAware: boolean;
}

export interface ProviderNode {
  readonly id: number;
  readonly uuid: string;
  readonly rootId: number;
  readonly parentId: number | null;
}

/** An inventory of a requested class, with what is used of it. */
export interface InventoryCapacity {
  readonly providerId: number;
  readonly classId: number;
  /** (total - reserved) * allocation_ratio, unrounded: the filter compares with it. */
  readonly capacity: number;
  readonly used: number;
  readonly minUnit: number;
  readonly maxUnit: number;
  readonly stepSize: number;
}

/** What the search needs from the database, loaded before it runs. */
export interface CandidateSnapshot {
  /** Whether any provider at all has a parent. */
  readonly hasTrees: boolean;
  /** Providers with MISC_SHARES_VIA_AGGREGATE. */
  readonly sharing: ReadonlySet<number>;
  /** Every provider met in the rows below (and, for same_subtree, their whole trees). */
  readonly providers: ReadonlyMap<number, ProviderNode>;
  /** Class name → id; undefined for a name that is no resource class. */
  readonly classIds: ReadonlyMap<string, number | undefined>;
  /** Inventories of the requested classes, by class id. */
  readonly inventories: ReadonlyMap<number, readonly InventoryCapacity[]>;
  /** Known trait names → ids (unknown requested names are absent). */
  readonly traitIds: ReadonlyMap<string, number>;
  /** Provider → which of the requested traits it has. */
  readonly providerTraits: ReadonlyMap<number, ReadonlySet<number>>;
  /** Aggregate uuid → providers in it (requested aggregates only). */
  readonly aggregateMembers: ReadonlyMap<string, ReadonlySet<number>>;
  /** `in_tree` uuid → the root of its tree (absent: no such provider). */
  readonly treeRoots: ReadonlyMap<string, number>;
  /** Roots satisfying `root_required` (undefined when not asked or a trait is unknown). */
  readonly anchorRoots?: ReadonlySet<number>;
  /** Sharing provider → roots of every tree sharing one of its aggregates. */
  readonly sharingAnchors: ReadonlyMap<number, ReadonlySet<number>>;
}

export interface Allocation {
  readonly providerId: number;
  readonly classId: number;
  readonly amount: number;
}

/** One group's way of being satisfied, anchored at a tree's root. */
export interface GroupRequest {
  readonly suffix: string;
  readonly anchorId: number;
  readonly useSameProvider: boolean;
  readonly allocations: readonly Allocation[];
  /** The providers serving this group (for `mappings`). */
  readonly providers: readonly number[];
}

/** A full answer: every group served, amounts of one provider and class summed. */
export interface Candidate {
  readonly allocations: readonly Allocation[];
  /** Suffix → providers, in group order. */
  readonly mappings: ReadonlyMap<string, readonly number[]>;
}

export class UnknownResourceClassError extends Error {
  override name = 'UnknownResourceClassError';
  constructor(className: string) {
    super(`No such resource class ${className}.`);
  }
}

export class UnknownTraitError extends Error {
  override name = 'UnknownTraitError';
  constructor(traitName: string) {
    super(`No such trait(s): ${traitName}.`);
  }
}

/** Bounds that keep one request's work finite whatever the cloud looks like. */
export interface SearchBounds {
  /** Candidates returned at most when no (smaller) `limit` is given. */
  readonly maxCandidates: number;
  /** Combinations examined at most, across all groups and the merge. */
  readonly maxCombinations: number;
  /** Ways one group may be served inside one tree, at most. */
  readonly maxPerTree: number;
}

export const DEFAULT_BOUNDS: SearchBounds = {
  maxCandidates: 50_000,
  maxCombinations: 500_000,
  maxPerTree: 1_000,
};
