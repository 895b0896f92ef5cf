/**
 * The order of each provider's traits in allocation candidates' provider summaries, as the
 * real service lists them (measured against Placement 8.0.0 on each backend, docs/placement.md):
 * it sorts nothing and keeps the database's order, which is trait id order on SQLite and
 * MariaDB and the order the rows were stored on PostgreSQL (where the real service stores a
 * provider's new traits in CPython's set order). Both answer paths: the flat one (one group,
 * one provider per candidate) and the general search (trees).
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { Scenario } from '../support/candidate-fixtures.ts';
import { forEachPlacementBackend } from '../support/placement-api.ts';

forEachPlacementBackend('allocation candidates: trait order in provider summaries', (ctx) => {
  const s = new Scenario(ctx);
  /** Trait ids as created, for the expectations. */
  const ids = new Map<string, number>();

  before(async () => {
    // Custom traits get the next ids: fill up to an id of 5 (mod 8) so that M, A and Z get
    // 6, 7 and 0 (mod 8). A set of those three ids iterates Z, M, A in CPython (slots 0, 6,
    // 7 of its eight), in id order M, A, Z, and by name A, M, Z: three different orders.
    const db = ctx.placementDb().kysely;
    const maxId = async () =>
      Number(
        (await sql<{ m: number | string }>`select max(id) as m from traits`.execute(db)).rows[0]?.m,
      );
    let filler = 0;
    while ((await maxId()) % 8 !== 5) await s.traits(`FILL${filler++}`);
    await s.traits('M', 'A', 'Z');
    for (const short of ['M', 'A', 'Z']) {
      const row = await db
        .selectFrom('traits')
        .select('id')
        .where('name', '=', s.n(short))
        .executeTakeFirstOrThrow();
      ids.set(short, Number(row.id));
    }
    await s.classes('FLATCPU', 'TREECPU');
    await s.provider('flat', { inventory: { FLATCPU: 4 }, traits: ['M', 'A', 'Z'] });
    await s.provider('tree', { inventory: { TREECPU: 4 }, traits: ['M', 'A', 'Z'] });
    await s.provider('leaf', { parent: 'tree' });
  });

  const traitsOf = async (query: string, provider: string, version = '1.17') => {
    const response = await s.candidates(query, version);
    assert.equal(response.status, 200, response.text);
    const summary = response.body.provider_summaries[s.uuid(provider)];
    return (summary.traits as string[]).map((name) => s.short(name));
  };

  it('creates the traits with the ids the cases need', () => {
    assert.equal((ids.get('M') as number) % 8, 6);
    assert.equal((ids.get('A') as number) % 8, 7);
    assert.equal((ids.get('Z') as number) % 8, 0);
  });

  const firstSet = ctx.backend === 'postgresql' ? ['Z', 'M', 'A'] : ['M', 'A', 'Z'];

  describe('after a provider first gets its traits', () => {
    it('keeps that order on the flat path', async () => {
      assert.deepEqual(await traitsOf('resources={FLATCPU}:1', 'flat'), firstSet);
      assert.deepEqual(await traitsOf('resources={FLATCPU}:1', 'flat', '1.39'), firstSet);
    });

    it('keeps it in the general search', async () => {
      assert.deepEqual(await traitsOf('resources={TREECPU}:1', 'tree'), firstSet);
      assert.deepEqual(await traitsOf('resources={TREECPU}:1', 'tree', '1.39'), firstSet);
    });
  });

  describe('after one trait is replaced by one with a lower id', () => {
    before(async () => {
      for (const name of ['flat', 'tree']) {
        const uuid = s.uuid(name);
        const shown = await ctx.api().get(`/resource_providers/${uuid}`, { version: '1.14' });
        const response = await ctx.api().put(
          `/resource_providers/${uuid}/traits`,
          {
            resource_provider_generation: shown.body.generation,
            traits: ['HW_CPU_X86_AVX', s.n('M'), s.n('Z')],
          },
          { version: '1.6' },
        );
        assert.equal(response.status, 200, response.text);
      }
    });

    // A standard trait's id is lower than any custom one's: first in id order, last where the
    // order is the order of storage (the new row comes after the kept ones).
    const secondSet =
      ctx.backend === 'postgresql' ? ['Z', 'M', 'HW_CPU_X86_AVX'] : ['HW_CPU_X86_AVX', 'M', 'Z'];

    it('shows the new order on both paths', async () => {
      assert.deepEqual(await traitsOf('resources={FLATCPU}:1', 'flat'), secondSet);
      assert.deepEqual(await traitsOf('resources={TREECPU}:1', 'tree'), secondSet);
    });
  });
});
