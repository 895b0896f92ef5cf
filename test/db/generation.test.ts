import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import type { Kysely } from 'kysely';
import { bumpGeneration, ConcurrentUpdateError, inTransaction } from '../../src/db/index.ts';
import { forEachBackend } from './support/backends.ts';

interface Tables {
  counters: { id: string; generation: number; value: number; note: string | null };
}

forEachBackend('optimistic concurrency (generation helper)', (ctx) => {
  const kysely = () => ctx.db().kysely as unknown as Kysely<Tables>;

  before(async () => {
    await kysely()
      .schema.createTable('counters')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('generation', 'integer', (c) => c.notNull())
      .addColumn('value', 'integer', (c) => c.notNull())
      .addColumn('note', 'varchar(255)')
      .execute();
    await kysely()
      .insertInto('counters')
      .values([
        { id: 'a', generation: 0, value: 0, note: null },
        { id: 'b', generation: 5, value: 0, note: null },
      ])
      .execute();
  });

  test('a matching generation wins and is bumped, with the other columns set', async () => {
    const next = await inTransaction(ctx.db(), (trx) =>
      bumpGeneration(trx, { table: 'counters', id: 'b', expected: 5, set: { note: 'x' } }),
    );
    assert.equal(next, 6);
    const row = await kysely()
      .selectFrom('counters')
      .selectAll()
      .where('id', '=', 'b')
      .executeTakeFirstOrThrow();
    assert.deepEqual([Number(row.generation), row.note], [6, 'x']);
  });

  test('a stale generation loses, and the whole transaction rolls back', async () => {
    await assert.rejects(
      inTransaction(ctx.db(), async (trx) => {
        await (trx as unknown as Kysely<Tables>)
          .updateTable('counters')
          .set({ note: 'must not stay' })
          .where('id', '=', 'a')
          .execute();
        await bumpGeneration(trx, { table: 'counters', id: 'b', expected: 5 });
      }),
      (e: unknown) =>
        e instanceof ConcurrentUpdateError &&
        e.table === 'counters' &&
        e.id === 'b' &&
        e.expectedGeneration === 5,
    );
    const row = await kysely()
      .selectFrom('counters')
      .selectAll()
      .where('id', '=', 'a')
      .executeTakeFirstOrThrow();
    assert.equal(row.note, null);
  });

  test('many concurrent writers: no lost update, every loser told so', async () => {
    const writers = 16;
    const attempts = 6;
    let wins = 0;
    let losses = 0;
    const writer = async (w: number): Promise<void> => {
      for (let i = 0; i < attempts; i++) {
        const seen = await kysely()
          .selectFrom('counters')
          .selectAll()
          .where('id', '=', 'a')
          .executeTakeFirstOrThrow();
        // Give the others a chance to write between the read and the write.
        await new Promise((resolve) => setTimeout(resolve, (w * 7 + i * 3) % 5));
        try {
          await inTransaction(ctx.db(), (trx) =>
            bumpGeneration(trx, {
              table: 'counters',
              id: 'a',
              expected: Number(seen.generation),
              set: { value: Number(seen.value) + 1 },
            }),
          );
          wins++;
        } catch (error) {
          assert.ok(error instanceof ConcurrentUpdateError, String(error));
          losses++;
        }
      }
    };
    await Promise.all(Array.from({ length: writers }, (_, w) => writer(w)));
    const row = await kysely()
      .selectFrom('counters')
      .selectAll()
      .where('id', '=', 'a')
      .executeTakeFirstOrThrow();
    assert.equal(wins + losses, writers * attempts);
    assert.ok(losses > 0, 'the writers did overlap');
    // Each win added one to the value it had read: any lost update would make value < wins.
    assert.equal(Number(row.value), wins);
    assert.equal(Number(row.generation), wins);
  });
});
