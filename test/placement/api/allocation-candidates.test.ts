/**
 * GET /allocation_candidates: versions, answer shapes per microversion, capacity rules,
 * limit, traits, aggregates and the query's refusals, on the three backends.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { Scenario } from '../support/candidate-fixtures.ts';
import { forEachPlacementBackend, uuid } from '../support/placement-api.ts';

forEachPlacementBackend('allocation candidates', (ctx) => {
  describe('routing and versions', () => {
    it('is 404 below 1.10 and 405 for other methods', async () => {
      const old = await ctx
        .api()
        .get('/allocation_candidates?resources=VCPU:1', { version: '1.9' });
      assert.equal(old.status, 404);
      const post = await ctx.api().post('/allocation_candidates', {}, { version: '1.10' });
      assert.equal(post.status, 405);
      assert.equal(post.headers.allow, 'GET');
    });

    it('requires resources before 1.25 and refuses unknown parameters', async () => {
      let response = await ctx.api().get('/allocation_candidates', { version: '1.10' });
      assert.equal(response.status, 400);
      assert.match(response.body.errors[0].detail, /'resources' is a required property/);
      response = await ctx.api().get('/allocation_candidates?resources=VCPU:1&limit=1', {
        version: '1.15',
      });
      assert.equal(response.status, 400);
      assert.match(response.body.errors[0].detail, /'limit' was unexpected/);
      response = await ctx.api().get('/allocation_candidates?resources1=VCPU:1', {
        version: '1.25',
      });
      assert.equal(response.status, 200);
      response = await ctx.api().get('/allocation_candidates?resources_X=VCPU:1', {
        version: '1.25',
      });
      assert.equal(response.status, 400);
      assert.match(
        response.body.errors[0].detail,
        /'resources_X' does not match any of the regexes/,
      );
      response = await ctx.api().get('/allocation_candidates?resources_X=VCPU:1', {
        version: '1.33',
      });
      assert.equal(response.status, 200);
    });

    it('refuses a query value that is not UTF-8 in Python words', async () => {
      const response = await ctx
        .api()
        .get('/allocation_candidates?resources=VCPU:1%ff', { version: '1.29' });
      assert.equal(response.status, 400);
      assert.match(
        response.body.errors[0].detail,
        /Invalid query string parameters: 'utf-8' codec can't decode byte 0xff in position 6: invalid start byte {2}$/,
      );
    });

    it('refuses a bad limit, bad resources and unknown classes', async () => {
      let response = await ctx.api().get('/allocation_candidates?resources=VCPU:1&limit=0', {
        version: '1.16',
      });
      assert.equal(response.status, 400);
      assert.match(response.body.errors[0].detail, /'0' does not match/);
      response = await ctx.api().get('/allocation_candidates?resources=VCPU', { version: '1.10' });
      assert.equal(response.status, 400);
      assert.match(response.body.errors[0].detail, /Badly formed resources parameter/);
      response = await ctx.api().get('/allocation_candidates?resources=CUSTOM_NOPE_NOPE:1', {
        version: '1.10',
      });
      assert.equal(response.status, 400);
      assert.match(
        response.body.errors[0].detail,
        /Invalid resource class in resources parameter: No such resource class CUSTOM_NOPE_NOPE\./,
      );
    });

    it('refuses an unknown trait and answers 406 to a non-JSON accept', async () => {
      const s = new Scenario(ctx);
      await s.classes('CPU');
      const response = await s.candidates(
        'resources={CPU}:1&required=CUSTOM_NO_SUCH_TRAIT',
        '1.17',
      );
      assert.equal(response.status, 400);
      assert.match(response.body.errors[0].detail, /No such trait\(s\): CUSTOM_NO_SUCH_TRAIT\./);
      const accept = await ctx.api().get('/allocation_candidates?resources=VCPU:1', {
        version: '1.10',
        headers: { accept: 'text/plain' },
      });
      assert.equal(accept.status, 406);
    });
  });

  describe('answer shapes', () => {
    const s = new Scenario(ctx);
    before(async () => {
      await s.classes('CPU', 'MEM', 'GPU');
      await s.traits('FAST');
      await s.provider('cn1', { inventory: { CPU: 8, MEM: 1024, GPU: 2 }, traits: ['FAST'] });
      await s.provider('cn2', { inventory: { CPU: 4, MEM: 512 } });
      await s.allocate({ cn2: { CPU: 1, MEM: 100 } });
    });

    it('uses the list form before 1.12 and only requested classes in summaries', async () => {
      const response = await s.candidates('resources={CPU}:1,{MEM}:64', '1.10');
      assert.equal(response.status, 200);
      assert.equal(response.headers['cache-control'], undefined);
      const names = response.body.allocation_requests
        .map((r: { allocations: { resource_provider: { uuid: string } }[] }) =>
          r.allocations.map((a) => s.names.get(a.resource_provider.uuid)).join(','),
        )
        .sort();
      assert.deepEqual(names, ['cn1', 'cn2']);
      const first = response.body.allocation_requests[0].allocations[0];
      assert.deepEqual(Object.keys(first.resources).sort(), [s.n('CPU'), s.n('MEM')].sort());
      const cn2 = response.body.provider_summaries[s.uuid('cn2')];
      assert.deepEqual(cn2, {
        resources: {
          [s.n('CPU')]: { capacity: 4, used: 1 },
          [s.n('MEM')]: { capacity: 512, used: 100 },
        },
      });
    });

    it('uses the dict form from 1.12, cache headers from 1.15, traits from 1.17', async () => {
      let response = await s.candidates('resources={CPU}:1', '1.12');
      assert.deepEqual(s.requests(response.body), ['cn1:CPU=1', 'cn2:CPU=1']);
      assert.equal(response.headers['last-modified'], undefined);
      response = await s.candidates('resources={CPU}:1', '1.15');
      assert.equal(response.headers['cache-control'], 'no-cache');
      assert.ok(response.headers['last-modified']);
      assert.equal(response.body.provider_summaries[s.uuid('cn1')].traits, undefined);
      response = await s.candidates('resources={CPU}:1', '1.17');
      assert.deepEqual(response.body.provider_summaries[s.uuid('cn1')].traits, [s.n('FAST')]);
      assert.deepEqual(response.body.provider_summaries[s.uuid('cn2')].traits, []);
    });

    it('shows every class from 1.27 and parent/root from 1.29', async () => {
      let response = await s.candidates('resources={CPU}:1', '1.26');
      assert.deepEqual(Object.keys(response.body.provider_summaries[s.uuid('cn1')].resources), [
        s.n('CPU'),
      ]);
      response = await s.candidates('resources={CPU}:1', '1.27');
      const cn1 = response.body.provider_summaries[s.uuid('cn1')];
      assert.deepEqual(
        Object.keys(cn1.resources).sort(),
        [s.n('CPU'), s.n('GPU'), s.n('MEM')].sort(),
      );
      assert.equal(cn1.parent_provider_uuid, undefined);
      response = await s.candidates('resources={CPU}:1', '1.29');
      assert.equal(response.body.provider_summaries[s.uuid('cn1')].parent_provider_uuid, null);
      assert.equal(
        response.body.provider_summaries[s.uuid('cn1')].root_provider_uuid,
        s.uuid('cn1'),
      );
    });

    it('adds mappings from 1.34', async () => {
      let response = await s.candidates('resources={CPU}:1', '1.33');
      assert.equal(response.body.allocation_requests[0].mappings, undefined);
      response = await s.candidates('resources={CPU}:1', '1.34');
      assert.deepEqual(s.requests(response.body), ['cn1:CPU=1 | =cn1', 'cn2:CPU=1 | =cn2']);
    });

    it('respects capacity, usage, and answers empty when nothing fits', async () => {
      let response = await s.candidates('resources={CPU}:4', '1.12');
      assert.deepEqual(s.requests(response.body), ['cn1:CPU=4']);
      response = await s.candidates('resources={CPU}:3,{MEM}:412', '1.12');
      assert.deepEqual(s.requests(response.body), [
        'cn1:CPU=3 + cn1:MEM=412',
        'cn2:CPU=3 + cn2:MEM=412',
      ]);
      response = await s.candidates('resources={CPU}:3,{MEM}:413', '1.12');
      assert.deepEqual(s.requests(response.body), ['cn1:CPU=3 + cn1:MEM=413']);
      response = await s.candidates('resources={CPU}:9', '1.12');
      assert.deepEqual(response.body, { allocation_requests: [], provider_summaries: {} });
    });

    it('limits from 1.16, keeping summaries of the chosen candidates only', async () => {
      const response = await s.candidates('resources={CPU}:1&limit=1', '1.16');
      assert.equal(response.body.allocation_requests.length, 1);
      assert.equal(Object.keys(response.body.provider_summaries).length, 1);
      const chosen = Object.keys(response.body.allocation_requests[0].allocations)[0] as string;
      assert.ok(response.body.provider_summaries[chosen]);
    });

    it('filters by required traits from 1.17, forbidden from 1.22, any-of from 1.39', async () => {
      let response = await s.candidates('resources={CPU}:1&required={FAST}', '1.17');
      assert.deepEqual(s.requests(response.body), ['cn1:CPU=1']);
      response = await s.candidates('resources={CPU}:1&required=!{FAST}', '1.21');
      assert.equal(response.status, 400);
      response = await s.candidates('resources={CPU}:1&required=!{FAST}', '1.22');
      assert.deepEqual(s.requests(response.body), ['cn2:CPU=1']);
      response = await s.candidates('resources={CPU}:1&required=in:{FAST},HW_NUMA_ROOT', '1.38');
      assert.equal(response.status, 400);
      assert.match(response.body.errors[0].detail, /only supported since microversion 1.39/);
      response = await s.candidates('resources={CPU}:1&required=in:{FAST},HW_NUMA_ROOT', '1.39');
      assert.deepEqual(s.requests(response.body), ['cn1:CPU=1 | =cn1']);
      response = await s.candidates('resources={CPU}:1&required={FAST}&required=!{FAST}', '1.39');
      assert.equal(response.status, 400);
      assert.match(
        response.body.errors[0].detail,
        new RegExp(
          `Conflicting required and forbidden traits found in the following traits keys: required: \\(${s.n('FAST')}\\)`,
        ),
      );
      // Before 1.39 only the last `required` counts.
      response = await s.candidates('resources={CPU}:1&required={FAST}&required=!{FAST}', '1.38');
      assert.deepEqual(s.requests(response.body), ['cn2:CPU=1 | =cn2']);
    });
  });

  describe('inventory constraints', () => {
    const s = new Scenario(ctx);
    before(async () => {
      await s.classes('DISK');
      await s.provider('steps', {
        inventory: { DISK: { total: 100, min_unit: 10, max_unit: 50, step_size: 5 } },
      });
      await s.provider('overcommit', {
        inventory: { DISK: { total: 10, reserved: 2, allocation_ratio: 2.5 } },
      });
    });

    it('applies min_unit, max_unit, step_size and allocation_ratio', async () => {
      const names = async (amount: number) =>
        s.requests((await s.candidates(`resources={DISK}:${amount}`, '1.12')).body);
      assert.deepEqual(await names(5), ['overcommit:DISK=5']);
      assert.deepEqual(await names(10), ['overcommit:DISK=10', 'steps:DISK=10']);
      assert.deepEqual(await names(12), ['overcommit:DISK=12']);
      assert.deepEqual(await names(20), ['overcommit:DISK=20', 'steps:DISK=20']);
      assert.deepEqual(await names(21), []);
      assert.deepEqual(await names(55), []);
      const response = await s.candidates('resources={DISK}:20', '1.12');
      assert.deepEqual(response.body.provider_summaries[s.uuid('overcommit')].resources, {
        [s.n('DISK')]: { capacity: 20, used: 0 },
      });
    });
  });

  describe('member_of', () => {
    const s = new Scenario(ctx);
    const agg1 = uuid();
    const agg2 = uuid();
    before(async () => {
      await s.classes('CPU');
      await s.provider('a', { inventory: { CPU: 4 }, aggregates: [agg1] });
      await s.provider('b', { inventory: { CPU: 4 }, aggregates: [agg2] });
      await s.provider('ab', { inventory: { CPU: 4 }, aggregates: [agg1, agg2] });
      await s.provider('none', { inventory: { CPU: 4 } });
    });

    it('filters by one aggregate from 1.21, any-of with in:, several from 1.24', async () => {
      let response = await s.candidates(`resources={CPU}:1&member_of=${agg1}`, '1.20');
      assert.equal(response.status, 400);
      response = await s.candidates(`resources={CPU}:1&member_of=${agg1}`, '1.21');
      assert.deepEqual(s.requests(response.body), ['a:CPU=1', 'ab:CPU=1']);
      response = await s.candidates(`resources={CPU}:1&member_of=in:${agg1},${agg2}`, '1.21');
      assert.deepEqual(s.requests(response.body), ['a:CPU=1', 'ab:CPU=1', 'b:CPU=1']);
      response = await s.candidates(
        `resources={CPU}:1&member_of=${agg1}&member_of=${agg2}`,
        '1.23',
      );
      assert.equal(response.status, 400);
      assert.match(
        response.body.errors[0].detail,
        /Multiple member_of parameters are not supported/,
      );
      response = await s.candidates(
        `resources={CPU}:1&member_of=${agg1}&member_of=${agg2}`,
        '1.24',
      );
      assert.deepEqual(s.requests(response.body), ['ab:CPU=1']);
    });

    it('forbids aggregates from 1.32', async () => {
      let response = await s.candidates(`resources={CPU}:1&member_of=!${agg1}`, '1.31');
      assert.equal(response.status, 400);
      assert.match(
        response.body.errors[0].detail,
        /Forbidden member_of parameters are not supported/,
      );
      response = await s.candidates(`resources={CPU}:1&member_of=!in:${agg1},${agg2}`, '1.32');
      assert.deepEqual(s.requests(response.body), ['none:CPU=1']);
    });

    it('answers empty for an unknown aggregate, even before an unknown class', async () => {
      const response = await s.candidates(
        `resources={CPU}:1,CUSTOM_NOPE_X:1&member_of=${uuid()}`,
        '1.21',
      );
      assert.equal(response.status, 400);
      const granular = await s.candidates(
        `resources1={CPU}:1&member_of1=${uuid()}&resources2=CUSTOM_NOPE_X:1&group_policy=none`,
        '1.25',
      );
      assert.equal(granular.status, 200);
      assert.deepEqual(granular.body.allocation_requests, []);
    });
  });
});
