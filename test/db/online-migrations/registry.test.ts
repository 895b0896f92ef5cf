import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import {
  createOnlineMigrationRegistry,
  findPendingOnlineMigrations,
  InvalidBatchSizeError,
  InvalidMaxCountError,
  type MigrationReport,
  OnlineMigrationRegistryError,
  type OnlineMigrationsReport,
  OnlineMigrationUsageError,
  parseMaxCount,
  renderOnlineMigrationsReport,
  runOnlineMigrations,
} from '../../../src/db/online-migrations/index.ts';
import { forEachBackend } from '../support/backends.ts';
import {
  backfillColour,
  createWidgetTable,
  seedWidgets,
  Widget,
  widgetRows,
} from './support/widget-service.ts';

const objectTables = [{ table: 'w', type: Widget }];

test('the registry ends with update_to_latest_versions and refuses bad definitions', () => {
  const registry = createOnlineMigrationRegistry({
    service: 'widgets',
    migrations: [backfillColour('w')],
    objectTables,
  });
  assert.deepEqual(
    registry.migrations.map((m) => m.name),
    ['backfill_colour', 'update_to_latest_versions'],
  );
  const bad = (migrations: ReturnType<typeof backfillColour>[]) => () =>
    createOnlineMigrationRegistry({ service: 'widgets', migrations, objectTables });
  assert.throws(bad([backfillColour('w'), backfillColour('w')]), OnlineMigrationRegistryError);
  assert.throws(bad([backfillColour('w', { name: 'Not Snake' })]), OnlineMigrationRegistryError);
  assert.throws(
    bad([backfillColour('w', { name: 'update_to_latest_versions' })]),
    OnlineMigrationRegistryError,
  );
  assert.throws(
    bad([backfillColour('w', { requires: { binary: 'x', minServiceVersion: 0 } })]),
    OnlineMigrationRegistryError,
  );
  assert.throws(() =>
    createOnlineMigrationRegistry({
      service: 'widgets',
      objectTables: [{ table: 'w', type: Widget, nullVersion: '0.5' }],
    }),
  );
});

test('maxCount must be a positive integer: a typed usage error', async () => {
  for (const value of [0, -3, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
    await assert.rejects(
      runOnlineMigrations(
        {} as never,
        createOnlineMigrationRegistry({ service: 's', objectTables }),
        {
          maxCount: value,
        },
      ),
      (e: unknown) => e instanceof InvalidMaxCountError && e.option === 'max-count',
    );
  }
  await assert.rejects(
    runOnlineMigrations(
      {} as never,
      createOnlineMigrationRegistry({ service: 's', objectTables }),
      {
        batchSize: 0,
      },
    ),
    InvalidBatchSizeError,
  );
  assert.equal(parseMaxCount(undefined), undefined);
  assert.equal(parseMaxCount(' 25 '), 25);
  for (const text of ['0', '-1', '1e3', 'ten', '2.5', '']) {
    assert.throws(
      () => parseMaxCount(text),
      (e: unknown) => e instanceof OnlineMigrationUsageError,
      text,
    );
  }
  assert.throws(() => parseMaxCount('abc'), /max-count must be a positive integer, got "abc"/);
});

forEachBackend('pending online migrations', (ctx) => {
  const T = 'pm_widgets';
  before(async () => {
    await createWidgetTable(ctx.db(), T);
    await seedWidgets(ctx.db(), T, ['1.0', null, '1.1', '1.0']);
  });

  test('each migration says how many rows it would migrate, and nothing changes', async () => {
    const registry = createOnlineMigrationRegistry({
      service: 'widgets',
      migrations: [backfillColour(T)],
      objectTables: [{ table: T, type: Widget }],
    });
    const before = await widgetRows(ctx.db(), T);
    const pending = await findPendingOnlineMigrations(ctx.db(), registry);
    assert.deepEqual(
      pending.map((p) => [p.name, p.pending, p.error]),
      [
        ['backfill_colour', 4, undefined],
        ['update_to_latest_versions', 3, undefined],
      ],
    );
    assert.deepEqual(await widgetRows(ctx.db(), T), before);
  });

  test('a migration that cannot even count is reported with its error', async () => {
    const registry = createOnlineMigrationRegistry({
      service: 'widgets',
      objectTables: [{ table: 'pm_no_such_table', type: Widget }],
    });
    const [probe] = await findPendingOnlineMigrations(ctx.db(), registry);
    assert.equal(probe?.pending, undefined);
    assert.ok(probe?.error instanceof Error);
  });
});

const migration = (over: Partial<MigrationReport>): MigrationReport => ({
  name: 'm',
  description: '',
  status: 'done',
  total: 0,
  migrated: 0,
  remaining: 0,
  batches: 1,
  ...over,
});

test('the report text: a row per migration and what to do next', () => {
  const report: OnlineMigrationsReport = {
    service: 'widgets',
    outcome: 'incomplete',
    exitStatus: 1,
    migrated: 50,
    migrations: [
      migration({ name: 'backfill_colour', total: 20, migrated: 20 }),
      migration({
        name: 'update_to_latest_versions',
        status: 'more',
        total: 1200,
        migrated: 30,
        remaining: 1170,
      }),
    ],
  };
  assert.equal(
    renderOnlineMigrationsReport(report),
    [
      '+---------------------------+-------+----------+-----------+--------+',
      '| migration                 | total | migrated | remaining | status |',
      '+---------------------------+-------+----------+-----------+--------+',
      '| backfill_colour           |    20 |       20 |         0 | done   |',
      '| update_to_latest_versions |  1200 |       30 |      1170 | more   |',
      '+---------------------------+-------+----------+-----------+--------+',
      'Data migrations have not completed. Please re-run.',
    ].join('\n'),
  );
  const verdict = (r: Partial<OnlineMigrationsReport>) =>
    renderOnlineMigrationsReport({ ...report, ...r })
      .split('\n')
      .at(-1);
  assert.equal(verdict({ outcome: 'complete', exitStatus: 0 }), 'Data migrations have completed.');
  assert.equal(
    verdict({
      outcome: 'waiting',
      migrations: [
        migration({
          name: 'backfill_colour',
          status: 'waiting',
          waitingFor: { binary: 'conductor', minServiceVersion: 3, currentMinimum: 2 },
        }),
      ],
    }),
    'Data migrations have not completed: backfill_colour is waiting until every live conductor ' +
      'service runs service version 3 or newer (the oldest runs 2). Upgrade those services, then re-run.',
  );
  assert.equal(
    verdict({
      outcome: 'failed',
      migrations: [
        migration({ name: 'backfill_colour', status: 'failed', error: new Error('boom') }),
      ],
    }),
    'Error while running backfill_colour: boom.',
  );
  const refused = renderOnlineMigrationsReport(
    {
      ...report,
      outcome: 'incompatible',
      exitStatus: 2,
      incompatible: [{ table: 'w', objectName: 'Widget', version: null, count: 2 }],
    },
    { release: '2.0' },
  );
  assert.match(refused, /^The database is not compatible with this release of widgets \(2\.0\)/);
});
