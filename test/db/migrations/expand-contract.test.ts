/**
 * The proof the policy exists for (pgroll's test style): a small service
 * with two releases of schema and queries. Release 2026.1's queries, typed
 * against its own tables, keep working unchanged on release 2026.2's schema,
 * also on rows written by 2026.2 code, and the changes that would break them
 * are refused before they run; run anyway, they do break them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Kysely, sql } from 'kysely';
import {
  checkPolicy,
  compileOperation,
  type Database,
  type Migration,
  MigrationPolicyError,
  migrateToLatest,
  type Operation,
  openDatabase,
  type PolicyRule,
  policyViolations,
} from '../../../src/db/index.ts';
import { createScratchDatabase, forEachBackend } from '../support/backends.ts';
import { migration, migrationSet } from './fixtures.ts';

/** Release 2026.1's view of the tables. */
interface Release1Tables {
  consumers: { id: string; project: string; generation: number; note: string | null };
}

/** Release 2026.2's: new columns, a new table. */
interface Release2Tables {
  consumers: Release1Tables['consumers'] & { user_id: string | null; status: string };
  allocations: { id?: number; consumer_id: string; amount: number };
}

const release1 = [
  migration('0001_consumers', [
    {
      op: 'createTable',
      table: 'consumers',
      columns: [
        { name: 'id', type: 'string(36)', primaryKey: true },
        { name: 'project', type: 'string(36)', nullable: false },
        { name: 'generation', type: 'integer', nullable: false, default: 0 },
        { name: 'note', type: 'text' },
      ],
    },
  ]),
];
const release2: Migration[] = [
  ...release1,
  migration(
    '0002_consumer_user_and_status',
    [
      { op: 'addColumn', table: 'consumers', column: { name: 'user_id', type: 'string(36)' } },
      {
        op: 'addColumn',
        table: 'consumers',
        column: { name: 'status', type: 'string(16)', nullable: false, default: 'active' },
      },
      {
        op: 'createIndex',
        table: 'consumers',
        name: 'consumers_user_id_idx',
        columns: ['user_id'],
        concurrently: true,
      },
    ],
    { release: '2026.2' },
  ),
  migration(
    '0003_allocations',
    [
      {
        op: 'createTable',
        table: 'allocations',
        columns: [
          { name: 'id', type: 'integer', primaryKey: true, autoIncrement: true },
          { name: 'consumer_id', type: 'string(36)', nullable: false },
          { name: 'amount', type: 'integer', nullable: false },
        ],
        foreignKeys: [
          {
            columns: ['consumer_id'],
            references: { table: 'consumers', columns: ['id'] },
            onDelete: 'cascade',
          },
        ],
      },
    ],
    { release: '2026.2' },
  ),
];
/** 2026.2 stops needing consumers.note (its code still reads it). */
const deprecations = [{ table: 'consumers', column: 'note', release: '2026.2' }];
const service = (migrations: readonly Migration[]) =>
  migrationSet('consumers', migrations, { deprecations });

/** Release 2026.1's queries, unchanged from its code. They list their columns. */
function release1Queries(db: Kysely<Release1Tables>) {
  const columns = ['id', 'project', 'generation', 'note'] as const;
  return {
    create: (id: string, project: string) =>
      db.insertInto('consumers').values({ id, project, generation: 0, note: null }).execute(),
    get: (id: string) =>
      db.selectFrom('consumers').select(columns).where('id', '=', id).executeTakeFirst(),
    list: () => db.selectFrom('consumers').select(columns).orderBy('id').execute(),
    bump: async (id: string, generation: number, note: string) => {
      const result = await db
        .updateTable('consumers')
        .set({ generation: generation + 1, note })
        .where('id', '=', id)
        .where('generation', '=', generation)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },
    remove: async (id: string) =>
      Number(
        (await db.deleteFrom('consumers').where('id', '=', id).executeTakeFirst()).numDeletedRows,
      ),
  };
}

/** Release 2026.1's use of the table, start to finish; what it observed. */
async function release1Scenario(database: Database): Promise<unknown[]> {
  const q = release1Queries(database.kysely as unknown as Kysely<Release1Tables>);
  const seen: unknown[] = [];
  await q.create('c1', 'p1');
  await q.create('c2', 'p2');
  seen.push(await q.get('c1'));
  seen.push(await q.bump('c1', 0, 'hello'));
  seen.push(await q.bump('c1', 0, 'stale writer'));
  seen.push(await q.list());
  seen.push(await q.remove('c2'));
  seen.push(await q.list());
  seen.push(await q.remove('c1'));
  return seen;
}

async function outcome(database: Database): Promise<unknown> {
  try {
    return await release1Scenario(database);
  } catch (error) {
    return { threw: error instanceof Error ? error.message : String(error) };
  }
}

/** The breaking changes, each in the release it would ship in. */
const breaking: [string, Operation, string, PolicyRule][] = [
  [
    'renaming a column',
    { op: 'renameColumn', table: 'consumers', from: 'project', to: 'project_id' },
    '2026.2',
    'rename-column',
  ],
  [
    'changing a type',
    {
      op: 'alterColumn',
      table: 'consumers',
      column: 'generation',
      type: 'string(20)',
      nullable: false,
    },
    '2026.2',
    'alter-column',
  ],
  [
    'dropping a column never deprecated',
    { op: 'dropColumn', table: 'consumers', column: 'project' },
    '2026.2',
    'drop-not-deprecated',
  ],
  [
    'dropping a deprecated column one release later',
    { op: 'dropColumn', table: 'consumers', column: 'note' },
    '2027.1',
    'drop-too-early',
  ],
];

forEachBackend('expand/contract across two releases', (ctx) => {
  let baseline: unknown[] = [];

  test("release 2026.1's queries return the same results after release 2026.2's migrations", async () => {
    assert.equal((await migrateToLatest(ctx.db(), service(release1))).error, undefined);
    baseline = await release1Scenario(ctx.db());
    assert.deepEqual((baseline[0] as { project: string }).project, 'p1');
    const upgraded = await migrateToLatest(ctx.db(), service(release2));
    assert.equal(upgraded.error, undefined, upgraded.error?.message);
    assert.deepEqual(await release1Scenario(ctx.db()), baseline);
  });

  test('both releases read and write the same rows', async () => {
    const old = release1Queries(ctx.db().kysely as unknown as Kysely<Release1Tables>);
    const now = ctx.db().kysely as unknown as Kysely<Release2Tables>;
    await now
      .insertInto('consumers')
      .values({
        id: 'c3',
        project: 'p3',
        generation: 0,
        note: null,
        user_id: 'u3',
        status: 'active',
      })
      .execute();
    await now.insertInto('allocations').values({ consumer_id: 'c3', amount: 4 }).execute();
    assert.deepEqual(await old.get('c3'), { id: 'c3', project: 'p3', generation: 0, note: null });
    assert.equal(await old.bump('c3', 0, 'from 2026.1'), 1);
    await old.create('c4', 'p4');
    const rows = await now
      .selectFrom('consumers')
      .select(['id', 'generation', 'note', 'user_id', 'status'])
      .orderBy('id')
      .execute();
    assert.deepEqual(rows, [
      { id: 'c3', generation: 1, note: 'from 2026.1', user_id: 'u3', status: 'active' },
      { id: 'c4', generation: 0, note: null, user_id: null, status: 'active' },
    ]);
    assert.equal(await old.remove('c3'), 1);
    assert.deepEqual(await now.selectFrom('allocations').selectAll().execute(), []);
    await old.remove('c4');
  });

  for (const [what, operation, release, rule] of breaking) {
    test(`${what} is refused before it can break them; run anyway, it does`, async () => {
      const change = migration('0004_breaking', [operation], { release });
      const set = service([...release2, change]);
      assert.deepEqual(
        policyViolations(checkPolicy(set)).map((v) => v.rule),
        [rule],
      );
      const refused = await migrateToLatest(ctx.db(), set);
      assert.ok(refused.error instanceof MigrationPolicyError);
      assert.deepEqual(refused.applied, []);
      assert.deepEqual(await release1Scenario(ctx.db()), baseline);

      // Bypassing the runner on a copy of the 2026.2 schema shows what was prevented.
      const step = (() => {
        try {
          return compileOperation(operation, 0, ctx.backend);
        } catch {
          return undefined; // SQLite cannot even express a type change.
        }
      })();
      if (step?.kind !== 'sql') return;
      const scratch = await createScratchDatabase(ctx.backend);
      const copy = await openDatabase(scratch.url);
      try {
        assert.equal((await migrateToLatest(copy, service(release2))).error, undefined);
        for (const statement of step.statements) await sql.raw(statement).execute(copy.kysely);
        const broken = await outcome(copy);
        assert.notDeepEqual(broken, baseline);
      } finally {
        await copy.close();
        await scratch.drop();
      }
    });
  }

  test('the deprecated column may go two releases after its deprecation', () => {
    const drop = migration(
      '0004_drop_note',
      [{ op: 'dropColumn', table: 'consumers', column: 'note' }],
      {
        release: '2027.2',
      },
    );
    assert.deepEqual(policyViolations(checkPolicy(service([...release2, drop]))), []);
  });
});
