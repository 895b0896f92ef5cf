import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import type { Kysely } from 'kysely';
import {
  type Database,
  insertOneOrIgnore,
  insertOrIgnore,
  inTransaction,
  openDatabase,
} from '../../src/db/index.ts';
import { forEachBackend } from './support/backends.ts';
import { gate, untilLockWaiters } from './support/lock-waits.ts';

// biome-ignore lint/suspicious/noExplicitAny: scratch tables
type Db = Kysely<any>;

forEachBackend('insert-or-ignore', (ctx) => {
  const db = () => ctx.db().kysely as Db;
  let other: Database | undefined;

  before(async () => {
    // A second handle for a second writer. SQLite's writers queue on one handle instead: a
    // second handle in the same process would wait for the write lock synchronously,
    // stopping the first writer's thread too.
    other = ctx.db().caps.singleWriter ? ctx.db() : await openDatabase(ctx.url());
    const serial = ctx.backend === 'postgresql';
    await db()
      .schema.createTable('parents')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .execute();
    await db().insertInto('parents').values({ id: 1 }).execute();
    await db()
      .schema.createTable('items')
      .addColumn('id', serial ? 'serial' : 'integer', (c) =>
        serial ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('k', 'varchar(40)', (c) => c.notNull().unique())
      .addColumn('alt', 'varchar(40)', (c) => c.unique())
      .addColumn('n', 'integer', (c) => c.notNull())
      .addColumn('parent_id', 'integer')
      .addForeignKeyConstraint('items_parent', ['parent_id'], 'parents', ['id'])
      .execute();
  });
  test.after(async () => {
    if (other !== ctx.db()) await other?.close();
  });

  async function rowsOf(k: string) {
    return db().selectFrom('items').select(['k', 'n', 'alt']).where('k', 'like', `${k}%`).execute();
  }

  test('inserts the new rows and skips those whose key is taken, without an error', async () => {
    const caps = ctx.db().caps;
    await insertOrIgnore(db(), caps, 'items', [{ k: 'a1', n: 1 }], ['k']);
    await insertOrIgnore(
      db(),
      caps,
      'items',
      [
        { k: 'a1', n: 2 },
        { k: 'a2', n: 2 },
      ],
      ['k'],
    );
    const rows = await rowsOf('a');
    assert.deepEqual(
      rows.map((r) => [r.k, Number(r.n)]).sort(),
      [
        ['a1', 1],
        ['a2', 2],
      ],
      'the existing row is kept as it was',
    );
  });

  test('one row: true when this call inserted it, false when it was there', async () => {
    const caps = ctx.db().caps;
    assert.equal(await insertOneOrIgnore(db(), caps, 'items', { k: 'b1', n: 1 }, ['k']), true);
    assert.equal(await insertOneOrIgnore(db(), caps, 'items', { k: 'b1', n: 9 }, ['k']), false);
    const again = await inTransaction(ctx.db(), async (trx) => {
      const first = await insertOneOrIgnore(trx, caps, 'items', { k: 'b2', n: 1 }, ['k']);
      const second = await insertOneOrIgnore(trx, caps, 'items', { k: 'b2', n: 2 }, ['k']);
      return [first, second];
    });
    assert.deepEqual(again, [true, false], 'inside one transaction too');
    assert.deepEqual((await rowsOf('b')).map((r) => [r.k, Number(r.n)]).sort(), [
      ['b1', 1],
      ['b2', 1],
    ]);
  });

  test('a NULL in a NOT NULL column is still an error, and nothing is stored', async () => {
    // MariaDB's INSERT IGNORE would store 0 with a warning; SQLite's OR IGNORE would drop it.
    const caps = ctx.db().caps;
    await assert.rejects(insertOrIgnore(db(), caps, 'items', [{ k: 'c1', n: null }], ['k']));
    await assert.rejects(insertOneOrIgnore(db(), caps, 'items', { k: 'c2', n: null }, ['k']));
    assert.deepEqual(await rowsOf('c'), []);
  });

  test('a row breaking a foreign key is still an error, and nothing is stored', async () => {
    // MariaDB's INSERT IGNORE would skip the row silently.
    const caps = ctx.db().caps;
    const orphan = { k: 'd1', n: 1, parent_id: 99 };
    await assert.rejects(insertOrIgnore(db(), caps, 'items', [orphan], ['k']));
    await assert.rejects(insertOneOrIgnore(db(), caps, 'items', orphan, ['k']));
    assert.equal(
      await insertOneOrIgnore(db(), caps, 'items', { ...orphan, parent_id: 1 }, ['k']),
      true,
    );
  });

  test("'any' skips a duplicate of any unique key", async () => {
    const caps = ctx.db().caps;
    await insertOrIgnore(db(), caps, 'items', [{ k: 'e1', alt: 'e-alt', n: 1 }], 'any');
    await insertOrIgnore(db(), caps, 'items', [{ k: 'e2', alt: 'e-alt', n: 2 }], 'any');
    assert.deepEqual(
      (await rowsOf('e')).map((r) => r.k),
      ['e1'],
    );
  });

  for (const outcome of ['commits', 'rolls back'] as const) {
    test(`a second writer waits for the first one's row, then ${outcome === 'commits' ? 'skips it' : 'inserts it'} (first ${outcome})`, async () => {
      const caps = ctx.db().caps;
      const key = `race-${outcome === 'commits' ? 'c' : 'r'}`;
      const inserted = gate();
      const finish = gate();
      const first = inTransaction(ctx.db(), async (trx) => {
        await insertOneOrIgnore(trx, caps, 'items', { k: key, n: 1 }, ['k']);
        inserted.open();
        await finish.wait;
        if (outcome === 'rolls back') throw new Error('first writer gives up');
      }).catch((error: Error) => error.message);
      await inserted.wait;
      const second = inTransaction(other as Database, (trx) =>
        insertOneOrIgnore(trx, caps, 'items', { k: key, n: 2 }, ['k']),
      );
      // The second writer is blocked on the first one's uncommitted row (PostgreSQL, MariaDB);
      // on SQLite it waits for the handle the first one holds.
      await untilLockWaiters(ctx.db());
      finish.open();
      await first;
      assert.equal(await second, outcome === 'rolls back');
      assert.deepEqual(
        (await rowsOf(key)).map((r) => Number(r.n)),
        [outcome === 'commits' ? 1 : 2],
      );
    });
  }
});
