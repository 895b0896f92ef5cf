/**
 * A blocker migration waits for its online data migration: it would
 * otherwise drop or constrain rows that have not been migrated yet.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  checkSchema,
  type Migration,
  MigrationBlockedError,
  migrateToLatest,
} from '../../../src/db/index.ts';
import { forEachBackend } from '../support/backends.ts';
import { type AnyKysely, anyKysely, columnsOf, migration, migrationSet } from './fixtures.ts';

const createConsumers = migration('0001_consumers', [
  {
    op: 'createTable',
    table: 'consumers',
    columns: [
      { name: 'id', type: 'integer', primaryKey: true },
      { name: 'project', type: 'string(36)' },
    ],
  },
]);
const addProjectId = migration(
  '0002_add_project_id',
  [{ op: 'addColumn', table: 'consumers', column: { name: 'project_id', type: 'string(36)' } }],
  { release: '2026.2' },
);
let seenBy: AnyKysely | undefined;
const indexProjectId: Migration = migration(
  '0003_index_project_id',
  [
    {
      op: 'createIndex',
      table: 'consumers',
      name: 'consumers_project_id_idx',
      columns: ['project_id'],
      concurrently: true,
    },
  ],
  {
    release: '2026.2',
    blockedBy: {
      onlineMigration: 'copy_consumer_project',
      remaining: async (db) => {
        seenBy = db;
        const row = await db
          .selectFrom('consumers')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('project_id', 'is', null)
          .executeTakeFirstOrThrow();
        return Number(row.n);
      },
    },
  },
);
const addNote = migration(
  '0004_add_note',
  [{ op: 'addColumn', table: 'consumers', column: { name: 'note', type: 'text' } }],
  { release: '2026.2' },
);

forEachBackend('blocker migrations', (ctx) => {
  const v1 = migrationSet('blocked', [createConsumers]);
  const v2 = migrationSet('blocked', [createConsumers, addProjectId, indexProjectId, addNote]);

  test('refused while the online migration has rows left; earlier migrations of the run are applied', async () => {
    assert.equal((await migrateToLatest(ctx.db(), v1)).error, undefined);
    await anyKysely(ctx.db())
      .insertInto('consumers')
      .values([
        { id: 1, project: 'p1' },
        { id: 2, project: 'p2' },
        { id: 3, project: 'p2' },
      ])
      .execute();

    const result = await migrateToLatest(ctx.db(), v2);
    assert.ok(result.error instanceof MigrationBlockedError, String(result.error));
    assert.equal(result.error.id, '0003_index_project_id');
    assert.equal(result.error.onlineMigration, 'copy_consumer_project');
    assert.equal(result.error.remaining, 3);
    assert.equal(result.error.command, 'baton db online-migrations --service blocked');
    assert.match(
      result.error.message,
      /migration 0003_index_project_id of service blocked is blocked: online migration 'copy_consumer_project' still has 3 row\(s\) to migrate; run `baton db online-migrations --service blocked`/,
    );
    assert.deepEqual(
      result.applied.map((m) => m.id),
      ['0002_add_project_id'],
    );
    assert.ok(seenBy, 'remaining() got a query handle');
    assert.ok(!(await columnsOf(ctx.db(), 'consumers')).includes('note'), 'later ones wait too');
    const report = await checkSchema(ctx.db(), v2);
    assert.equal(report.state, 'behind');
    assert.deepEqual(report.pending, ['0003_index_project_id', '0004_add_note']);
  });

  test("a service of the toolkit's user names its own commands in what it is told", async () => {
    const own = {
      ...v2,
      commands: {
        upgrade: 'blocked-manage db-upgrade --db {db}',
        onlineMigrations: 'blocked-manage online-migrations',
      },
    };
    const result = await migrateToLatest(ctx.db(), own);
    assert.ok(result.error instanceof MigrationBlockedError, String(result.error));
    assert.equal(result.error.command, 'blocked-manage online-migrations');
    assert.match(result.error.message, /; run `blocked-manage online-migrations` until/);
    const report = await checkSchema(ctx.db(), own);
    assert.match(report.message, /run `blocked-manage db-upgrade --db \S+`/);
    assert.doesNotMatch(report.message, /baton db|\{db\}/);
  });

  test('once the online migration is done, the rest applies', async () => {
    // What the online migration does, in batches, while services keep running.
    await anyKysely(ctx.db())
      .updateTable('consumers')
      .set((eb) => ({ project_id: eb.ref('project') }))
      .execute();
    const result = await migrateToLatest(ctx.db(), v2);
    assert.equal(result.error, undefined, result.error?.message);
    assert.deepEqual(
      result.applied.map((m) => m.id),
      ['0003_index_project_id', '0004_add_note'],
    );
    assert.equal(result.alreadyApplied, 2);
    assert.equal((await checkSchema(ctx.db(), v2)).state, 'current');
  });

  test('an applied blocker is not asked again', async () => {
    await anyKysely(ctx.db()).insertInto('consumers').values({ id: 4, project: 'p4' }).execute();
    seenBy = undefined;
    const result = await migrateToLatest(ctx.db(), v2);
    assert.deepEqual(result, { applied: [], alreadyApplied: 4 });
    assert.equal(seenBy, undefined);
  });
});
