/**
 * `baton db upgrade` shows its progress step by step: off a terminal, a line per migration,
 * then for a step still running after a few seconds (a backfill, an index on a big table) a
 * line every few seconds and one when it ends; quick steps print nothing. On each backend,
 * with a table of rows the second migration backfills and indexes; the clock is fake: only
 * the backfill is made slow, by the heartbeat timer the command starts for it.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { dbUpgrade } from '../../src/cli/db-upgrade-command.ts';
import type { ProgressEnv } from '../../src/cli/progress-env.ts';
import type { Migration, MigrationStepEvent } from '../../src/db/index.ts';
import { migrateToLatest } from '../../src/db/index.ts';
import { PLACEMENT_SERVICE } from '../../src/placement/service.ts';
import { defineService, type ServiceDefinition } from '../../src/service/index.ts';
import { anyKysely, migration, migrationSet } from '../db/migrations/fixtures.ts';
import { forEachBackend } from '../db/support/backends.ts';

const ROWS = 300;

const createWidgets = migration('0001_widgets', [
  {
    op: 'createTable',
    table: 'pw_widgets',
    columns: [
      { name: 'id', type: 'integer', primaryKey: true, autoIncrement: true },
      { name: 'name', type: 'string(64)', nullable: false },
    ],
  },
]);
const backfillColour: Migration = migration(
  '0002_colour',
  [
    { op: 'addColumn', table: 'pw_widgets', column: { name: 'colour', type: 'string(16)' } },
    {
      op: 'sql',
      sql: "update pw_widgets set colour = 'grey' where colour is null",
      reviewed: 'a backfill of a new nullable column: the previous release never reads it',
    },
    {
      op: 'createIndex',
      table: 'pw_widgets',
      name: 'pw_widgets_colour_idx',
      columns: ['colour'],
      concurrently: true,
    },
  ],
  { release: '2026.2' },
);

function widgets(...migrations: Migration[]): ServiceDefinition {
  const { releases: _, ...rest } = PLACEMENT_SERVICE;
  return defineService({
    ...rest,
    name: 'widgets',
    migrations: migrationSet('widgets', migrations),
    releases: { '2026.1': { api: '1.39', objects: {} } },
  });
}

/**
 * A non-terminal env: the clock moves only when the heartbeat of the `slow`-th step started
 * fires, three times, 5 s apart (the step "runs" 15 s); other steps take no time.
 */
function fakeEnv(slow: number): ProgressEnv {
  let clock = 0;
  let timers = 0;
  return {
    tty: false,
    stream: new Writable({ write: (_c, _e, done) => done() }),
    now: () => clock,
    sleep: async () => {},
    every: (ms, tick) => {
      timers += 1;
      if (timers === slow) {
        for (let i = 0; i < 3; i++) {
          clock += ms;
          tick();
        }
      }
      return () => {};
    },
    intervalMs: 5_000,
  };
}

forEachBackend('baton db upgrade: progress per step', (ctx) => {
  test('the runner reports each step as it starts and ends, in order', async () => {
    const events: MigrationStepEvent[] = [];
    const set = migrationSet('steps', [
      migration('0001_a', [
        {
          op: 'createTable',
          table: 'ps_a',
          columns: [{ name: 'id', type: 'integer', primaryKey: true }],
        },
        { op: 'addColumn', table: 'ps_a', column: { name: 'b', type: 'string(32)' } },
        { op: 'createIndex', table: 'ps_a', name: 'ps_a_b_idx', columns: ['id', 'b'] },
      ]),
    ]);
    const result = await migrateToLatest(ctx.db(), set, { onStep: (e) => events.push(e) });
    assert.equal(result.error, undefined);
    assert.deepEqual(
      events.map((e) => `${e.migration} ${e.step}/${e.steps} ${e.operation} ${e.phase}`),
      [
        '0001_a 1/3 createTable ps_a start',
        '0001_a 1/3 createTable ps_a done',
        '0001_a 2/3 addColumn ps_a start',
        '0001_a 2/3 addColumn ps_a done',
        '0001_a 3/3 createIndex ps_a_b_idx on ps_a start',
        '0001_a 3/3 createIndex ps_a_b_idx on ps_a done',
      ],
    );
  });

  test('off a terminal: a line per migration, and lines for the slow backfill only', async () => {
    const options = { service: 'widgets', db: ctx.url() };
    let out = '';
    const first = await dbUpgrade(
      options,
      (l) => (out += `${l}\n`),
      fakeEnv(0),
      widgets(createWidgets),
    );
    assert.equal(first, 0);
    assert.equal(
      out,
      `widgets: database ${ctx.db().url.redacted}\n0001_widgets (2026.1): 1 steps\napplied 0001_widgets (2026.1)\nwidgets: 1 migration(s) applied; the schema is up to date\n`,
    );
    await anyKysely(ctx.db())
      .insertInto('pw_widgets')
      .values(Array.from({ length: ROWS }, (_, i) => ({ name: `w${i}` })))
      .execute();

    out = '';
    // The second migration's steps start timers 1, 2 and 3: the backfill is the second.
    const second = await dbUpgrade(
      options,
      (l) => (out += `${l}\n`),
      fakeEnv(2),
      widgets(createWidgets, backfillColour),
    );
    assert.equal(second, 0, out);
    assert.deepEqual(
      out.split('\n').filter((line) => line.startsWith('0002_colour')),
      [
        '0002_colour (2026.2): 3 steps',
        '0002_colour: step 2 of 3 (sql) running for 5 s',
        '0002_colour: step 2 of 3 (sql) running for 10 s',
        '0002_colour: step 2 of 3 (sql) running for 15 s',
        '0002_colour: step 2 of 3 (sql) done in 15 s',
      ],
    );
    assert.match(out, /applied 0002_colour \(2026\.2\)\n/);
    const grey = await anyKysely(ctx.db())
      .selectFrom('pw_widgets')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('colour', '=', 'grey')
      .executeTakeFirstOrThrow();
    assert.equal(Number(grey.n), ROWS, 'the backfill ran for real');
  });
});
