import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import type { Kysely } from 'kysely';
import { forEachBackend } from './support/backends.ts';

interface Tables {
  stamps: { id: number; at: Date | string; flag: boolean | number; label: string };
}

forEachBackend('dates and booleans as query parameters', (ctx) => {
  const db = () => ctx.db().kysely as unknown as Kysely<Tables>;
  before(async () => {
    const types = {
      sqlite: ['datetime', 'boolean'],
      postgresql: ['timestamptz', 'boolean'],
      mysql: ['datetime(6)', 'boolean'],
    }[ctx.backend];
    await db()
      .schema.createTable('stamps')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('at', types[0] as 'timestamp')
      .addColumn('flag', types[1] as 'boolean')
      .addColumn('label', 'varchar(20)')
      .execute();
  });

  test('a Date and a boolean are written and compared the same way on every backend', async () => {
    const early = new Date('2026-01-02T03:04:05.678Z');
    const late = new Date('2026-01-02T03:04:06.000Z');
    await db()
      .insertInto('stamps')
      .values([
        { id: 1, at: early, flag: true, label: 'early' },
        { id: 2, at: late, flag: false, label: 'late' },
      ])
      .execute();
    const rows = await db()
      .selectFrom('stamps')
      .selectAll()
      .where('at', '<', late)
      .where('flag', '=', true)
      .execute();
    assert.deepEqual(
      rows.map((r) => r.label),
      ['early'],
    );
    assert.equal(new Date(rows[0]?.at as string).getTime(), early.getTime());
    const inList = await db()
      .selectFrom('stamps')
      .select('label')
      .where('at', 'in', [early, late])
      .orderBy('id')
      .execute();
    assert.deepEqual(
      inList.map((r) => r.label),
      ['early', 'late'],
    );
  });

  test('a limit and an offset select the same rows on every backend (SQLite: in the text)', async () => {
    const page = db().selectFrom('stamps').select('label').orderBy('id').limit(1).offset(1);
    assert.deepEqual(
      (await page.execute()).map((r) => r.label),
      ['late'],
    );
    if (ctx.backend === 'sqlite') {
      // Bound, they would make SQLite prepare the statement again on every run.
      const compiled = page.compile();
      assert.match(compiled.sql, / limit 1 offset 1$/);
      assert.deepEqual(compiled.parameters, []);
    }
  });
});
