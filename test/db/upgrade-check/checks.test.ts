import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { createOnlineMigrationRegistry } from '../../../src/db/online-migrations/index.ts';
import { registerService } from '../../../src/db/services/index.ts';
import {
  mixedServiceVersionsCheck,
  objectVersionsCheck,
  pendingOnlineMigrationsCheck,
  renderUpgradeCheckTable,
  runUpgradeChecks,
} from '../../../src/db/upgrade-check/index.ts';
import {
  backfillColour,
  createWidgetTable,
  seedWidgets,
  Widget,
} from '../online-migrations/support/widget-service.ts';
import { forEachBackend } from '../support/backends.ts';

const T = 'uc_widgets';
const registry = (requires?: { binary: string; minServiceVersion: number }) =>
  createOnlineMigrationRegistry({
    service: 'widgets',
    migrations: [backfillColour(T, requires ? { requires } : {})],
    objectTables: [{ table: T, type: Widget }],
  });

forEachBackend('upgrade checks', (ctx) => {
  let now = 1_700_000_000_000;
  const clock = () => now;
  const liveness = { liveWithinSeconds: 60, clock };

  before(() => createWidgetTable(ctx.db(), T));

  test('pending online migrations: success when nothing is left', async () => {
    await seedWidgets(ctx.db(), T, []);
    assert.deepEqual(await pendingOnlineMigrationsCheck(ctx.db(), registry()).run(), {
      code: 'success',
    });
  });

  test('pending online migrations: a warning naming them and the command, or a failure on request', async () => {
    await seedWidgets(ctx.db(), T, ['1.0', null, '1.1']);
    const result = await pendingOnlineMigrationsCheck(ctx.db(), registry()).run();
    assert.equal(result.code, 'warning');
    assert.equal(
      result.details,
      'Online data migrations have rows to migrate (backfill_colour: 3 row(s); ' +
        'update_to_latest_versions: 2 row(s)). Run "baton db online-migrations --service widgets" ' +
        'until it exits with 0 before the next upgrade.',
    );
    const strict = await pendingOnlineMigrationsCheck(ctx.db(), registry(), {
      pendingIs: 'failure',
    }).run();
    assert.equal(strict.code, 'failure');
  });

  test('pending online migrations: a gated one says what it waits for', async () => {
    await seedWidgets(ctx.db(), T, ['1.1']);
    await registerService(ctx.db(), { binary: 'uc-conductor', host: 'a', version: 1, clock });
    const result = await pendingOnlineMigrationsCheck(
      ctx.db(),
      registry({ binary: 'uc-conductor', minServiceVersion: 2 }),
      liveness,
    ).run();
    assert.equal(result.code, 'warning');
    assert.match(
      result.details ?? '',
      /backfill_colour: 1 row\(s\), waiting until every live uc-conductor service runs service version 2 or newer \(the oldest runs 1\)/,
    );
  });

  test('pending online migrations: a failure when a migration cannot run', async () => {
    const result = await pendingOnlineMigrationsCheck(
      ctx.db(),
      createOnlineMigrationRegistry({
        service: 'widgets',
        objectTables: [{ table: 'uc_missing', type: Widget }],
      }),
    ).run();
    assert.equal(result.code, 'failure');
    assert.match(
      result.details ?? '',
      /^Online data migrations cannot run: update_to_latest_versions: /,
    );
  });

  test('object versions: a failure listing the rows the next release cannot read', async () => {
    await seedWidgets(ctx.db(), T, ['1.0', null, '1.1', '1.0']);
    const check = (objects: Record<string, string[]>) =>
      objectVersionsCheck(ctx.db(), {
        tables: [{ table: T, objectName: 'Widget' }],
        supported: { objects },
        service: 'widgets',
        release: '3.0',
      });
    const result = await check({ Widget: ['1.1', '1.2'] }).run();
    assert.equal(result.code, 'failure');
    assert.equal(
      result.details,
      '3 row(s) are at object versions widgets 3.0 does not support (uc_widgets Widget NULL: 1, ' +
        'uc_widgets Widget 1.0: 2). Run "baton db online-migrations --service widgets" with the ' +
        'current release until it exits with 0, then upgrade.',
    );
    assert.equal(check({ Widget: ['1.1', '1.2'] }).name, 'Object versions for 3.0');
    await seedWidgets(ctx.db(), T, ['1.1']);
    assert.deepEqual(await check({ Widget: ['1.1', '1.2'] }).run(), { code: 'success' });
  });

  test('service versions: a warning while live services of a binary differ; dead ones ignored', async () => {
    const check = () => mixedServiceVersionsCheck(ctx.db(), { ...liveness, binaries: ['uc-api'] });
    await registerService(ctx.db(), { binary: 'uc-api', host: 'a', version: 4, clock });
    assert.deepEqual(await check().run(), { code: 'success' });
    await registerService(ctx.db(), { binary: 'uc-api', host: 'b', version: 5, clock });
    await registerService(ctx.db(), { binary: 'uc-api', host: 'c', version: 5, clock });
    const mixed = await check().run();
    assert.equal(mixed.code, 'warning');
    assert.equal(
      mixed.details,
      'Live services run different versions (uc-api: version 4 on 1 service(s), version 5 on 2 ' +
        'service(s)). Finish the rolling upgrade: upgrade and restart the older services.',
    );
    // 'a' stops; the others heartbeat.
    now += 61_000;
    await registerService(ctx.db(), { binary: 'uc-api', host: 'b', version: 5, clock });
    await registerService(ctx.db(), { binary: 'uc-api', host: 'c', version: 5, clock });
    assert.deepEqual(await check().run(), { code: 'success' });
  });

  test('the checks together: rows, exit status and table', async () => {
    await seedWidgets(ctx.db(), T, ['1.0']);
    const report = await runUpgradeChecks([
      pendingOnlineMigrationsCheck(ctx.db(), registry()),
      mixedServiceVersionsCheck(ctx.db(), { ...liveness, binaries: ['nobody'] }),
    ]);
    assert.deepEqual(
      report.rows.map((r) => r.code),
      ['warning', 'success'],
    );
    assert.equal(report.exitStatus, 1);
    const table = renderUpgradeCheckTable(report.rows);
    assert.match(table, /\| Check: Online data migrations +\|\n\| Result: Warning +\|/);
    assert.match(
      table,
      /\| Check: Service versions +\|\n\| Result: Success +\|\n\| Details: None +\|/,
    );
  });
});
