/**
 * The pure candidate search: limit applied while generating, the work budget cutting an
 * explosive request off with valid candidates only, and randomized order.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type {
  CandidateQuery,
  CandidateSnapshot,
  InventoryCapacity,
  ProviderNode,
} from '../../../src/placement/candidates/model.ts';
import { searchCandidates } from '../../../src/placement/candidates/search.ts';

/** One root with `children` children, each with 10 of class 1 and of class 2. */
function snapshot(roots: number, children: number): CandidateSnapshot {
  const providers = new Map<number, ProviderNode>();
  const inv = new Map<number, InventoryCapacity[]>([
    [1, []],
    [2, []],
  ]);
  let id = 1;
  for (let r = 0; r < roots; r++) {
    const rootId = id++;
    providers.set(rootId, { id: rootId, uuid: `r${rootId}`, rootId, parentId: null });
    for (let c = 0; c < children; c++) {
      const childId = id++;
      providers.set(childId, { id: childId, uuid: `c${childId}`, rootId, parentId: rootId });
      for (const classId of [1, 2]) {
        inv.get(classId)?.push({
          providerId: childId,
          classId,
          capacity: 10,
          used: 0,
          minUnit: 1,
          maxUnit: 10,
          stepSize: 1,
        });
      }
    }
  }
  return {
    hasTrees: children > 0,
    sharing: new Set(),
    providers,
    classIds: new Map([
      ['A', 1],
      ['B', 2],
    ]),
    inventories: inv,
    traitIds: new Map(),
    providerTraits: new Map(),
    aggregateMembers: new Map(),
    treeRoots: new Map(),
    sharingAnchors: new Map(),
  };
}

const query = (limit?: number): CandidateQuery => ({
  groups: [
    {
      suffix: '',
      useSameProvider: false,
      resources: new Map([
        ['A', 1],
        ['B', 1],
      ]),
      requiredTraits: [],
      forbiddenTraits: new Set(),
      memberOf: [],
      forbiddenAggregates: new Set(),
    },
  ],
  limit,
  sameSubtrees: [],
  nestedAware: true,
});

describe('candidate search bounds', () => {
  it('stops at the limit and spreads it over trees', () => {
    const result = searchCandidates(query(3), snapshot(5, 4));
    assert.equal(result.candidates.length, 3);
    const roots = new Set(
      result.candidates.map((c) => Math.min(...c.allocations.map((a) => a.providerId))),
    );
    assert.equal(roots.size, 3);
  });

  it('finds every combination without a limit', () => {
    // 5 trees × 4 × 4 picks.
    assert.equal(searchCandidates(query(), snapshot(5, 4)).candidates.length, 80);
  });

  it('cuts an explosive request off with valid candidates and says so', () => {
    const result = searchCandidates(query(), snapshot(2, 40), {
      bounds: { maxCandidates: 50_000, maxCombinations: 500, maxPerTree: 100 },
    });
    assert.ok(result.truncated);
    assert.ok(result.candidates.length > 0 && result.candidates.length <= 200);
    for (const c of result.candidates) assert.equal(c.allocations.length, 2);
  });

  it('randomizes the order (and the limited subset) with a random source', () => {
    const plain = searchCandidates(query(), snapshot(6, 2)).candidates.map((c) =>
      JSON.stringify(c.allocations),
    );
    let seed = 7;
    // Park–Miller generator: a fixed seed keeps the test repeatable.
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    const shuffled = searchCandidates(query(), snapshot(6, 2), { random }).candidates.map((c) =>
      JSON.stringify(c.allocations),
    );
    assert.notDeepEqual(shuffled, plain);
    assert.deepEqual([...shuffled].sort(), [...plain].sort());
  });
});

/** Granular groups `1` and `2`, each `amount` of class A from one provider. */
const twoGranular = (amount: number, limit?: number): CandidateQuery => ({
  groups: ['1', '2'].map((suffix) => ({
    suffix,
    useSameProvider: true,
    resources: new Map([['A', amount]]),
    requiredTraits: [],
    forbiddenTraits: new Set<string>(),
    memberOf: [],
    forbiddenAggregates: new Set<string>(),
  })),
  limit,
  groupPolicy: 'none',
  sameSubtrees: [],
  nestedAware: true,
});

describe('candidate merge', () => {
  it('sums two groups on one provider into one allocation, kept while it fits', () => {
    const fits = searchCandidates(twoGranular(4), snapshot(1, 2)).candidates;
    // Children 2 and 3: both groups on 2, 2 then 3, 3 then 2, both on 3.
    assert.deepEqual(
      fits.map((c) => c.allocations.map((a) => [a.providerId, a.amount])),
      [
        [[2, 8]],
        [
          [2, 4],
          [3, 4],
        ],
        [
          [3, 4],
          [2, 4],
        ],
        [[3, 8]],
      ],
    );
    assert.deepEqual(
      fits.map((c) => [...c.mappings]),
      [
        [
          ['1', [2]],
          ['2', [2]],
        ],
        [
          ['1', [2]],
          ['2', [3]],
        ],
        [
          ['1', [3]],
          ['2', [2]],
        ],
        [
          ['1', [3]],
          ['2', [3]],
        ],
      ],
    );
    // 6 + 6 is past a capacity of 10: only the picks of two providers remain.
    const over = searchCandidates(twoGranular(6), snapshot(1, 2)).candidates;
    assert.deepEqual(
      over.map((c) => c.allocations.map((a) => [a.providerId, a.amount])),
      [
        [
          [2, 6],
          [3, 6],
        ],
        [
          [3, 6],
          [2, 6],
        ],
      ],
    );
  });

  it('answers a limit with the first candidates of the unlimited answer (nested trees)', () => {
    const all = searchCandidates(query(), snapshot(7, 3)).candidates;
    for (const limit of [1, 5, 7, 8, 20, 63, 100]) {
      const limited = searchCandidates(query(limit), snapshot(7, 3)).candidates;
      assert.deepEqual(limited, all.slice(0, limit));
    }
    const granular = searchCandidates(twoGranular(4), snapshot(4, 3)).candidates;
    for (const limit of [1, 4, 5, 30]) {
      assert.deepEqual(
        searchCandidates(twoGranular(4, limit), snapshot(4, 3)).candidates,
        granular.slice(0, limit),
      );
    }
  });
});
