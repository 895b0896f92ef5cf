/**
 * GET /allocation_candidates' one-query shortcut (one group of resources, no nested or
 * sharing provider holding its classes): its answers are the general search's, body for
 * body, at every microversion; a nested or sharing provider holding a requested class sends
 * the request to the general search; identical concurrent requests get the same, current
 * answer. On the three backends.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { Scenario } from '../support/candidate-fixtures.ts';
import { forEachPlacementBackend, uuid } from '../support/placement-api.ts';

forEachPlacementBackend('allocation candidates: one-query shortcut', (ctx) => {
  describe('same answers as the general search', () => {
    const s = new Scenario(ctx);
    // Every provider is in `agg`: adding member_of=agg forces the general search without
    // changing the answer.
    const agg = uuid();
    before(async () => {
      await s.classes('CPU', 'MEM', 'GPU');
      await s.traits('FAST', 'SLOW', 'NOBODY');
      const aggregates = [agg];
      await s.provider('p1', {
        inventory: { CPU: 8, MEM: 1024, GPU: 2 },
        traits: ['FAST', 'SLOW'],
        aggregates,
      });
      await s.provider('p2', { inventory: { CPU: 4, MEM: 512 }, aggregates });
      await s.provider('p3', {
        inventory: { CPU: { total: 10, reserved: 1, allocation_ratio: 1.5 }, MEM: 256 },
        aggregates,
      });
      await s.provider('p4', { inventory: { CPU: 2, MEM: 2048 }, aggregates });
      await s.provider('p5', { inventory: { MEM: 4096 }, aggregates });
      await s.provider('p6', {
        inventory: { CPU: { total: 16, min_unit: 2, step_size: 2 }, MEM: 64 },
        aggregates,
      });
      await s.allocate({ p2: { CPU: 1, MEM: 100 } });
      await s.allocate({ p3: { CPU: 12 } });
      await s.allocate({ p4: { CPU: 2 } });
    });

    const queries = [
      'resources={CPU}:1,{MEM}:64',
      'resources={MEM}:64,{CPU}:2',
      'resources={CPU}:1',
      'resources={CPU}:2,{MEM}:64&limit=2',
      'resources={CPU}:1,{GPU}:1',
      'resources={CPU}:100',
    ];
    for (const version of ['1.21', '1.26', '1.27', '1.29', '1.34', '1.39']) {
      it(`matches body for body at ${version}`, async () => {
        for (const query of queries) {
          const flat = await s.candidates(query, version);
          const general = await s.candidates(`${query}&member_of=${agg}`, version);
          assert.equal(flat.status, 200, query);
          assert.deepEqual(flat.body, general.body, `${query} at ${version}`);
          assert.equal(flat.headers['content-type'], 'application/json');
          assert.equal(flat.headers['cache-control'], general.headers['cache-control']);
        }
      });
    }

    it('matches with required, forbidden and any-of traits', async () => {
      const byVersion: [string, string[]][] = [
        ['1.17', ['required={FAST}', 'required={FAST},{SLOW}', 'required={NOBODY}']],
        ['1.22', ['required=!{FAST}', 'required={FAST},!{SLOW}', 'required=!{NOBODY}']],
        ['1.39', ['required=in:{FAST},{NOBODY}', 'required=in:{SLOW},{NOBODY}&required=!{FAST}']],
      ];
      for (const [version, filters] of byVersion) {
        for (const filter of filters) {
          const query = `resources={CPU}:1&${filter}`;
          const flat = await s.candidates(query, version);
          assert.equal(flat.status, 200, query);
          const general = await s.candidates(`${query}&member_of=${agg}`, version);
          if (version === '1.17') {
            // No member_of before 1.21: the same request at 1.21 goes the general way.
            const at121 = await s.candidates(`${query}&member_of=${agg}`, '1.21');
            assert.deepEqual(s.requests(flat.body), s.requests(at121.body), query);
            continue;
          }
          assert.deepEqual(flat.body, general.body, `${query} at ${version}`);
        }
      }
      const body = (await s.candidates('resources={CPU}:1&required=!{FAST}', '1.39')).body;
      assert.deepEqual(s.summaryNames(body), ['p2', 'p3']);
    });

    it('refuses an unknown trait, after an unknown class, as the general search', async () => {
      for (const query of [
        'resources={CPU}:1&required=CUSTOM_NO_SUCH_TRAIT_X',
        'resources={CPU}:1&required=!CUSTOM_NO_SUCH_TRAIT_Y',
        'resources={CPU}:1&required={FAST},CUSTOM_NO_SUCH_TRAIT_Z',
        'resources=CUSTOM_NO_SUCH_CLASS_Q:1&required=CUSTOM_NO_SUCH_TRAIT_X',
      ]) {
        const flat = await s.candidates(query, '1.39');
        const general = await s.candidates(`${query}&member_of=${agg}`, '1.39');
        assert.equal(flat.status, 400, query);
        assert.equal(flat.status, general.status, query);
        assert.equal(flat.body.errors[0].detail, general.body.errors[0].detail, query);
      }
    });

    it('matches for a single suffixed group (mappings under its suffix)', async () => {
      for (const query of ['resources1={CPU}:1,{MEM}:64', 'resources_X={CPU}:2']) {
        const flat = await s.candidates(query, '1.39');
        const suffix = query.slice('resources'.length, query.indexOf('='));
        const general = await s.candidates(`${query}&member_of${suffix}=${agg}`, '1.39');
        assert.deepEqual(flat.body, general.body, query);
      }
      const body = (await s.candidates('resources1={CPU}:1,{MEM}:64', '1.39')).body;
      assert.deepEqual(s.requests(body), [
        'p1:CPU=1 + p1:MEM=64 | 1=p1',
        'p2:CPU=1 + p2:MEM=64 | 1=p2',
        'p3:CPU=1 + p3:MEM=64 | 1=p3',
      ]);
    });

    it('shows capacity rounded down, usage, every class and sorted traits', async () => {
      const body = (await s.candidates('resources={CPU}:1', '1.39')).body;
      assert.deepEqual(s.summaryNames(body), ['p1', 'p2', 'p3']);
      assert.deepEqual(body.provider_summaries[s.uuid('p3')], {
        resources: {
          [s.n('CPU')]: { capacity: 13, used: 12 },
          [s.n('MEM')]: { capacity: 256, used: 0 },
        },
        traits: [],
        parent_provider_uuid: null,
        root_provider_uuid: s.uuid('p3'),
      });
      assert.deepEqual(body.provider_summaries[s.uuid('p1')].traits, [s.n('FAST'), s.n('SLOW')]);
      const old = (await s.candidates('resources={CPU}:1', '1.10')).body;
      assert.deepEqual(old.allocation_requests[0], {
        allocations: [
          { resource_provider: { uuid: s.uuid('p1') }, resources: { [s.n('CPU')]: 1 } },
        ],
      });
      assert.deepEqual(Object.keys(old.provider_summaries[s.uuid('p1')]), ['resources']);
      assert.deepEqual(Object.keys(old.provider_summaries[s.uuid('p1')].resources), [s.n('CPU')]);
    });

    it('refuses an unknown class as the general search does', async () => {
      const response = await s.candidates('resources=CUSTOM_NOPE_NOPE_X:1', '1.39');
      assert.equal(response.status, 400);
      assert.match(
        response.body.errors[0].detail,
        /Invalid resource class in resources parameter: No such resource class CUSTOM_NOPE_NOPE_X/,
      );
    });

    it('answers identical concurrent requests alike, and sees writes made before', async () => {
      const many = await Promise.all(
        Array.from({ length: 12 }, () => s.candidates('resources={CPU}:1,{MEM}:64', '1.39')),
      );
      for (const response of many) assert.deepEqual(response.body, many[0]?.body);
      assert.equal(many[0]?.body.allocation_requests.length, 3);
      const consumer = await s.allocate({ p2: { CPU: 3 } });
      const after = (await s.candidates('resources={CPU}:1,{MEM}:64', '1.39')).body;
      assert.deepEqual(s.summaryNames(after), ['p1', 'p3']);
      await ctx.api().delete(`/allocations/${consumer}`);
      const again = (await s.candidates('resources={CPU}:1,{MEM}:64', '1.39')).body;
      assert.deepEqual(s.summaryNames(again), ['p1', 'p2', 'p3']);
    });
  });

  describe('identical general-search requests share their loads', () => {
    const s = new Scenario(ctx);
    before(async () => {
      await s.classes('CPU', 'MEM');
      await s.provider('a', { inventory: { CPU: 4, MEM: 512 } });
      await s.provider('b', { inventory: { CPU: 4, MEM: 512 } });
    });

    it('answers concurrent identical requests alike, and sees writes made before', async () => {
      const query = 'resources={CPU}:1&resources1={MEM}:64&group_policy=none';
      const many = await Promise.all(Array.from({ length: 12 }, () => s.candidates(query, '1.39')));
      for (const response of many) assert.deepEqual(response.body, many[0]?.body);
      assert.deepEqual(s.requests(many[0]?.body), [
        'a:CPU=1 + a:MEM=64 | 1=a =a',
        'b:CPU=1 + b:MEM=64 | 1=b =b',
      ]);
      const consumer = await s.allocate({ a: { CPU: 4 } });
      const [after] = await Promise.all([s.candidates(query, '1.39'), s.candidates(query, '1.39')]);
      assert.deepEqual(s.summaryNames(after?.body), ['b']);
      await ctx.api().delete(`/allocations/${consumer}`);
      assert.deepEqual(s.summaryNames((await s.candidates(query, '1.39')).body), ['a', 'b']);
    });
  });

  describe('nested or sharing providers holding a requested class', () => {
    const s = new Scenario(ctx);
    before(async () => {
      await s.classes('CPU', 'MEM', 'DISK');
      await s.provider('flat', { inventory: { CPU: 4, MEM: 512 } });
      await s.provider('root', { inventory: { CPU: 4 } });
      await s.provider('child', { parent: 'root', inventory: { MEM: 512 } });
    });

    it('spreads the group over a tree as the general search does', async () => {
      let body = (await s.candidates('resources={CPU}:1,{MEM}:64', '1.29')).body;
      assert.deepEqual(s.requests(body), ['child:MEM=64 + root:CPU=1', 'flat:CPU=1 + flat:MEM=64']);
      assert.deepEqual(s.summaryNames(body), ['child', 'flat', 'root']);
      body = (await s.candidates('resources={CPU}:1,{MEM}:64', '1.28')).body;
      assert.deepEqual(s.requests(body), ['flat:CPU=1 + flat:MEM=64']);
      // A class only the root holds: the root's tree is summarized whole from 1.29.
      body = (await s.candidates('resources={CPU}:1', '1.29')).body;
      assert.deepEqual(s.summaryNames(body), ['child', 'flat', 'root']);
    });

    it('adds a sharing provider to the trees of its aggregates', async () => {
      const agg = uuid();
      await s.provider('cn', { inventory: { CPU: 4 }, aggregates: [agg] });
      await s.provider('ss', {
        inventory: { DISK: 100 },
        traits: ['MISC_SHARES_VIA_AGGREGATE'],
        aggregates: [agg],
      });
      const body = (await s.candidates('resources={CPU}:1,{DISK}:10', '1.39')).body;
      assert.deepEqual(s.requests(body), ['cn:CPU=1 + ss:DISK=10 | =cn,ss']);
    });
  });
});
