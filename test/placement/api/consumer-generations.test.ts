/**
 * The consumer-generation spec, row by row: three states of a consumer (no allocations; allocations without a
 * consumer record; both) × the microversion windows of PUT (< 1.8, 1.8–1.27, >= 1.28) and
 * POST (1.13–1.27, >= 1.28). The incomplete-consumer ids are configured, so the < 1.8 rows
 * show they come from PlacementConfig.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import {
  consumerRecord,
  createProvider,
  insertBareAllocations,
} from '../support/allocation-fixtures.ts';
import { forEachPlacementBackend, uuid } from '../support/placement-api.ts';

const PROJECT = 'proj-generations';
const USER = 'user-generations';
const INCOMPLETE_PROJECT = 'incomplete-project-x';
const INCOMPLETE_USER = 'incomplete-user-x';

type State = 'none' | 'bare' | 'full';

forEachPlacementBackend(
  'consumer generations (the consumer-generation spec)',
  (ctx) => {
    let rp: { uuid: string; id: number };
    before(async () => {
      rp = await createProvider(ctx.placementDb(), {
        VCPU: { total: 1000, max_unit: 1000 },
        DISK_GB: { total: 1000, max_unit: 1000 },
      });
    });

    /** A consumer in the given state; its generation when it has a record. */
    async function consumerIn(state: State): Promise<{ consumer: string; generation?: number }> {
      const consumer = uuid();
      if (state === 'bare') {
        await insertBareAllocations(ctx.placementDb(), consumer, rp.id, { DISK_GB: 3 });
      }
      if (state === 'full') {
        const put = await ctx.api().put(
          `/allocations/${consumer}`,
          {
            allocations: { [rp.uuid]: { resources: { DISK_GB: 3 } } },
            project_id: 'earlier-project',
            user_id: 'earlier-user',
            consumer_generation: null,
          },
          { version: '1.28' },
        );
        assert.equal(put.status, 204);
        return { consumer, generation: 1 };
      }
      return { consumer };
    }

    async function assertAllocated(consumer: string, vcpu: number, project: string, user: string) {
      const got = await ctx.api().get(`/allocations/${consumer}`, { version: '1.28' });
      assert.deepEqual(got.body.allocations[rp.uuid].resources, { VCPU: vcpu });
      assert.equal(got.body.project_id, project);
      assert.equal(got.body.user_id, user);
      return got.body.consumer_generation as number;
    }

    function putBody(version: string, vcpu: number, generation?: number | null) {
      const allocations = { [rp.uuid]: { resources: { VCPU: vcpu } } };
      if (version === '1.7') {
        return {
          allocations: [{ resource_provider: { uuid: rp.uuid }, resources: { VCPU: vcpu } }],
        };
      }
      const body: Record<string, unknown> = { allocations, project_id: PROJECT, user_id: USER };
      if (generation !== undefined) body.consumer_generation = generation;
      return body;
    }

    describe('PUT /allocations/{consumer_uuid}', () => {
      for (const state of ['none', 'bare'] as const) {
        it(`${state}: < 1.8 succeeds, the record gets the configured incomplete ids`, async () => {
          const { consumer } = await consumerIn(state);
          const put = await ctx
            .api()
            .put(`/allocations/${consumer}`, putBody('1.7', 2), { version: '1.7' });
          assert.equal(put.status, 204);
          const generation = await assertAllocated(
            consumer,
            2,
            INCOMPLETE_PROJECT,
            INCOMPLETE_USER,
          );
          assert.equal(generation, 1);
        });

        it(`${state}: 1.8–1.27 succeeds, the record gets the request's project and user`, async () => {
          for (const version of ['1.8', '1.27']) {
            const { consumer } = await consumerIn(state);
            const body =
              version === '1.8'
                ? {
                    allocations: [{ resource_provider: { uuid: rp.uuid }, resources: { VCPU: 2 } }],
                    project_id: PROJECT,
                    user_id: USER,
                  }
                : putBody(version, 2);
            const put = await ctx.api().put(`/allocations/${consumer}`, body, { version });
            assert.equal(put.status, 204, version);
            assert.equal(await assertAllocated(consumer, 2, PROJECT, USER), 1);
          }
        });

        it(`${state}: >= 1.28 needs null; any number is a 409 concurrent_update`, async () => {
          const { consumer } = await consumerIn(state);
          const wrong = await ctx
            .api()
            .put(`/allocations/${consumer}`, putBody('1.28', 2, 0), { version: '1.28' });
          assert.equal(wrong.status, 409);
          assert.equal(wrong.body.errors[0].code, 'placement.concurrent_update');
          assert.match(
            wrong.body.errors[0].detail,
            /consumer generation conflict - expected null but got 0/,
          );
          // Nothing changed: bare allocations are still there, no record was left behind.
          assert.equal(await consumerRecord(ctx.placementDb(), consumer), undefined);
          const right = await ctx
            .api()
            .put(`/allocations/${consumer}`, putBody('1.28', 2, null), { version: '1.28' });
          assert.equal(right.status, 204);
          assert.equal(await assertAllocated(consumer, 2, PROJECT, USER), 1);
        });
      }

      it('full: < 1.28 always succeeds and bumps the generation (< 1.8 resets the owner)', async () => {
        const { consumer } = await consumerIn('full');
        let expected = 1;
        for (const version of ['1.8', '1.27', '1.7']) {
          const body =
            version === '1.8'
              ? {
                  allocations: [{ resource_provider: { uuid: rp.uuid }, resources: { VCPU: 1 } }],
                  project_id: PROJECT,
                  user_id: USER,
                }
              : putBody(version, 1);
          const put = await ctx.api().put(`/allocations/${consumer}`, body, { version });
          assert.equal(put.status, 204, version);
          expected += 1;
          const record = await consumerRecord(ctx.placementDb(), consumer);
          assert.equal(record?.generation, expected, version);
        }
        assert.equal(await assertAllocated(consumer, 1, INCOMPLETE_PROJECT, INCOMPLETE_USER), 4);
      });

      it('full: >= 1.28 must match; mismatch and null are 409 with the real words', async () => {
        const { consumer } = await consumerIn('full');
        const mismatch = await ctx
          .api()
          .put(`/allocations/${consumer}`, putBody('1.28', 2, 7), { version: '1.28' });
        assert.equal(mismatch.status, 409);
        assert.equal(mismatch.body.errors[0].code, 'placement.concurrent_update');
        assert.match(
          mismatch.body.errors[0].detail,
          /consumer generation conflict - expected 1 but got 7/,
        );
        const asNew = await ctx
          .api()
          .put(`/allocations/${consumer}`, putBody('1.28', 2, null), { version: '1.28' });
        assert.equal(asNew.status, 409);
        assert.match(
          asNew.body.errors[0].detail,
          /consumer generation conflict - expected 1 but got None/,
        );
        // The failed writes changed nothing.
        const got = await ctx.api().get(`/allocations/${consumer}`, { version: '1.28' });
        assert.deepEqual(got.body.allocations[rp.uuid].resources, { DISK_GB: 3 });
        assert.equal(got.body.project_id, 'earlier-project');
        const match = await ctx
          .api()
          .put(`/allocations/${consumer}`, putBody('1.28', 2, 1), { version: '1.28' });
        assert.equal(match.status, 204);
        assert.equal(await assertAllocated(consumer, 2, PROJECT, USER), 2);
      });

      it('empty allocations at 1.28 for a new consumer leave a record at generation 0', async () => {
        const consumer = uuid();
        const put = await ctx
          .api()
          .put(
            `/allocations/${consumer}`,
            { allocations: {}, project_id: PROJECT, user_id: USER, consumer_generation: null },
            { version: '1.28' },
          );
        assert.equal(put.status, 204);
        assert.equal((await consumerRecord(ctx.placementDb(), consumer))?.generation, 0);
        const again = await ctx
          .api()
          .put(`/allocations/${consumer}`, putBody('1.28', 1, null), { version: '1.28' });
        assert.equal(again.status, 409);
        assert.match(again.body.errors[0].detail, /expected 0 but got None/);
      });
    });

    describe('POST /allocations', () => {
      function section(version: string, vcpu: number, generation?: number | null) {
        const body: Record<string, unknown> = {
          allocations: { [rp.uuid]: { resources: { VCPU: vcpu } } },
          project_id: PROJECT,
          user_id: USER,
        };
        if (version >= '1.28' && generation !== undefined) body.consumer_generation = generation;
        return body;
      }

      for (const state of ['none', 'bare', 'full'] as const) {
        it(`${state}: 1.13–1.27 always succeeds, records get the request's owner`, async () => {
          for (const version of ['1.13', '1.27']) {
            const { consumer, generation } = await consumerIn(state);
            const post = await ctx
              .api()
              .post('/allocations', { [consumer]: section(version, 3) }, { version });
            assert.equal(post.status, 204, version);
            const got = await assertAllocated(consumer, 3, PROJECT, USER);
            assert.equal(got, (generation ?? 0) + 1);
          }
        });

        it(`${state}: >= 1.28 needs the known generation per consumer section`, async () => {
          const { consumer, generation } = await consumerIn(state);
          const missing = await ctx
            .api()
            .post('/allocations', { [consumer]: section('1.28', 3) }, { version: '1.28' });
          assert.equal(missing.status, 400);
          assert.match(
            missing.body.errors[0].detail,
            /'consumer_generation' is a required property/,
          );
          const wrong = await ctx
            .api()
            .post('/allocations', { [consumer]: section('1.28', 3, 42) }, { version: '1.28' });
          assert.equal(wrong.status, 409);
          assert.equal(wrong.body.errors[0].code, 'placement.concurrent_update');
          const expected = generation === undefined ? 'null' : String(generation);
          assert.match(
            wrong.body.errors[0].detail,
            new RegExp(`consumer generation conflict - expected ${expected} but got 42`),
          );
          const right = await ctx
            .api()
            .post(
              '/allocations',
              { [consumer]: section('1.28', 3, generation ?? null) },
              { version: '1.28' },
            );
          assert.equal(right.status, 204);
          assert.equal(await assertAllocated(consumer, 3, PROJECT, USER), (generation ?? 0) + 1);
        });
      }

      it('all or nothing: one consumer in conflict leaves the others untouched', async () => {
        const fresh = uuid();
        const { consumer: held } = await consumerIn('full');
        const post = await ctx
          .api()
          .post(
            '/allocations',
            { [fresh]: section('1.28', 1, null), [held]: section('1.28', 1, 9) },
            { version: '1.28' },
          );
        assert.equal(post.status, 409);
        assert.equal(await consumerRecord(ctx.placementDb(), fresh), undefined);
        const got = await ctx.api().get(`/allocations/${held}`, { version: '1.28' });
        assert.deepEqual(got.body.allocations[rp.uuid].resources, { DISK_GB: 3 });
      });
    });

    describe('the online migration', () => {
      it('uses the same configured ids as PUT < 1.8', async () => {
        const { createIncompleteConsumers } = await import(
          '../../../src/placement/online-migrations/create-incomplete-consumers.ts'
        );
        const consumer = uuid();
        await insertBareAllocations(ctx.placementDb(), consumer, rp.id, { DISK_GB: 1 });
        const migration = createIncompleteConsumers({
          incompleteConsumerProjectId: INCOMPLETE_PROJECT,
          incompleteConsumerUserId: INCOMPLETE_USER,
        });
        const db = ctx.placementDb();
        await migration.run({ db: db.kysely, caps: db.caps, service: 'placement' }, 1000);
        const record = await consumerRecord(db, consumer);
        assert.deepEqual(record, {
          generation: 0,
          project: INCOMPLETE_PROJECT,
          user: INCOMPLETE_USER,
        });
        const got = await ctx.api().get(`/allocations/${consumer}`, { version: '1.28' });
        assert.equal(got.body.project_id, INCOMPLETE_PROJECT);
        assert.equal(got.body.consumer_generation, 0);
      });
    });
  },
  (config) => ({
    ...config,
    incompleteConsumerProjectId: INCOMPLETE_PROJECT,
    incompleteConsumerUserId: INCOMPLETE_USER,
  }),
);
