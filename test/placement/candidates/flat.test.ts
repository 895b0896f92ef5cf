/**
 * The flat shortcut: which requests it may answer, and that over flat providers it yields
 * exactly what the general search yields — same candidates, same order, same limited or
 * randomized subset, same bounds.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { flatCandidates, flatGroup } from '../../../src/placement/candidates/flat.ts';
import type {
  CandidateQuery,
  CandidateSnapshot,
  GroupQuery,
  InventoryCapacity,
  ProviderNode,
} from '../../../src/placement/candidates/model.ts';
import { searchCandidates } from '../../../src/placement/candidates/search.ts';

const group = (more: Partial<GroupQuery> = {}): GroupQuery => ({
  suffix: '',
  useSameProvider: false,
  resources: new Map([
    ['A', 2],
    ['B', 10],
  ]),
  requiredTraits: [],
  forbiddenTraits: new Set(),
  memberOf: [],
  forbiddenAggregates: new Set(),
  ...more,
});

const query = (more: Partial<CandidateQuery> = {}): CandidateQuery => ({
  groups: [group()],
  sameSubtrees: [],
  nestedAware: true,
  ...more,
});

interface Spec {
  a?: [capacity: number, used: number, maxUnit?: number];
  b?: [capacity: number, used: number];
  traits?: string[];
}

const TRAIT_IDS = new Map([
  ['FAST', 1],
  ['SLOW', 2],
  ['GOLD', 3],
]);

/** Flat providers 1..n; class A is id 1, class B id 2. */
function cloud(specs: Spec[]) {
  const providers = new Map<number, ProviderNode>();
  const inventories = new Map<number, InventoryCapacity[]>([
    [1, []],
    [2, []],
  ]);
  const providerTraits = new Map<number, Set<number>>();
  const facts = specs.map((spec, i) => {
    const id = i + 1;
    providers.set(id, { id, uuid: `p${id}`, rootId: id, parentId: null });
    const rows: { classId: number; capacity: number; used: number }[] = [];
    for (const [classId, inv] of [
      [1, spec.a],
      [2, spec.b],
    ] as const) {
      if (inv === undefined) continue;
      const [capacity, used, maxUnit] = inv;
      inventories.get(classId)?.push({
        providerId: id,
        classId,
        capacity,
        used,
        minUnit: 1,
        maxUnit: maxUnit ?? 1000,
        stepSize: 1,
      });
      rows.push({ classId, capacity, used });
    }
    const traits = spec.traits ?? [];
    if (traits.length > 0) {
      providerTraits.set(id, new Set(traits.map((name) => TRAIT_IDS.get(name) as number)));
    }
    return { id, inventories: rows, traits };
  });
  const snapshot: CandidateSnapshot = {
    hasTrees: false,
    sharing: new Set(),
    providers,
    classIds: new Map([
      ['A', 1],
      ['B', 2],
    ]),
    inventories,
    traitIds: TRAIT_IDS,
    providerTraits,
    aggregateMembers: new Map(),
    treeRoots: new Map(),
    sharingAnchors: new Map(),
  };
  return { snapshot, facts };
}

const SPECS: Spec[] = [
  { a: [8, 0], b: [100, 0], traits: ['FAST'] },
  { a: [8, 7], b: [100, 0] }, // A full for 2
  { a: [8, 6], b: [100, 90] }, // exactly fits
  { a: [8, 0] }, // no B
  { a: [2.5, 0.5], b: [100, 0] }, // 0.5 + 2 <= 2.5 but not <= trunc(2.5)
  { a: [8, 0], b: [100, 0], traits: ['SLOW'] },
  { a: [8, 0], b: [19.9, 0] }, // B fits once rounded down too
  { a: [8, 0], b: [100, 0], traits: ['FAST', 'GOLD'] },
];
const RESOURCES: [number, number][] = [
  [1, 2],
  [2, 10],
];

const generalIds = (q: CandidateQuery, options = {}) =>
  searchCandidates(q, cloud(SPECS).snapshot, options).candidates.map(
    (c) => c.allocations[0]?.providerId,
  );
const flatIds = (limit?: number, options = {}) =>
  flatCandidates(cloud(SPECS).facts, RESOURCES, { limit, ...options }).candidates.map((p) => p.id);

function seeded(start: number) {
  let seed = start;
  return () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
}

describe('flat shortcut', () => {
  it('takes only a single group of resources without other filters', () => {
    assert.ok(flatGroup(query()));
    assert.ok(flatGroup(query({ groups: [group({ suffix: '1', useSameProvider: true })] })));
    assert.ok(flatGroup(query({ limit: 3, groupPolicy: 'isolate', nestedAware: false })));
    assert.equal(flatGroup(query({ groups: [group(), group({ suffix: '1' })] })), undefined);
    assert.equal(flatGroup(query({ groups: [group({ resources: new Map() })] })), undefined);
    assert.ok(flatGroup(query({ groups: [group({ requiredTraits: [new Set(['T'])] })] })));
    assert.ok(flatGroup(query({ groups: [group({ forbiddenTraits: new Set(['T']) })] })));
    assert.equal(flatGroup(query({ groups: [group({ memberOf: [new Set(['a'])] })] })), undefined);
    assert.equal(
      flatGroup(query({ groups: [group({ forbiddenAggregates: new Set(['a']) })] })),
      undefined,
    );
    assert.equal(flatGroup(query({ groups: [group({ inTree: 'x' })] })), undefined);
    assert.equal(
      flatGroup(query({ rootRequired: { required: new Set(['T']), forbidden: new Set() } })),
      undefined,
    );
    assert.equal(flatGroup(query({ sameSubtrees: [new Set(['', '1'])] })), undefined);
  });

  it('yields what the general search yields over flat providers', () => {
    assert.deepEqual(flatIds(), [1, 3, 6, 7, 8]);
    assert.deepEqual(flatIds(), generalIds(query()));
    assert.deepEqual(flatIds(2), generalIds(query({ limit: 2 })));
    assert.deepEqual(flatIds(100), generalIds(query({ limit: 100 })));
  });

  it('filters by required (any-of) and forbidden traits as the general search', () => {
    const cases: Partial<GroupQuery>[] = [
      { requiredTraits: [new Set(['FAST'])] },
      { requiredTraits: [new Set(['FAST']), new Set(['GOLD'])] },
      { requiredTraits: [new Set(['GOLD', 'SLOW'])] },
      { forbiddenTraits: new Set(['FAST']) },
      { requiredTraits: [new Set(['FAST'])], forbiddenTraits: new Set(['GOLD']) },
    ];
    for (const filters of cases) {
      const flat = flatCandidates(cloud(SPECS).facts, RESOURCES, {
        requiredTraits: filters.requiredTraits,
        forbiddenTraits: filters.forbiddenTraits,
      }).candidates.map((p) => p.id);
      assert.deepEqual(flat, generalIds(query({ groups: [group(filters)] })), JSON.stringify(flat));
    }
    assert.deepEqual(
      flatCandidates(cloud(SPECS).facts, RESOURCES, {
        requiredTraits: [new Set(['FAST'])],
      }).candidates.map((p) => p.id),
      [1, 8],
    );
  });

  it('draws the same random order and subset from the same random source', () => {
    for (const seed of [1, 7, 12345]) {
      assert.deepEqual(
        flatIds(undefined, { random: seeded(seed) }),
        generalIds(query(), { random: seeded(seed) }),
      );
      assert.deepEqual(
        flatIds(2, { random: seeded(seed) }),
        generalIds(query({ limit: 2 }), { random: seeded(seed) }),
      );
    }
  });

  it('keeps the bounds: candidates capped and the work budget reported', () => {
    const bounds = { maxCandidates: 3, maxCombinations: 1_000, maxPerTree: 10 };
    const flat = flatCandidates(cloud(SPECS).facts, RESOURCES, { bounds });
    const general = searchCandidates(query(), cloud(SPECS).snapshot, { bounds });
    assert.deepEqual(
      flat.candidates.map((p) => p.id),
      general.candidates.map((c) => c.allocations[0]?.providerId),
    );
    assert.equal(flat.truncated, true);
    assert.equal(flat.truncated, general.truncated);
    const tight = { maxCandidates: 50, maxCombinations: 2, maxPerTree: 10 };
    const cut = flatCandidates(cloud(SPECS).facts, RESOURCES, { bounds: tight });
    assert.deepEqual(
      cut.candidates.map((p) => p.id),
      searchCandidates(query(), cloud(SPECS).snapshot, { bounds: tight }).candidates.map(
        (c) => c.allocations[0]?.providerId,
      ),
    );
    assert.equal(cut.truncated, true);
    const limited = flatCandidates(cloud(SPECS).facts, RESOURCES, { bounds, limit: 2 });
    assert.equal(limited.truncated, false);
  });
});
