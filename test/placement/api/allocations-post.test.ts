import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import {
  consumerRecord,
  createProvider,
  providerGeneration,
} from '../support/allocation-fixtures.ts';
import { forEachPlacementBackend, uuid } from '../support/placement-api.ts';

const OWNER = { project_id: 'post-project', user_id: 'post-user' };

forEachPlacementBackend('POST /allocations (1.13+)', (ctx) => {
  let small: { uuid: string; id: number };
  let big: { uuid: string; id: number };
  before(async () => {
    small = await createProvider(ctx.placementDb(), { VCPU: { total: 1 } });
    big = await createProvider(ctx.placementDb(), {
      VCPU: { total: 64 },
      MEMORY_MB: { total: 8192 },
    });
  });

  const detail = (r: { body: { errors: { detail: string }[] } }) => r.body.errors[0]?.detail ?? '';

  it('writes several consumers at once; GET shows each', async () => {
    const a = uuid();
    const b = uuid();
    const post = await ctx.api().post(
      '/allocations',
      {
        [a]: { ...OWNER, allocations: { [big.uuid]: { resources: { VCPU: 2 } } } },
        [b]: { ...OWNER, allocations: { [big.uuid]: { resources: { MEMORY_MB: 512 } } } },
      },
      { version: '1.13' },
    );
    assert.equal(post.status, 204);
    assert.equal(post.text, '');
    const got = await ctx.api().get(`/allocations/${b}`, { version: '1.13' });
    assert.deepEqual(got.body.allocations[big.uuid].resources, { MEMORY_MB: 512 });
    // One write: the provider's generation moved once.
    const listed = await ctx.api().get(`/resource_providers/${big.uuid}/allocations`);
    assert.equal(listed.body.resource_provider_generation, 1);
  });

  it('swaps allocations between consumers atomically (a move within full capacity)', async () => {
    const source = uuid();
    const target = uuid();
    const first = await ctx
      .api()
      .post(
        '/allocations',
        { [source]: { ...OWNER, allocations: { [small.uuid]: { resources: { VCPU: 1 } } } } },
        { version: '1.13' },
      );
    assert.equal(first.status, 204);
    const gen = await providerGeneration(ctx.placementDb(), small.id);
    const move = await ctx.api().post(
      '/allocations',
      {
        [source]: { ...OWNER, allocations: {} },
        [target]: { ...OWNER, allocations: { [small.uuid]: { resources: { VCPU: 1 } } } },
      },
      { version: '1.13' },
    );
    assert.equal(move.status, 204);
    assert.equal(await consumerRecord(ctx.placementDb(), source), undefined);
    assert.deepEqual((await ctx.api().get(`/allocations/${source}`)).body, { allocations: {} });
    assert.equal(await providerGeneration(ctx.placementDb(), small.id), gen + 1);
    const cleanup = await ctx.api().delete(`/allocations/${target}`);
    assert.equal(cleanup.status, 204);
  });

  it('all or nothing: over capacity for one consumer writes none', async () => {
    const a = uuid();
    const b = uuid();
    const post = await ctx.api().post(
      '/allocations',
      {
        [a]: { ...OWNER, allocations: { [small.uuid]: { resources: { VCPU: 1 } } } },
        [b]: { ...OWNER, allocations: { [small.uuid]: { resources: { VCPU: 1 } } } },
      },
      { version: '1.13' },
    );
    assert.equal(post.status, 409);
    assert.match(
      detail(post),
      new RegExp(
        `Unable to allocate inventory: Unable to create allocation for 'VCPU' on resource provider '${small.uuid}'\\. The requested amount would exceed the capacity\\.`,
      ),
    );
    assert.equal(await consumerRecord(ctx.placementDb(), a), undefined);
    assert.deepEqual((await ctx.api().get(`/allocations/${a}`)).body, { allocations: {} });
  });

  it('400 for an unknown provider or class, in the POST wording', async () => {
    const ghost = uuid();
    const noProvider = await ctx
      .api()
      .post(
        '/allocations',
        { [uuid()]: { ...OWNER, allocations: { [ghost]: { resources: { VCPU: 1 } } } } },
        { version: '1.13' },
      );
    assert.equal(noProvider.status, 400);
    assert.match(
      detail(noProvider),
      new RegExp(`Allocation for resource provider '${ghost}' that does not exist\\.`),
    );
    const noClass = await ctx
      .api()
      .post(
        '/allocations',
        { [uuid()]: { ...OWNER, allocations: { [big.uuid]: { resources: { CUSTOM_GONE: 1 } } } } },
        { version: '1.13' },
      );
    assert.equal(noClass.status, 400);
    assert.match(
      detail(noClass),
      /Unable to allocate inventory No such resource class CUSTOM_GONE\./,
    );
  });

  it('validates the body per version', async () => {
    const badKey = await ctx
      .api()
      .post('/allocations', { 'not-a-uuid': { ...OWNER, allocations: {} } }, { version: '1.13' });
    assert.equal(badKey.status, 400);
    assert.match(
      detail(badKey),
      // jsonschema's wording when the schema has patternProperties.
      /'not-a-uuid' does not match any of the regexes: '\^\[0-9a-fA-F-\]\{36\}\$'/,
    );
    const empty = await ctx.api().post('/allocations', {}, { version: '1.13' });
    assert.equal(empty.status, 400);
    assert.match(detail(empty), /\{\} does not have enough properties/);
    const noOwner = await ctx
      .api()
      .post('/allocations', { [uuid()]: { allocations: {} } }, { version: '1.13' });
    assert.equal(noOwner.status, 400);
    assert.match(detail(noOwner), /'project_id' is a required property/);
    const early = await ctx
      .api()
      .post(
        '/allocations',
        { [uuid()]: { ...OWNER, allocations: {}, consumer_generation: null } },
        { version: '1.27' },
      );
    assert.equal(early.status, 400);
    assert.match(detail(early), /'consumer_generation' was unexpected/);
    const typed = await ctx
      .api()
      .post(
        '/allocations',
        { [uuid()]: { ...OWNER, allocations: {}, consumer_generation: null } },
        { version: '1.38' },
      );
    assert.equal(typed.status, 400);
    assert.match(detail(typed), /'consumer_type' is a required property/);
  });

  it('1.38: consumer_type set per section, shown by GET', async () => {
    const a = uuid();
    const b = uuid();
    const post = await ctx.api().post(
      '/allocations',
      {
        [a]: {
          ...OWNER,
          consumer_generation: null,
          consumer_type: 'INSTANCE',
          allocations: { [big.uuid]: { resources: { VCPU: 1 } } },
        },
        [b]: {
          ...OWNER,
          consumer_generation: null,
          consumer_type: 'MIGRATION',
          allocations: { [big.uuid]: { resources: { VCPU: 1 } } },
        },
      },
      { version: '1.38' },
    );
    assert.equal(post.status, 204);
    assert.equal(
      (await ctx.api().get(`/allocations/${a}`, { version: '1.38' })).body.consumer_type,
      'INSTANCE',
    );
    assert.equal(
      (await ctx.api().get(`/allocations/${b}`, { version: '1.38' })).body.consumer_type,
      'MIGRATION',
    );
  });

  it('403 for a caller the policy refuses (placement:allocations:manage)', async () => {
    const denied = await ctx.api().post('/allocations', {}, { version: '1.13', token: 'someone' });
    assert.equal(denied.status, 403);
    assert.match(detail(denied), /placement:allocations:manage/);
  });
});
