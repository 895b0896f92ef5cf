import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import type { Kysely } from 'kysely';
import { runTemplate } from '../../src/db/query-templates.ts';
import { forEachBackend } from './support/backends.ts';

// biome-ignore lint/suspicious/noExplicitAny: scratch tables
type Db = Kysely<any>;

forEachBackend('query templates', (ctx) => {
  const db = () => ctx.db().kysely as Db;

  before(async () => {
    await db()
      .schema.createTable('things')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('name', 'varchar(40)', (c) => c.notNull())
      .addColumn('kind', 'varchar(40)', (c) => c.notNull())
      .execute();
    await db()
      .insertInto('things')
      .values([
        { id: 1, name: 'a', kind: 'x' },
        { id: 2, name: 'b', kind: 'x' },
        { id: 3, name: 'c', kind: 'y' },
      ])
      .execute();
  });

  const byName = (name: string) =>
    db().selectFrom('things').select(['id', 'name']).where('name', '=', name).limit(1);

  test('each run gets its own values, not those it was compiled with', async () => {
    const first = await runTemplate(db(), 'thing by name', byName, ['a']);
    const second = await runTemplate(db(), 'thing by name', byName, ['c']);
    assert.deepEqual(
      first.map((row) => Number(row.id)),
      [1],
    );
    assert.deepEqual(
      second.map((row) => Number(row.id)),
      [3],
    );
    assert.deepEqual(await runTemplate(db(), 'thing by name', byName, ['none']), []);
  });

  test('values the query sets itself stay as compiled, with several values in a list', async () => {
    const ofKind = (...ids: number[]) =>
      db()
        .selectFrom('things')
        .select('name')
        .where('kind', '=', 'x')
        .where('id', 'in', ids)
        .orderBy('id');
    const names = async (ids: number[]) =>
      (await runTemplate(db(), `x things of ${ids.length}`, ofKind, ids)).map((row) => row.name);
    assert.deepEqual(await names([1, 3]), ['a']);
    assert.deepEqual(await names([2, 1]), ['a', 'b']);
    assert.deepEqual(await names([3]), []);
  });

  test('a value the query does not use as a parameter is refused', async () => {
    await assert.rejects(
      runTemplate(db(), 'ignores its value', () => db().selectFrom('things').select('id'), [1]),
      /value 0 is not a parameter/,
    );
  });
});
