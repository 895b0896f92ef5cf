import assert from 'node:assert/strict';
import { it } from 'node:test';
import {
  type ApiResponse,
  forEachPlacementBackend,
  type PlacementContext,
  uuid,
} from '../support/placement-api.ts';

const LAST_MODIFIED = /^\w+, \d+ \w+ \d{4} [\d:]+ GMT$/;

function detail(response: ApiResponse): string {
  return response.body.errors[0].detail;
}

async function provider(ctx: PlacementContext): Promise<string> {
  const id = uuid();
  const response = await ctx
    .api()
    .post('/resource_providers', { name: `rp-${id}`, uuid: id }, { version: '1.20' });
  assert.equal(response.status, 200, response.text);
  return id;
}

forEachPlacementBackend('/resource_providers/{uuid}/aggregates', (ctx) => {
  const url = (id: string) => `/resource_providers/${id}/aggregates`;
  const generation = async (id: string) =>
    (await ctx.api().get(`/resource_providers/${id}`)).body.generation;

  it('404 below 1.1', async () => {
    const id = await provider(ctx);
    assert.equal((await ctx.api().get(url(id), { version: '1.0' })).status, 404);
    assert.equal((await ctx.api().put(url(id), [], { version: '1.0' })).status, 404);
  });

  it('1.1 – 1.18: a bare list in and out; the generation does not move', async () => {
    const id = await provider(ctx);
    const empty = await ctx.api().get(url(id), { version: '1.1' });
    assert.equal(empty.status, 200);
    assert.deepEqual(empty.body, { aggregates: [] });
    const [a, b] = [uuid(), uuid()];
    const put = await ctx.api().put(url(id), [a, b], { version: '1.18' });
    assert.equal(put.status, 200);
    assert.deepEqual(put.body, { aggregates: [a, b] });
    assert.equal(put.headers['cache-control'], 'no-cache');
    assert.match(String(put.headers['last-modified']), LAST_MODIFIED);
    const shown = await ctx.api().get(url(id), { version: '1.1' });
    assert.deepEqual([...shown.body.aggregates].sort(), [a, b].sort());
    assert.equal(shown.headers['cache-control'], undefined);
    assert.equal(await generation(id), 0);
    const object = await ctx
      .api()
      .put(url(id), { aggregates: [], resource_provider_generation: 0 }, { version: '1.18' });
    assert.equal(object.status, 400);
    assert.match(detail(object), /JSON does not validate/);
  });

  it('1.19: generation in both answers; PUT needs the current one and bumps it', async () => {
    const id = await provider(ctx);
    const shown = await ctx.api().get(url(id), { version: '1.19' });
    assert.deepEqual(shown.body, { aggregates: [], resource_provider_generation: 0 });
    const [a, b] = [uuid(), uuid()];
    const put = await ctx
      .api()
      .put(url(id), { aggregates: [a, b], resource_provider_generation: 0 }, { version: '1.19' });
    assert.equal(put.status, 200);
    assert.deepEqual(put.body, { aggregates: [a, b], resource_provider_generation: 1 });
    assert.equal(await generation(id), 1);

    const stale = await ctx
      .api()
      .put(url(id), { aggregates: [a], resource_provider_generation: 0 }, { version: '1.23' });
    assert.equal(stale.status, 409);
    assert.equal(stale.body.errors[0].code, 'placement.concurrent_update');
    assert.match(
      detail(stale),
      /Resource provider's generation already changed\. Please update the generation and try again\./,
    );

    const bare = await ctx.api().put(url(id), [a], { version: '1.19' });
    assert.equal(bare.status, 400);
    const missing = await ctx.api().put(url(id), { aggregates: [a] }, { version: '1.19' });
    assert.equal(missing.status, 400);
    assert.match(detail(missing), /'resource_provider_generation' is a required property/);

    const cleared = await ctx
      .api()
      .put(url(id), { aggregates: [], resource_provider_generation: 1 }, { version: '1.19' });
    assert.deepEqual(cleared.body, { aggregates: [], resource_provider_generation: 2 });
    assert.deepEqual((await ctx.api().get(url(id), { version: '1.19' })).body.aggregates, []);
    // The aggregates themselves stay known.
    const kept = await ctx
      .placementDb()
      .kysely.selectFrom('placement_aggregates')
      .select('uuid')
      .where('uuid', 'in', [a, b])
      .execute();
    assert.equal(kept.length, 2);
  });

  it('replaces the set: keeps, adds and removes links; shares aggregates across providers', async () => {
    const first = await provider(ctx);
    const second = await provider(ctx);
    const [a, b, c] = [uuid(), uuid(), uuid()];
    await ctx.api().put(url(first), [a, b], { version: '1.1' });
    await ctx.api().put(url(second), [b], { version: '1.1' });
    await ctx.api().put(url(first), [b, c], { version: '1.1' });
    const shown = await ctx.api().get(url(first), { version: '1.1' });
    assert.deepEqual([...shown.body.aggregates].sort(), [b, c].sort());
    assert.deepEqual((await ctx.api().get(url(second), { version: '1.1' })).body.aggregates, [b]);
  });

  it('concurrent PUTs at one generation: one wins, the other is a 409', async () => {
    const id = await provider(ctx);
    const shared = uuid();
    const answers = await Promise.all(
      [uuid(), uuid(), uuid()].map((own) =>
        ctx
          .api()
          .put(
            url(id),
            { aggregates: [shared, own], resource_provider_generation: 0 },
            { version: '1.23' },
          ),
      ),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    assert.deepEqual(statuses, [200, 409, 409]);
    for (const answer of answers.filter((a) => a.status === 409)) {
      assert.equal(answer.body.errors[0].code, 'placement.concurrent_update');
    }
    assert.equal(await generation(id), 1);
  });

  it('concurrent PUTs linking one new aggregate, 20 rounds: never a 500 (MariaDB deadlocks)', async () => {
    // MariaDB deadlocks two such writers now and then: the loser is run again, as oslo.db's
    // retry_on_deadlock does in the real service, and then sees the generation moved.
    for (let round = 0; round < 20; round++) {
      const id = await provider(ctx);
      const shared = uuid();
      const answers = await Promise.all(
        [uuid(), uuid(), uuid()].map((own) =>
          ctx.api().put(
            url(id),
            { aggregates: [shared, own], resource_provider_generation: 0 },
            {
              version: '1.23',
            },
          ),
        ),
      );
      assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 409, 409]);
    }
  });

  it('providers linking one new aggregate at once all succeed', async () => {
    const ids = await Promise.all([provider(ctx), provider(ctx), provider(ctx)]);
    const shared = uuid();
    const answers = await Promise.all(
      ids.map((id) => ctx.api().put(url(id), [shared], { version: '1.1' })),
    );
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [200, 200, 200],
    );
    for (const id of ids) {
      assert.deepEqual((await ctx.api().get(url(id), { version: '1.1' })).body.aggregates, [
        shared,
      ]);
    }
  });

  it('400 for duplicates or values that are not uuids', async () => {
    const id = await provider(ctx);
    const a = uuid();
    const dup = await ctx.api().put(url(id), [a, a], { version: '1.1' });
    assert.equal(dup.status, 400);
    assert.match(detail(dup), /has non-unique elements/);
    const bad = await ctx.api().put(url(id), ['not-a-uuid'], { version: '1.1' });
    assert.equal(bad.status, 400);
  });

  it('404 for an unknown provider (before the body is read)', async () => {
    const missing = uuid();
    const got = await ctx.api().get(url(missing), { version: '1.1' });
    assert.equal(got.status, 404);
    assert.match(detail(got), new RegExp(`No resource provider with uuid ${missing} found`));
    assert.equal((await ctx.api().put(url(missing), 'junk', { version: '1.1' })).status, 404);
  });

  it('415 and 406 come before the version check; 403 for a refused caller', async () => {
    const id = await provider(ctx);
    const wrongType = await ctx.api().request('PUT', url(id), '[]', {
      version: '1.0',
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(wrongType.status, 415);
    const wrongAccept = await ctx
      .api()
      .get(url(id), { version: '1.0', headers: { accept: 'text/plain' } });
    assert.equal(wrongAccept.status, 406);
    assert.equal((await ctx.api().get(url(id), { version: '1.1', token: 'user' })).status, 403);
    assert.equal((await ctx.api().put(url(id), [], { version: '1.1', token: 'user' })).status, 403);
    const patch = await ctx.api().request('PATCH', url(id));
    assert.equal(patch.status, 405);
    assert.equal(patch.headers.allow, 'GET, PUT');
  });
});
