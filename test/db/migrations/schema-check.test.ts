/**
 * The startup check: new code refuses an older schema and names the
 * command that upgrades it; old code accepts a schema a newer release has
 * expanded (that is what the policy is for).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import {
  assertSchemaCurrent,
  checkSchema,
  type Database,
  migrateToLatest,
  parseDatabaseUrl,
  SchemaNotCurrentError,
  SchemaTooNewError,
  schemaHistoryOf,
} from '../../../src/db/index.ts';
import { forEachBackend } from '../support/backends.ts';
import { columnsOf, migration, migrationSet } from './fixtures.ts';

const first = migration('0001_nodes', [
  {
    op: 'createTable',
    table: 'nodes',
    columns: [{ name: 'id', type: 'integer', primaryKey: true }],
  },
]);
const second = migration(
  '0002_node_owner',
  [{ op: 'addColumn', table: 'nodes', column: { name: 'owner', type: 'string(255)' } }],
  { release: '2026.2' },
);
const release1 = migrationSet('startup', [first]);
const release2 = migrationSet('startup', [first, second]);

forEachBackend('schema currency at startup', (ctx) => {
  test('empty: refused without createIfEmpty, with the upgrade command and no password', async () => {
    // Same database, but as if its URL carried a password.
    const url = parseDatabaseUrl(
      ctx.backend === 'sqlite'
        ? ctx.url()
        : ctx
            .url()
            .replace('://', '://admin:s3cret@')
            .replace(/@[^@]*@/, '@'),
    );
    const withPassword: Database = { ...ctx.db(), url };
    const report = await checkSchema(withPassword, release2);
    assert.equal(report.state, 'empty');
    assert.deepEqual(report.pending, ['0001_nodes', '0002_node_owner']);
    assert.ok(report.message.includes(`baton db upgrade --service startup --db ${url.redacted}`));
    assert.ok(!report.message.includes('s3cret'));
    await assert.rejects(assertSchemaCurrent(ctx.db(), release2), (e: unknown) => {
      assert.ok(e instanceof SchemaNotCurrentError);
      assert.equal(e.report.state, 'empty');
      return true;
    });
    assert.deepEqual(await columnsOf(ctx.db(), 'nodes'), [], 'checking creates nothing');
  });

  test('behind: new code refuses to start on the older schema, naming the command', async () => {
    assert.equal((await migrateToLatest(ctx.db(), release1)).error, undefined);
    await assert.rejects(
      assertSchemaCurrent(ctx.db(), release2, { createIfEmpty: true }),
      (e: unknown) => {
        assert.ok(e instanceof SchemaNotCurrentError);
        assert.equal(e.report.state, 'behind');
        assert.deepEqual(e.report.pending, ['0002_node_owner']);
        assert.equal(
          e.message,
          `the schema of service startup is older than this code: 1 migration(s) pending (0002_node_owner); run \`baton db upgrade --service startup --db ${ctx.db().url.redacted}\` before starting it`,
        );
        return true;
      },
    );
    assert.deepEqual(await columnsOf(ctx.db(), 'nodes'), ['id'], 'createIfEmpty only creates');
  });

  test('current: starts', async () => {
    assert.equal((await migrateToLatest(ctx.db(), release2)).error, undefined);
    const report = await assertSchemaCurrent(ctx.db(), release2);
    assert.equal(report.state, 'current');
    assert.deepEqual(report.applied, ['0001_nodes', '0002_node_owner']);
    assert.match(report.message, /is current \(latest migration 0002_node_owner\)/);
  });

  test('ahead: the previous release keeps working on the expanded schema, and says so', async () => {
    const report = await assertSchemaCurrent(ctx.db(), release1);
    assert.equal(report.state, 'ahead');
    assert.deepEqual(report.unknown, ['0002_node_owner']);
    assert.match(
      report.message,
      /upgraded by a newer release \(0002_node_owner\); this release keeps working with it/,
    );
    // Its own run has nothing to do and does not complain either.
    assert.deepEqual(await migrateToLatest(ctx.db(), release1), { applied: [], alreadyApplied: 1 });
  });

  test('modified: a released migration was edited; refused', async () => {
    const edited = migrationSet('startup', [
      first,
      {
        ...second,
        operations: [{ op: 'addColumn', table: 'nodes', column: { name: 'owner', type: 'text' } }],
      },
    ]);
    await assert.rejects(assertSchemaCurrent(ctx.db(), edited), (e: unknown) => {
      assert.ok(e instanceof SchemaNotCurrentError);
      assert.equal(e.report.state, 'modified');
      assert.deepEqual(e.report.modified, ['0002_node_owner']);
      assert.match(e.message, /a released migration was edited/);
      return true;
    });
  });

  test('empty with createIfEmpty (the embedded default): everything is applied', async () => {
    const fresh = migrationSet('embedded', [
      migration('0001_things', [
        {
          op: 'createTable',
          table: 'things',
          columns: [{ name: 'id', type: 'integer', primaryKey: true }],
        },
      ]),
    ]);
    const report = await assertSchemaCurrent(ctx.db(), fresh, { createIfEmpty: true });
    assert.equal(report.state, 'current');
    assert.deepEqual(await columnsOf(ctx.db(), 'things'), ['id']);
  });
});

forEachBackend('schema two releases ahead of the code', (ctx) => {
  const table = (id: string, name: string, release: string) =>
    migration(
      id,
      [
        {
          op: 'createTable',
          table: name,
          columns: [{ name: 'id', type: 'integer', primaryKey: true }],
        },
      ],
      { release },
    );
  const r1 = table('0001_a', 'toonew_a', 'r1');
  const r2 = table('0002_b', 'toonew_b', 'r2');
  const r3 = table('0003_c', 'toonew_c', 'r3');
  const code = (releases: string[], migrations: ReturnType<typeof migration>[]) =>
    migrationSet('toonew', migrations, { releases });

  test('one release ahead starts (rolling upgrade); two ahead refuses with what to do', async () => {
    assert.equal(
      (await migrateToLatest(ctx.db(), code(['r1', 'r2', 'r3'], [r1, r2, r3]))).error,
      undefined,
    );
    const previous = await assertSchemaCurrent(ctx.db(), code(['r1', 'r2'], [r1, r2]));
    assert.equal(previous.state, 'ahead');
    assert.deepEqual(previous.unknownReleases, ['r3']);
    await assert.rejects(assertSchemaCurrent(ctx.db(), code(['r1'], [r1])), (e: unknown) => {
      assert.ok(e instanceof SchemaTooNewError);
      assert.ok(e instanceof SchemaNotCurrentError, 'the serving commands exit 1 on it');
      assert.deepEqual(e.report.unknownReleases, ['r2', 'r3']);
      assert.equal(
        e.message,
        "this is an older release than the database: the schema of service toonew has migrations of releases r2, r3 that this code does not know (0002_b, 0003_c), so this code is more than one release behind it; upgrade this host's code to release r2 or newer (the database's is r3) before starting it",
      );
      return true;
    });
  });
});

forEachBackend('which code applied the schema (a fresh install, or upgraded)', (ctx) => {
  const table = (id: string, name: string, release: string) =>
    migration(
      id,
      [
        {
          op: 'createTable',
          table: name,
          columns: [{ name: 'id', type: 'integer', primaryKey: true }],
        },
      ],
      { release },
    );
  const a = table('0001_a', 'applied_by_a', 'r1');
  const b = table('0002_b', 'applied_by_b', 'r2');

  test('a history table from before the record gets it; its rows count as older code', async () => {
    // The table as older code made it: no applied_by.
    await ctx
      .db()
      .kysely.schema.createTable('baton_schema_migrations')
      .addColumn('service', 'varchar(64)', (c) => c.notNull())
      .addColumn('id', 'varchar(128)', (c) => c.notNull())
      .addColumn('release', 'varchar(64)', (c) => c.notNull())
      .addColumn('checksum', 'varchar(64)', (c) => c.notNull())
      .addColumn('applied_at', ctx.backend === 'postgresql' ? 'timestamp' : 'datetime')
      .addColumn('steps_done', 'integer', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('baton_schema_migrations_pkey', ['service', 'id'])
      .execute();
    const legacy = migrationSet('legacy', [a], { releases: ['r1'] });
    assert.equal((await migrateToLatest(ctx.db(), legacy)).error, undefined);
    await sql`update baton_schema_migrations set applied_by = null`.execute(ctx.db().kysely);
    const upgraded = migrationSet('legacy', [a, b], { releases: ['r1', 'r2'] });
    assert.equal((await migrateToLatest(ctx.db(), upgraded)).error, undefined);
    const report = await checkSchema(ctx.db(), upgraded);
    assert.equal(report.state, 'current');
    assert.equal(report.appliedByOlderCode, true);
  });

  test("one release's code in one go: not older; release by release: older", async () => {
    const fresh = migrationSet(
      'fresh',
      [table('0001_c', 'applied_by_c', 'r1'), table('0002_d', 'applied_by_d', 'r2')],
      { releases: ['r1', 'r2'] },
    );
    assert.equal((await migrateToLatest(ctx.db(), fresh)).error, undefined);
    assert.equal((await checkSchema(ctx.db(), fresh)).appliedByOlderCode, false);
    const history = await schemaHistoryOf(ctx.db(), 'fresh');
    assert.deepEqual(
      history.map((row) => row.appliedBy),
      ['r2', 'r2'],
    );
  });
});
