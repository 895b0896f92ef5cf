/**
 * A foreign key added to an existing, populated table: an ALTER TABLE on
 * PostgreSQL and MariaDB, a table rebuild on SQLite. Rows, indexes and
 * keys must survive, and rows that break the new key must stop it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MigrationStepError, migrateToLatest } from '../../../src/db/index.ts';
import { indexState } from '../../../src/db/migrations/introspect.ts';
import { forEachBackend } from '../support/backends.ts';
import { anyKysely, columnsOf, migration, migrationSet } from './fixtures.ts';

const tables = migration('0001_tables', [
  {
    op: 'createTable',
    table: 'projects',
    columns: [{ name: 'id', type: 'integer', primaryKey: true }],
  },
  {
    op: 'createTable',
    table: 'members',
    columns: [
      { name: 'id', type: 'integer', primaryKey: true, autoIncrement: true },
      { name: 'project_id', type: 'integer', nullable: false },
      { name: 'name', type: 'string(32)' },
    ],
  },
  {
    op: 'createTable',
    table: 'badges',
    columns: [
      { name: 'id', type: 'integer', primaryKey: true },
      { name: 'member_id', type: 'integer', nullable: false },
    ],
    foreignKeys: [
      {
        columns: ['member_id'],
        references: { table: 'members', columns: ['id'] },
        onDelete: 'cascade',
      },
    ],
  },
  { op: 'createIndex', table: 'members', name: 'members_name_idx', columns: ['name'] },
]);
const addKey = migration(
  '0002_members_project_fk',
  [
    {
      op: 'addForeignKey',
      table: 'members',
      columns: ['project_id'],
      references: { table: 'projects', columns: ['id'] },
    },
  ],
  { release: '2026.2', acknowledgeLocks: 'members is small' },
);

forEachBackend('adding a foreign key to an existing table', (ctx) => {
  const db = () => anyKysely(ctx.db());

  test('rows that break the new key stop the migration, and nothing changes', async () => {
    assert.equal((await migrateToLatest(ctx.db(), migrationSet('fk', [tables]))).error, undefined);
    await db().insertInto('projects').values({ id: 1 }).execute();
    await db()
      .insertInto('members')
      .values([
        { project_id: 1, name: 'a' },
        { project_id: 1, name: 'b' },
        { project_id: 2, name: 'orphan' },
      ])
      .execute();
    await db().insertInto('badges').values({ id: 1, member_id: 1 }).execute();
    const result = await migrateToLatest(ctx.db(), migrationSet('fk', [tables, addKey]));
    assert.ok(result.error instanceof MigrationStepError, String(result.error));
    assert.equal(result.error.id, '0002_members_project_fk');
    assert.match(result.error.message, /failed at operation #0 \(addForeignKey members\)/);
    assert.equal((await db().selectFrom('members').selectAll().execute()).length, 3);
  });

  test('valid rows: the key is added; rows, indexes, incoming keys and ids survive', async () => {
    await db().deleteFrom('members').where('name', '=', 'orphan').execute();
    const result = await migrateToLatest(ctx.db(), migrationSet('fk', [tables, addKey]));
    assert.equal(result.error, undefined, result.error?.message);
    // SQLite rebuilds the table inside the migration's transaction: no lock others would see.
    assert.deepEqual(result.applied[0]?.lockWarnings.length, ctx.backend === 'sqlite' ? 0 : 1);

    const names = await db().selectFrom('members').select('name').orderBy('id').execute();
    assert.deepEqual(
      names.map((r) => r.name),
      ['a', 'b'],
    );
    assert.deepEqual(await columnsOf(ctx.db(), 'members'), ['id', 'name', 'project_id']);
    await assert.rejects(
      db().insertInto('members').values({ project_id: 99, name: 'orphan' }).execute(),
      'the new key is enforced',
    );
    await db().insertInto('members').values({ project_id: 1, name: 'c' }).execute();
    const c = await db()
      .selectFrom('members')
      .select('id')
      .where('name', '=', 'c')
      .executeTakeFirstOrThrow();
    assert.ok(Number(c.id) > 3, 'auto-increment continues after the old ids');
    await assert.rejects(
      db().insertInto('badges').values({ id: 2, member_id: 999 }).execute(),
      'keys pointing at the rebuilt table still hold',
    );
    await db().deleteFrom('members').where('name', '=', 'a').execute();
    assert.deepEqual(
      await db().selectFrom('badges').selectAll().execute(),
      [],
      'and still cascade',
    );
    assert.equal(await indexState(db(), ctx.backend, 'members', 'members_name_idx'), 'valid');
  });
});
