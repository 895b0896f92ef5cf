/**
 * Migrations that cannot run in one transaction (every one on MariaDB; one
 * with a concurrent index build on PostgreSQL) record their progress, so a
 * failed or interrupted run resumes where it stopped.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import {
  checkSchema,
  MigrationChecksumError,
  MigrationStepError,
  migrateToLatest,
  operationsChecksum,
  planMigration,
} from '../../../src/db/index.ts';
import { forEachBackend } from '../support/backends.ts';
import { anyKysely, columnsOf, migration, migrationSet } from './fixtures.ts';

const createTags = migration('0001_tags', [
  {
    op: 'createTable',
    table: 'tags',
    columns: [
      { name: 'id', type: 'integer', primaryKey: true },
      { name: 'label', type: 'string(32)' },
    ],
  },
]);

/** Its index cannot be unique: the labels repeat. */
const buggyIndex = migration('0002_tag_colours', [
  {
    op: 'createTable',
    table: 'colours',
    columns: [{ name: 'id', type: 'integer', primaryKey: true }],
  },
  { op: 'addColumn', table: 'tags', column: { name: 'colour_id', type: 'integer' } },
  {
    op: 'createIndex',
    table: 'tags',
    name: 'tags_label_idx',
    columns: ['label'],
    unique: true,
    concurrently: true,
  },
]);
const fixedIndex = migration('0002_tag_colours', [
  ...buggyIndex.operations.slice(0, 2),
  {
    op: 'createIndex',
    table: 'tags',
    name: 'tags_label_idx',
    columns: ['label'],
    concurrently: true,
  },
]);

forEachBackend('resuming migrations', (ctx) => {
  const atomic = () => planMigration(buggyIndex, ctx.db().caps).atomic;

  test('a failed operation: fixed in the migration, the run resumes after what was kept', async () => {
    assert.equal(
      (await migrateToLatest(ctx.db(), migrationSet('tags', [createTags]))).error,
      undefined,
    );
    await anyKysely(ctx.db())
      .insertInto('tags')
      .values([
        { id: 1, label: 'x' },
        { id: 2, label: 'x' },
      ])
      .execute();

    const failed = await migrateToLatest(ctx.db(), migrationSet('tags', [createTags, buggyIndex]));
    assert.ok(failed.error instanceof MigrationStepError, String(failed.error));
    assert.equal(failed.error.operation, 2);
    assert.equal(failed.error.kept, atomic() ? 0 : 2);
    const report = await checkSchema(ctx.db(), migrationSet('tags', [createTags, buggyIndex]));
    assert.equal(report.state, 'behind');
    if (!atomic()) assert.match(report.message, /interrupted part-way: 0002_tag_colours/);

    // Only the applied operations are covered by the recorded checksum: the
    // failed one may still be fixed.
    const resumed = await migrateToLatest(ctx.db(), migrationSet('tags', [createTags, fixedIndex]));
    assert.equal(resumed.error, undefined, resumed.error?.message);
    assert.deepEqual(
      resumed.applied.map((m) => m.id),
      ['0002_tag_colours'],
    );
    assert.deepEqual(await columnsOf(ctx.db(), 'tags'), ['colour_id', 'id', 'label']);
    const row = await anyKysely(ctx.db())
      .selectFrom('baton_schema_migrations')
      .select(['checksum', 'steps_done'])
      .where('id', '=', '0002_tag_colours')
      .executeTakeFirstOrThrow();
    assert.equal(row.checksum, operationsChecksum(fixedIndex.operations));
    assert.equal(Number(row.steps_done), 3);
    if (ctx.backend === 'postgresql') {
      // The failed concurrent build left an invalid index; the resume replaced it.
      const { rows } = await sql<{ valid: boolean }>`
        select i.indisvalid as valid from pg_index i join pg_class c on c.oid = i.indexrelid
        where c.relname = 'tags_label_idx'`.execute(ctx.db().kysely);
      assert.deepEqual(rows, [{ valid: true }]);
    }
  });

  const interruptedOnly = (backend: string) =>
    backend === 'sqlite' ? 'SQLite runs each migration in one transaction: never part-way' : false;

  test('a step that ran but was not recorded (the process died) is not run twice', {
    skip: interruptedOnly(ctx.backend),
  }, async () => {
    // As if the process died right after building the index.
    await anyKysely(ctx.db())
      .updateTable('baton_schema_migrations')
      .set({
        applied_at: null,
        steps_done: 2,
        checksum: operationsChecksum(fixedIndex.operations.slice(0, 2)),
      })
      .where('id', '=', '0002_tag_colours')
      .execute();
    const result = await migrateToLatest(ctx.db(), migrationSet('tags', [createTags, fixedIndex]));
    assert.equal(result.error, undefined, result.error?.message);
    assert.deepEqual(
      result.applied.map((m) => m.id),
      ['0002_tag_colours'],
    );
    const report = await checkSchema(ctx.db(), migrationSet('tags', [createTags, fixedIndex]));
    assert.equal(report.state, 'current');
  });

  test('an edit to the part already applied is refused', {
    skip: interruptedOnly(ctx.backend),
  }, async () => {
    await anyKysely(ctx.db())
      .updateTable('baton_schema_migrations')
      .set({
        applied_at: null,
        steps_done: 2,
        checksum: operationsChecksum(fixedIndex.operations.slice(0, 2)),
      })
      .where('id', '=', '0002_tag_colours')
      .execute();
    const edited = migration('0002_tag_colours', [
      fixedIndex.operations[0] as (typeof fixedIndex.operations)[0],
      { op: 'addColumn', table: 'tags', column: { name: 'colour', type: 'string(16)' } },
      fixedIndex.operations[2] as (typeof fixedIndex.operations)[0],
    ]);
    const result = await migrateToLatest(ctx.db(), migrationSet('tags', [createTags, edited]));
    assert.ok(result.error instanceof MigrationChecksumError, String(result.error));
    assert.equal(result.error.id, '0002_tag_colours');
    const report = await checkSchema(ctx.db(), migrationSet('tags', [createTags, edited]));
    assert.equal(report.state, 'modified');
  });
});
