import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import { type Database, openDatabase } from '../../src/db/index.ts';
import { hasFixedResultColumns } from '../../src/db/pg-prepared.ts';
import { backendAvailable, createScratchDatabase } from './support/backends.ts';

describe('prepared statements: which statements may be named', () => {
  test('a `*` other than count(*) leaves a statement unnamed', () => {
    assert.equal(hasFixedResultColumns('select "id" from "t" where "x" = $1'), true);
    assert.equal(hasFixedResultColumns('select count(*) from t where x = $1'), true);
    assert.equal(hasFixedResultColumns('select COUNT(*) as n, y from t where x = $1'), true);
    assert.equal(hasFixedResultColumns('select * from "t" where "x" = $1'), false);
    assert.equal(hasFixedResultColumns('select "rp".* from "rp" where "x" = $1'), false);
    assert.equal(hasFixedResultColumns('update t set a = 1 where x = $1 returning *'), false);
  });
});

describe('prepared statements [postgresql]', async () => {
  const unavailable = await backendAvailable('postgresql');
  if (unavailable !== undefined) {
    test(unavailable, { skip: unavailable }, () => {});
    return;
  }
  let scratch: { url: string; drop: () => Promise<void> };
  let database: Database;
  before(async () => {
    scratch = await createScratchDatabase('postgresql');
    // One connection, so every query below runs on the session whose statements are listed.
    database = await openDatabase(scratch.url, {
      poolSize: 1,
      preparedStatements: { maxPerConnection: 3 },
    });
    await sql`create table items (id integer primary key, name text not null)`.execute(
      database.kysely,
    );
    await sql`insert into items values (1, 'one'), (2, 'two'), (3, 'three')`.execute(
      database.kysely,
    );
  });
  after(async () => {
    await database?.close();
    await scratch?.drop();
  });

  const preparedTexts = async (db: Kysely<Record<string, unknown>>) =>
    (
      await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(db)
    ).rows.map((row) => row.statement);

  test('a statement run twice is prepared on the connection; its answers do not change', async () => {
    const byId = (id: number) =>
      sql<{ name: string }>`select name from items where id = ${id}`.execute(database.kysely);
    assert.deepEqual((await byId(1)).rows, [{ name: 'one' }]);
    assert.equal(
      (await preparedTexts(database.kysely)).some((t) => t.includes('from items where id')),
      false,
      'not named the first time',
    );
    assert.deepEqual((await byId(2)).rows, [{ name: 'two' }]);
    assert.deepEqual((await byId(3)).rows, [{ name: 'three' }]);
    assert.deepEqual((await byId(4)).rows, []);
    const texts = await preparedTexts(database.kysely);
    assert.equal(texts.filter((t) => t.includes('from items where id')).length, 1);
  });

  test('`select *` is never prepared, and a column added later shows in its answers', async () => {
    const all = (id: number) => sql`select * from items where id = ${id}`.execute(database.kysely);
    await all(1);
    await all(1);
    assert.equal(
      (await preparedTexts(database.kysely)).some((t) => t.includes('select *')),
      false,
    );
    await sql`alter table items add column size integer`.execute(database.kysely);
    assert.deepEqual((await all(1)).rows, [{ id: 1, name: 'one', size: null }]);
  });

  test('a failing prepared statement leaves the connection usable', async () => {
    const insert = (id: number) =>
      sql`insert into items (id, name) values (${id}, ${'x'})`.execute(database.kysely);
    await assert.rejects(insert(1), { code: '23505' });
    await assert.rejects(insert(1), { code: '23505' }, 'named now, and failing the same way');
    await insert(4);
    const rows = await sql<{
      n: string;
    }>`select count(*) as n from items where id < ${100}`.execute(database.kysely);
    assert.equal(Number(rows.rows[0]?.n), 4);
    assert.equal(
      (await preparedTexts(database.kysely)).filter((t) => t.startsWith('insert into items'))
        .length,
      1,
    );
  });
  test('a prepared statement whose result type changed fails once, then runs unnamed', async () => {
    const byId = (id: number) =>
      sql<{ name: string }>`select name from items where id = ${id}`.execute(database.kysely);
    await sql`alter table items alter column name type varchar(20)`.execute(database.kysely);
    await assert.rejects(byId(1), { code: '0A000' });
    assert.deepEqual((await byId(1)).rows, [{ name: 'one' }]);
    assert.deepEqual((await byId(2)).rows, [{ name: 'two' }]);
  });

  test('at most maxPerConnection statements are named; the others still run', async () => {
    for (const column of ['id', 'name', 'size']) {
      for (let i = 0; i < 2; i++) {
        const rows = await sql`select ${sql.ref(column)} from items where id > ${i}`.execute(
          database.kysely,
        );
        assert.ok(rows.rows.length > 0);
      }
    }
    assert.equal((await preparedTexts(database.kysely)).length, 3);
  });
});
