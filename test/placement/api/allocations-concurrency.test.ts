/**
 * Races through the real app on each backend: writers holding the same consumer generation
 * (exactly one wins, the rest get 409 placement.concurrent_update, the stored allocations are
 * the winner's), and consumers racing for the last units of a provider (never over-allocated).
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { consumerRecord, createProvider, usedOn } from '../support/allocation-fixtures.ts';
import { forEachPlacementBackend, uuid } from '../support/placement-api.ts';

const OWNER = { project_id: 'race-project', user_id: 'race-user' };
const N = 8;

forEachPlacementBackend('allocation write races', (ctx) => {
  let rp: { uuid: string; id: number };
  before(async () => {
    rp = await createProvider(ctx.placementDb(), { VCPU: { total: 1000, max_unit: 1000 } });
  });

  async function race(consumer: string, generation: number | null) {
    const responses = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        ctx.api().put(
          `/allocations/${consumer}`,
          {
            ...OWNER,
            consumer_generation: generation,
            allocations: { [rp.uuid]: { resources: { VCPU: i + 1 } } },
          },
          { version: '1.28' },
        ),
      ),
    );
    const winners = responses.flatMap((r, i) => (r.status === 204 ? [i] : []));
    assert.equal(winners.length, 1, `statuses: ${responses.map((r) => r.status).join(',')}`);
    for (const response of responses) {
      if (response.status === 204) continue;
      assert.equal(response.status, 409);
      assert.equal(response.body.errors[0].code, 'placement.concurrent_update');
    }
    const got = await ctx.api().get(`/allocations/${consumer}`, { version: '1.28' });
    assert.deepEqual(got.body.allocations, {
      [rp.uuid]: {
        resources: { VCPU: (winners[0] as number) + 1 },
        generation: got.body.allocations[rp.uuid].generation,
      },
    });
    return got.body.consumer_generation as number;
  }

  it(`${N} PUTs with the same generation of an existing consumer: one wins`, async () => {
    for (let round = 0; round < 3; round++) {
      const consumer = uuid();
      const first = await ctx.api().put(
        `/allocations/${consumer}`,
        {
          ...OWNER,
          consumer_generation: null,
          allocations: { [rp.uuid]: { resources: { VCPU: 1 } } },
        },
        { version: '1.28' },
      );
      assert.equal(first.status, 204);
      assert.equal(await race(consumer, 1), 2);
      assert.equal((await consumerRecord(ctx.placementDb(), consumer))?.generation, 2);
    }
  });

  it(`${N} PUTs creating the same new consumer (null generation): one wins`, async () => {
    for (let round = 0; round < 3; round++) {
      assert.equal(await race(uuid(), null), 1);
    }
  });

  it('consumers racing for the last unit never over-allocate', async () => {
    const tight = await createProvider(ctx.placementDb(), { VCPU: { total: 1 } });
    for (let round = 0; round < 3; round++) {
      const consumers = Array.from({ length: N }, () => uuid());
      const responses = await Promise.all(
        consumers.map((consumer) =>
          ctx.api().put(
            `/allocations/${consumer}`,
            {
              ...OWNER,
              consumer_generation: null,
              allocations: { [tight.uuid]: { resources: { VCPU: 1 } } },
            },
            { version: '1.28' },
          ),
        ),
      );
      const statuses = responses.map((r) => r.status);
      assert.equal(statuses.filter((s) => s === 204).length, 1, statuses.join(','));
      for (const response of responses) {
        if (response.status !== 204) assert.equal(response.status, 409);
      }
      const rows = await usedOn(ctx.placementDb(), tight.id);
      assert.equal(
        rows.reduce((sum, r) => sum + r.used, 0),
        1,
      );
      const winner = consumers[statuses.indexOf(204)] as string;
      assert.equal((await ctx.api().delete(`/allocations/${winner}`)).status, 204);
    }
  });

  it('consumers racing for a few units: successes never exceed capacity', async () => {
    const three = await createProvider(ctx.placementDb(), { VCPU: { total: 3 } });
    const responses = await Promise.all(
      Array.from({ length: N }, () =>
        ctx
          .api()
          .post(
            '/allocations',
            { [uuid()]: { ...OWNER, allocations: { [three.uuid]: { resources: { VCPU: 1 } } } } },
            { version: '1.13' },
          ),
      ),
    );
    const ok = responses.filter((r) => r.status === 204).length;
    assert.ok(ok >= 1 && ok <= 3, `successes: ${ok}`);
    const rows = await usedOn(ctx.placementDb(), three.id);
    assert.equal(
      rows.reduce((sum, r) => sum + r.used, 0),
      ok,
    );
  });
});
