import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  MigrationChecksumError,
  MigrationOrderError,
  MigrationPolicyError,
  MigrationStepError,
  migrateToLatest,
  operationsChecksum,
} from '../../../src/db/index.ts';
import { forEachBackend } from '../support/backends.ts';
import { anyKysely, columnsOf, historyIds, migration, migrationSet } from './fixtures.ts';

const createItems = migration('0001_create_items', [
  {
    op: 'createTable',
    table: 'items',
    columns: [
      { name: 'id', type: 'integer', primaryKey: true, autoIncrement: true },
      { name: 'name', type: 'string(64)', nullable: false },
      { name: 'big', type: 'bigint' },
      { name: 'body', type: 'text' },
      { name: 'done', type: 'boolean', nullable: false, default: false },
      { name: 'at', type: 'datetime' },
      { name: 'data', type: 'json' },
      { name: 'ratio', type: 'float' },
    ],
    unique: [{ columns: ['name'] }],
  },
]);
const addColour = migration('0002_add_colour', [
  { op: 'addColumn', table: 'items', column: { name: 'colour', type: 'string(16)' } },
  {
    op: 'addColumn',
    table: 'items',
    column: { name: 'size', type: 'integer', nullable: false, default: 1 },
  },
  {
    op: 'createIndex',
    table: 'items',
    name: 'items_colour_idx',
    columns: ['colour'],
    concurrently: true,
  },
]);

forEachBackend('migration runner', (ctx) => {
  test('applies pending migrations in order and records them with their checksums', async () => {
    const set = migrationSet('runner', [createItems, addColour]);
    const result = await migrateToLatest(ctx.db(), set);
    assert.equal(result.error, undefined, result.error?.message);
    assert.deepEqual(
      result.applied.map((m) => m.id),
      ['0001_create_items', '0002_add_colour'],
    );
    assert.equal(result.alreadyApplied, 0);
    assert.deepEqual(await columnsOf(ctx.db(), 'items'), [
      'at',
      'big',
      'body',
      'colour',
      'data',
      'done',
      'id',
      'name',
      'ratio',
      'size',
    ]);
    const rows = await anyKysely(ctx.db())
      .selectFrom('baton_schema_migrations')
      .select(['id', 'release', 'checksum', 'steps_done'])
      .where('service', '=', 'runner')
      .orderBy('id')
      .execute();
    assert.deepEqual(
      rows.map((r) => [r.id, r.release, r.checksum, Number(r.steps_done)]),
      [
        ['0001_create_items', '2026.1', operationsChecksum(createItems.operations), 1],
        ['0002_add_colour', '2026.1', operationsChecksum(addColour.operations), 3],
      ],
    );
  });

  test('a second run finds everything applied', async () => {
    const result = await migrateToLatest(
      ctx.db(),
      migrationSet('runner', [createItems, addColour]),
    );
    assert.deepEqual(result, { applied: [], alreadyApplied: 2 });
  });

  test('every portable type stores and returns its values', async () => {
    const db = anyKysely(ctx.db());
    await db
      .insertInto('items')
      .values({
        name: 'a',
        big: 9_007_199_254_740_991,
        body: 'x'.repeat(70_000),
        done: 1, // better-sqlite3 binds no booleans; 1 reads as true everywhere
        ratio: 0.5,
        data: '{"k":[1,2]}',
        at: '2026-03-01 12:00:00',
      })
      .execute();
    const row = await db
      .selectFrom('items')
      .selectAll()
      .where('name', '=', 'a')
      .executeTakeFirstOrThrow();
    assert.equal(Number(row.big), 9_007_199_254_740_991);
    assert.equal(String(row.body).length, 70_000);
    assert.equal(Boolean(row.done), true);
    assert.equal(Number(row.ratio), 0.5);
    const data = typeof row.data === 'string' ? JSON.parse(row.data) : row.data;
    assert.deepEqual(data, { k: [1, 2] });
    assert.equal(Number(row.size), 1, 'the default fills the NOT NULL column');
    assert.equal(row.colour, null);
    assert.ok(Number(row.id) >= 1);
  });

  test('an applied migration whose operations changed is refused, naming it; nothing runs', async () => {
    const edited = migration('0002_add_colour', [
      { op: 'addColumn', table: 'items', column: { name: 'colour', type: 'string(32)' } },
    ]);
    const later = migration('0003_add_shape', [
      { op: 'addColumn', table: 'items', column: { name: 'shape', type: 'string(16)' } },
    ]);
    const result = await migrateToLatest(
      ctx.db(),
      migrationSet('runner', [createItems, edited, later]),
    );
    assert.ok(result.error instanceof MigrationChecksumError, String(result.error));
    assert.equal(result.error.id, '0002_add_colour');
    assert.match(
      result.error.message,
      /migration 0002_add_colour of service runner was applied with checksum/,
    );
    assert.match(result.error.message, /put the change in a new migration/);
    assert.deepEqual(result.applied, []);
    assert.ok(!(await columnsOf(ctx.db(), 'items')).includes('shape'));
  });

  test('a migration slipped in before an applied one is refused', async () => {
    const slipped = migration('0001b_add_weight', [
      { op: 'addColumn', table: 'items', column: { name: 'weight', type: 'float' } },
    ]);
    const result = await migrateToLatest(
      ctx.db(),
      migrationSet('runner', [createItems, slipped, addColour]),
    );
    assert.ok(result.error instanceof MigrationOrderError, String(result.error));
    assert.match(
      result.error.message,
      /migration 0001b_add_weight of service runner is pending but 0002_add_colour, which comes after it, is already applied/,
    );
    assert.ok(!(await columnsOf(ctx.db(), 'items')).includes('weight'));
  });

  test('the policy is checked at run time: a violating set runs nothing at all', async () => {
    const ok = migration('0001_create_crates', [
      {
        op: 'createTable',
        table: 'crates',
        columns: [{ name: 'id', type: 'integer', primaryKey: true }],
      },
    ]);
    const rename = migration('0002_rename', [
      { op: 'renameColumn', table: 'crates', from: 'id', to: 'crate_id' },
    ]);
    const result = await migrateToLatest(ctx.db(), migrationSet('policy', [ok, rename]));
    assert.ok(result.error instanceof MigrationPolicyError);
    assert.deepEqual(
      result.error.violations.map((v) => [v.migration, v.rule]),
      [['0002_rename', 'rename-column']],
    );
    assert.match(result.error.message, /nothing was run/);
    assert.deepEqual(await columnsOf(ctx.db(), 'crates'), []);
  });

  test('a failing operation stops the run with the operation named; earlier migrations stay', async () => {
    const boxes = migration('0001_boxes', [
      {
        op: 'createTable',
        table: 'boxes',
        columns: [{ name: 'id', type: 'integer', primaryKey: true }],
      },
    ]);
    const broken = migration(
      '0002_broken',
      [
        {
          op: 'createTable',
          table: 'lids',
          columns: [{ name: 'id', type: 'integer', primaryKey: true }],
        },
        { op: 'createIndex', table: 'boxes', name: 'boxes_nope_idx', columns: ['nope'] },
      ],
      { acknowledgeLocks: 'boxes is tiny' },
    );
    const result = await migrateToLatest(ctx.db(), migrationSet('failing', [boxes, broken]));
    assert.ok(result.error instanceof MigrationStepError, String(result.error));
    assert.equal(result.error.id, '0002_broken');
    assert.equal(result.error.operation, 1);
    assert.match(result.error.message, /failed at operation #1 \(createIndex boxes_nope_idx\)/);
    assert.deepEqual(
      result.applied.map((m) => m.id),
      ['0001_boxes'],
    );
    assert.deepEqual(await historyIds(ctx.db(), 'failing'), ['0001_boxes']);
    if (ctx.db().caps.transactionalDdl) {
      assert.equal(result.error.kept, 0);
      assert.deepEqual(await columnsOf(ctx.db(), 'lids'), [], 'rolled back with its migration');
    } else {
      assert.equal(result.error.kept, 1);
      assert.match(result.error.message, /run the upgrade again to resume/);
    }
  });
});
