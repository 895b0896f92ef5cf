/**
 * GET /allocation_candidates over provider trees and sharing providers: resources spread over
 * a tree (from 1.29), granular groups with group_policy, same_subtree with resourceless
 * groups, root_required, in_tree, and sharing through aggregates, on the three backends.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { Scenario } from '../support/candidate-fixtures.ts';
import { forEachPlacementBackend, uuid } from '../support/placement-api.ts';

forEachPlacementBackend('allocation candidates: trees', (ctx) => {
  // cn1 ─┬─ numa0 (CPU, MEM; NUMA) ── pf0 (VF; PHYS1)
  //      └─ numa1 (CPU, MEM; NUMA) ── pf1 (VF; PHYS2)        cn1: DISK, ROOTY
  // cn2 (CPU, MEM, DISK), flat
  const s = new Scenario(ctx);
  before(async () => {
    await s.classes('CPU', 'MEM', 'VF', 'DISK');
    await s.traits('NUMA', 'PHYS1', 'PHYS2', 'ROOTY');
    await s.provider('cn1', { inventory: { DISK: 100 }, traits: ['ROOTY'] });
    await s.provider('numa0', {
      parent: 'cn1',
      inventory: { CPU: 4, MEM: 2048 },
      traits: ['NUMA'],
    });
    await s.provider('pf0', { parent: 'numa0', inventory: { VF: 8 }, traits: ['PHYS1'] });
    await s.provider('numa1', {
      parent: 'cn1',
      inventory: { CPU: 4, MEM: 2048 },
      traits: ['NUMA'],
    });
    await s.provider('pf1', { parent: 'numa1', inventory: { VF: 8 }, traits: ['PHYS2'] });
    await s.provider('cn2', { inventory: { CPU: 8, MEM: 4096, DISK: 100 } });
  });

  describe('nested providers', () => {
    it('spreads one group over a tree from 1.29, with the whole tree summarized', async () => {
      let response = await s.candidates('resources={CPU}:1', '1.29');
      assert.deepEqual(s.requests(response.body), ['cn2:CPU=1', 'numa0:CPU=1', 'numa1:CPU=1']);
      assert.deepEqual(s.summaryNames(response.body), [
        'cn1',
        'cn2',
        'numa0',
        'numa1',
        'pf0',
        'pf1',
      ]);
      const pf0 = response.body.provider_summaries[s.uuid('pf0')];
      assert.equal(pf0.parent_provider_uuid, s.uuid('numa0'));
      assert.equal(pf0.root_provider_uuid, s.uuid('cn1'));
      response = await s.candidates('resources={CPU}:1,{VF}:1', '1.29');
      assert.deepEqual(s.requests(response.body), [
        'numa0:CPU=1 + pf0:VF=1',
        'numa0:CPU=1 + pf1:VF=1',
        'numa1:CPU=1 + pf0:VF=1',
        'numa1:CPU=1 + pf1:VF=1',
      ]);
      response = await s.candidates('resources={CPU}:1,{DISK}:10', '1.34');
      assert.deepEqual(s.requests(response.body), [
        'cn1:DISK=10 + numa0:CPU=1 | =cn1,numa0',
        'cn1:DISK=10 + numa1:CPU=1 | =cn1,numa1',
        'cn2:CPU=1 + cn2:DISK=10 | =cn2',
      ]);
    });

    it('never uses two providers of one tree before 1.29, and summarizes only those used', async () => {
      let response = await s.candidates('resources={CPU}:1,{VF}:1', '1.28');
      assert.deepEqual(response.body, { allocation_requests: [], provider_summaries: {} });
      response = await s.candidates('resources={CPU}:1', '1.28');
      assert.deepEqual(s.requests(response.body), ['cn2:CPU=1', 'numa0:CPU=1', 'numa1:CPU=1']);
      assert.deepEqual(s.summaryNames(response.body), ['cn2', 'numa0', 'numa1']);
    });

    it('checks required traits on the providers used, together', async () => {
      let response = await s.candidates('resources={CPU}:1,{VF}:1&required={PHYS2}', '1.29');
      assert.deepEqual(s.requests(response.body), [
        'numa0:CPU=1 + pf1:VF=1',
        'numa1:CPU=1 + pf1:VF=1',
      ]);
      response = await s.candidates('resources={CPU}:1,{VF}:1&required=!{PHYS2}', '1.29');
      assert.deepEqual(s.requests(response.body), [
        'numa0:CPU=1 + pf0:VF=1',
        'numa1:CPU=1 + pf0:VF=1',
      ]);
      response = await s.candidates(
        'resources={CPU}:1,{VF}:1&required=in:{PHYS1},{PHYS2}&required={NUMA}',
        '1.39',
      );
      assert.equal(response.body.allocation_requests.length, 4);
      // A trait on the root does not count when the root serves nothing.
      response = await s.candidates('resources={CPU}:1&required={ROOTY}', '1.29');
      assert.deepEqual(response.body.allocation_requests, []);
    });
  });

  describe('granular groups', () => {
    it('needs group_policy with two granular groups (from 1.25)', async () => {
      const response = await s.candidates('resources1={VF}:1&resources2={VF}:1', '1.25');
      assert.equal(response.status, 400);
      assert.match(response.body.errors[0].detail, /The "group_policy" parameter is required/);
      const old = await s.candidates('resources1={VF}:1', '1.24');
      assert.equal(old.status, 400);
    });

    it('isolates groups on distinct providers, or not', async () => {
      let response = await s.candidates(
        'resources1={VF}:1&resources2={VF}:1&group_policy=isolate',
        '1.34',
      );
      assert.deepEqual(s.requests(response.body), [
        'pf0:VF=1 + pf1:VF=1 | 1=pf0 2=pf1',
        'pf0:VF=1 + pf1:VF=1 | 1=pf1 2=pf0',
      ]);
      response = await s.candidates(
        'resources1={VF}:1&resources2={VF}:1&group_policy=none',
        '1.34',
      );
      assert.deepEqual(s.requests(response.body), [
        'pf0:VF=1 + pf1:VF=1 | 1=pf0 2=pf1',
        'pf0:VF=1 + pf1:VF=1 | 1=pf1 2=pf0',
        'pf0:VF=2 | 1=pf0 2=pf0',
        'pf1:VF=2 | 1=pf1 2=pf1',
      ]);
    });

    it('takes each granular group from one provider, with its own traits', async () => {
      const response = await s.candidates(
        'resources={DISK}:1&resources1={CPU}:1,{MEM}:100&resources2={VF}:2&required2={PHYS1}&group_policy=isolate',
        '1.34',
      );
      assert.deepEqual(s.requests(response.body), [
        'cn1:DISK=1 + numa0:CPU=1 + numa0:MEM=100 + pf0:VF=2 | 1=numa0 2=pf0 =cn1',
        'cn1:DISK=1 + numa1:CPU=1 + numa1:MEM=100 + pf0:VF=2 | 1=numa1 2=pf0 =cn1',
      ]);
    });

    it('sums a class asked by two groups of one provider against its capacity', async () => {
      const query = 'resources1={VF}:5&resources2={VF}:5&group_policy=none';
      const response = await s.candidates(query, '1.34');
      assert.deepEqual(s.requests(response.body), [
        'pf0:VF=5 + pf1:VF=5 | 1=pf0 2=pf1',
        'pf0:VF=5 + pf1:VF=5 | 1=pf1 2=pf0',
      ]);
      // Before 1.29 two providers of one tree never make a candidate.
      const old = await s.candidates(query, '1.28');
      assert.deepEqual(old.body.allocation_requests, []);
    });

    it('accepts named suffixes from 1.33 and refuses orphans before 1.36', async () => {
      let response = await s.candidates('resources_A={CPU}:1', '1.32');
      assert.equal(response.status, 400);
      response = await s.candidates('resources_A={CPU}:1', '1.34');
      assert.deepEqual(s.requests(response.body), [
        'cn2:CPU=1 | _A=cn2',
        'numa0:CPU=1 | _A=numa0',
        'numa1:CPU=1 | _A=numa1',
      ]);
      response = await s.candidates('resources={CPU}:1&required1={NUMA}', '1.25');
      assert.equal(response.status, 400);
      assert.match(
        response.body.errors[0].detail,
        /All traits parameters must be associated with resources. {2}Found the following orphaned traits keys: required1/,
      );
      response = await s.candidates(`resources={CPU}:1&member_of1=${uuid()}`, '1.25');
      assert.match(
        response.body.errors[0].detail,
        /All member_of parameters must be associated with resources. Found the following orphaned member_of keys: member_of1/,
      );
      response = await s.candidates(`resources={CPU}:1&in_tree1=${s.uuid('cn1')}`, '1.31');
      assert.match(response.body.errors[0].detail, /All request groups must specify resources\./);
    });
  });

  describe('same_subtree (1.36)', () => {
    it('keeps groups under one provider of theirs', async () => {
      let response = await s.candidates(
        'resources_C={CPU}:1&resources_V={VF}:1&group_policy=none&same_subtree=_C,_V',
        '1.36',
      );
      assert.deepEqual(s.requests(response.body), [
        'numa0:CPU=1 + pf0:VF=1 | _C=numa0 _V=pf0',
        'numa1:CPU=1 + pf1:VF=1 | _C=numa1 _V=pf1',
      ]);
      response = await s.candidates(
        'resources_C={CPU}:1&resources_V={VF}:1&group_policy=none&same_subtree=_C,_V',
        '1.35',
      );
      assert.equal(response.status, 400);
    });

    it('lets a resourceless group pick a provider by traits', async () => {
      const response = await s.candidates(
        'resources_V={VF}:1&required_N={NUMA}&group_policy=none&same_subtree=_V,_N',
        '1.36',
      );
      assert.deepEqual(s.requests(response.body), [
        'pf0:VF=1 | _N=numa0 _V=pf0',
        'pf1:VF=1 | _N=numa1 _V=pf1',
      ]);
      assert.deepEqual(s.summaryNames(response.body), ['cn1', 'numa0', 'numa1', 'pf0', 'pf1']);
    });

    it('refuses bad suffix sets in the reference words', async () => {
      const detail = async (query: string) =>
        (await s.candidates(query, '1.36')).body.errors[0] as { detail: string; code: string };
      let error = await detail('resources_V={VF}:1&required_N={NUMA}&group_policy=none');
      assert.match(
        error.detail,
        /Resourceless suffixed group request should be specified in `same_subtree` query param: bad group\(s\) - \['_N'\]\./,
      );
      assert.equal(error.code, 'placement.query.bad_value');
      error = await detail(
        'resources_V={VF}:1&required_N={NUMA}&group_policy=none&same_subtree=_V,_N,_X',
      );
      assert.match(
        error.detail,
        /Real suffixes should be specified in `same_subtree`: \['_X'\] not found in \['_V', '_N'\]\./,
      );
      error = await detail('resources_V={VF}:1&same_subtree=,_V');
      assert.match(
        error.detail,
        /Empty string \(unsuffixed group\) can not be specified in `same_subtree`/,
      );
      error = await detail('required_N={NUMA}&same_subtree=_N');
      assert.match(
        error.detail,
        /There must be at least one resources or resources\[\$S\] parameter\./,
      );
      assert.equal(error.code, 'placement.query.missing_value');
    });
  });

  describe('root_required (1.35)', () => {
    it('filters candidates by their root traits', async () => {
      let response = await s.candidates('resources={CPU}:1&root_required={ROOTY}', '1.35');
      assert.deepEqual(s.requests(response.body), ['numa0:CPU=1 | =numa0', 'numa1:CPU=1 | =numa1']);
      response = await s.candidates('resources={CPU}:1&root_required=!{ROOTY}', '1.35');
      assert.deepEqual(s.requests(response.body), ['cn2:CPU=1 | =cn2']);
      response = await s.candidates('resources={CPU}:1&root_required={ROOTY}', '1.34');
      assert.equal(response.status, 400);
    });

    it('refuses duplicates, any-traits, conflicts and unknown traits', async () => {
      let response = await s.candidates(
        'resources={CPU}:1&root_required={ROOTY}&root_required={NUMA}',
        '1.35',
      );
      assert.equal(response.status, 400);
      assert.equal(response.body.errors[0].code, 'placement.query.duplicate_key');
      assert.match(
        response.body.errors[0].detail,
        /Query parameter 'root_required' may be specified only once\./,
      );
      response = await s.candidates('resources={CPU}:1&root_required=in:{ROOTY}', '1.39');
      assert.match(response.body.errors[0].detail, /only supported since microversion 1.39/);
      response = await s.candidates('resources={CPU}:1&root_required={ROOTY},!{ROOTY}', '1.35');
      assert.match(
        response.body.errors[0].detail,
        new RegExp(
          `Conflicting required and forbidden traits found in root_required: ${s.n('ROOTY')}`,
        ),
      );
      response = await s.candidates('resources={CPU}:1&root_required=CUSTOM_NOPE_ROOT', '1.35');
      assert.match(response.body.errors[0].detail, /No such trait\(s\): CUSTOM_NOPE_ROOT\./);
    });
  });

  describe('in_tree (1.31)', () => {
    it('restricts groups to one tree', async () => {
      let response = await s.candidates('resources={CPU}:1&in_tree={@pf0}', '1.31');
      assert.deepEqual(s.requests(response.body), ['numa0:CPU=1', 'numa1:CPU=1']);
      response = await s.candidates('resources={CPU}:1&in_tree={@cn2}', '1.31');
      assert.deepEqual(s.requests(response.body), ['cn2:CPU=1']);
      response = await s.candidates(`resources={CPU}:1&in_tree=${uuid()}`, '1.31');
      assert.deepEqual(response.body.allocation_requests, []);
      response = await s.candidates('resources={CPU}:1&in_tree={@cn2}', '1.30');
      assert.equal(response.status, 400);
      response = await s.candidates('resources={CPU}:1&in_tree=not-a-uuid', '1.31');
      assert.match(
        response.body.errors[0].detail,
        /Expected 'in_tree' parameter to be a format of uuid\. Got: not-a-uuid/,
      );
      response = await s.candidates(
        'resources1={CPU}:1&in_tree1={@cn2}&resources2={DISK}:1&group_policy=none',
        '1.31',
      );
      assert.deepEqual(s.requests(response.body), ['cn2:CPU=1 + cn2:DISK=1']);
    });
  });
});

forEachPlacementBackend('allocation candidates: sharing providers', (ctx) => {
  // c1, c2 (CPU) and ss (DISK, MISC_SHARES_VIA_AGGREGATE) in aggregate A; c3 (CPU) alone.
  const s = new Scenario(ctx);
  const aggA = uuid();
  const aggB = uuid();
  before(async () => {
    await s.classes('CPU', 'DISK');
    await s.provider('c1', { inventory: { CPU: 8 }, aggregates: [aggA] });
    await s.provider('c2', { inventory: { CPU: 8 }, aggregates: [aggA] });
    await s.provider('c3', { inventory: { CPU: 8 }, aggregates: [aggB] });
    await s.provider('ss', {
      inventory: { DISK: 100 },
      traits: ['MISC_SHARES_VIA_AGGREGATE'],
      aggregates: [aggA],
    });
  });

  it('adds the shared class to every tree of the aggregate', async () => {
    const response = await s.candidates('resources={CPU}:1,{DISK}:10', '1.12');
    assert.deepEqual(s.requests(response.body), ['c1:CPU=1 + ss:DISK=10', 'c2:CPU=1 + ss:DISK=10']);
    assert.deepEqual(s.summaryNames(response.body), ['c1', 'c2', 'ss']);
  });

  it('offers the sharing provider alone once', async () => {
    const response = await s.candidates('resources={DISK}:10', '1.34');
    assert.deepEqual(s.requests(response.body), ['ss:DISK=10 | =ss']);
  });

  it('serves granular groups from the sharing provider too', async () => {
    const response = await s.candidates(
      'resources1={CPU}:1&resources2={DISK}:10&group_policy=isolate',
      '1.34',
    );
    assert.deepEqual(s.requests(response.body), [
      'c1:CPU=1 + ss:DISK=10 | 1=c1 2=ss',
      'c2:CPU=1 + ss:DISK=10 | 1=c2 2=ss',
    ]);
  });

  it('follows member_of and in_tree', async () => {
    let response = await s.candidates(`resources={CPU}:1,{DISK}:10&member_of=${aggA}`, '1.21');
    assert.equal(response.body.allocation_requests.length, 2);
    response = await s.candidates(`resources={CPU}:1,{DISK}:10&member_of=${aggB}`, '1.21');
    assert.deepEqual(response.body.allocation_requests, []);
    response = await s.candidates('resources={CPU}:1,{DISK}:10&in_tree={@c1}', '1.31');
    assert.deepEqual(response.body.allocation_requests, []);
  });

  it('drops the sharing provider once it is full', async () => {
    await s.allocate({ ss: { DISK: 95 } });
    const response = await s.candidates('resources={CPU}:1,{DISK}:10', '1.12');
    assert.deepEqual(response.body.allocation_requests, []);
    const small = await s.candidates('resources={CPU}:1,{DISK}:5', '1.12');
    assert.equal(small.body.allocation_requests.length, 2);
    assert.deepEqual(small.body.provider_summaries[s.uuid('ss')].resources, {
      [s.n('DISK')]: { capacity: 100, used: 95 },
    });
  });
});
