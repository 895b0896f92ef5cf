import assert from 'node:assert/strict';
import { before, beforeEach, test } from 'node:test';
import {
  createOnlineMigrationRegistry,
  type MigrationReport,
  MigrationResultError,
  NoProgressError,
  type OnlineMigration,
  RowMigrationError,
  runOnlineMigrations,
  totalAfterBatch,
} from '../../../src/db/online-migrations/index.ts';
import { registerService } from '../../../src/db/services/index.ts';
import { forEachBackend } from '../support/backends.ts';
import {
  anyKysely,
  backfillColour,
  createWidgetTable,
  seedWidgets,
  Widget,
  widgetRows,
} from './support/widget-service.ts';

const T = 'om_widgets';
const LATEST = 'update_to_latest_versions';

const registry = (...migrations: OnlineMigration[]) =>
  createOnlineMigrationRegistry({
    service: 'widgets',
    migrations,
    objectTables: [{ table: T, type: Widget }],
  });

const byName = (reports: readonly MigrationReport[], name: string) => {
  const found = reports.find((r) => r.name === name);
  assert.ok(found, `no report for ${name}`);
  return found;
};

// Nine rows need migrating: six at 1.0, two never stamped (NULL, read as 1.0); one is current.
const STALE = ['1.0', null, '1.0', '1.1', '1.0', '1.0', null, '1.0', '1.0'] as const;

forEachBackend('online data migrations', (ctx) => {
  before(() => createWidgetTable(ctx.db(), T));
  beforeEach(() => seedWidgets(ctx.db(), T, STALE));

  test('every row reaches the latest version in batches, data moved with it', async () => {
    const batches: number[][] = [];
    const report = await runOnlineMigrations(ctx.db(), registry(), {
      batchSize: 3,
      onBatch: (b) => batches.push([b.batch, b.total, b.migrated, b.runMigrated]),
    });
    assert.deepEqual([report.outcome, report.exitStatus, report.migrated], ['complete', 0, 8]);
    assert.deepEqual(batches, [
      [1, 8, 3, 3],
      [2, 5, 3, 6],
      [3, 2, 2, 8],
    ]);
    const latest = byName(report.migrations, LATEST);
    assert.deepEqual(
      [latest.status, latest.total, latest.migrated, latest.remaining, latest.batches],
      ['done', 8, 8, 0, 3],
    );
    for (const row of await widgetRows(ctx.db(), T)) {
      assert.equal(row.version, '1.1');
      // The deprecated field is emptied (a nullable FlexibleDict stores null as {}).
      assert.deepEqual(JSON.parse(row.extra ?? '{}'), {});
      assert.deepEqual(JSON.parse(row.meta ?? 'null'), { n: row.id });
    }
    // Nothing left: a second run finds nothing and says so.
    const again = await runOnlineMigrations(ctx.db(), registry(), { batchSize: 3 });
    assert.deepEqual([again.exitStatus, again.migrated], [0, 0]);
    assert.deepEqual(byName(again.migrations, LATEST).batches, 1);
  });

  test('later batches get the previous remainder as an estimate; done needs a short batch', async () => {
    const estimates: (number | undefined)[] = [];
    let left = 7;
    // Counts nothing after its first batch; rows are handed out 3 at a time.
    const counter: OnlineMigration = {
      name: 'estimating',
      description: 'reports totals from the estimate',
      async run(c, maxCount) {
        estimates.push(c.remainingEstimate);
        const migrated = Math.min(left, maxCount);
        left -= migrated;
        if (c.remainingEstimate === undefined) return { total: migrated + left, migrated };
        return { total: totalAfterBatch(c.remainingEstimate, maxCount, migrated), migrated };
      },
    };
    const report = await runOnlineMigrations(ctx.db(), registry(counter), { batchSize: 3 });
    assert.equal(report.exitStatus, 0);
    assert.deepEqual(estimates, [undefined, 4, 1]);
    assert.deepEqual(byName(report.migrations, 'estimating').batches, 3);
  });

  test('rows an older service writes at an old version mid-run are migrated before done', async () => {
    const base = registry();
    const latest = base.migrations.at(-1) as OnlineMigration;
    let calls = 0;
    // After the first batch has counted (8) and migrated ids 0-2, those are saved at 1.0
    // again, as a pinned service would: the count the later batches go on is now too low.
    const wrapped: OnlineMigration = {
      ...latest,
      async run(c, maxCount) {
        const result = await latest.run(c, maxCount);
        if (++calls === 1) {
          await c.db
            .updateTable(T)
            .set({ version: '1.0', extra: JSON.stringify({ n: 0 }), meta: null })
            .where('version', '=', '1.1')
            .where('id', '<', 3)
            .execute();
        }
        return result;
      },
    };
    const report = await runOnlineMigrations(
      ctx.db(),
      { ...base, migrations: [...base.migrations.slice(0, -1), wrapped] },
      { batchSize: 3 },
    );
    assert.equal(report.exitStatus, 0);
    assert.equal(byName(report.migrations, LATEST).migrated, 8 + 3);
    for (const row of await widgetRows(ctx.db(), T)) assert.equal(row.version, '1.1');
  });

  test('maxCount stops the run with exit 1; re-running finishes with exit 0', async () => {
    const first = await runOnlineMigrations(ctx.db(), registry(), { maxCount: 5, batchSize: 3 });
    assert.deepEqual([first.outcome, first.exitStatus, first.migrated], ['incomplete', 1, 5]);
    const latest = byName(first.migrations, LATEST);
    assert.deepEqual(
      [latest.status, latest.total, latest.migrated, latest.remaining],
      ['more', 8, 5, 3],
    );
    const stale = (await widgetRows(ctx.db(), T)).filter((r) => r.version !== '1.1');
    assert.equal(stale.length, 3);

    const second = await runOnlineMigrations(ctx.db(), registry(), { maxCount: 5, batchSize: 3 });
    assert.deepEqual([second.outcome, second.exitStatus, second.migrated], ['complete', 0, 3]);
  });

  test('maxRunMs: no batch starts once the time is up; exit 1 with timeLimitReached, then a re-run finishes', async () => {
    // A fake clock: each pause between batches takes 1,000 ms of it, nothing else does.
    let clock = 0;
    const pauses: number[] = [];
    const options = {
      batchSize: 2,
      batchPauseMs: 1_000,
      maxRunMs: 2_500,
      now: () => clock,
      sleep: async (ms: number) => {
        pauses.push(ms);
        clock += ms;
      },
    };
    const first = await runOnlineMigrations(ctx.db(), registry(), options);
    // Batches at 0, 1,000 and 2,000 ms; after the pause to 3,000 ms the time is up.
    assert.deepEqual(
      [first.outcome, first.exitStatus, first.migrated, first.timeLimitReached],
      ['incomplete', 1, 6, true],
    );
    assert.deepEqual(pauses, [1_000, 1_000, 1_000]);
    assert.equal(byName(first.migrations, LATEST).status, 'more');
    const rest = await runOnlineMigrations(ctx.db(), registry(), { ...options, now: () => 0 });
    assert.deepEqual(
      [rest.outcome, rest.migrated, rest.timeLimitReached],
      ['complete', 2, undefined],
    );
  });

  test('maxRunMs: a migration not reached in time is not run', async () => {
    let clock = 0;
    const colour = backfillColour(T);
    const report = await runOnlineMigrations(ctx.db(), registry(colour), {
      maxRunMs: 5_000,
      now: () => {
        clock += 6_000;
        return clock;
      },
    });
    assert.equal(report.timeLimitReached, true);
    assert.deepEqual(
      report.migrations.map((m) => [m.name, m.status]),
      [
        ['backfill_colour', 'done'],
        [LATEST, 'not-run'],
      ],
    );
  });

  test('maxCount counts rows across migrations; the ones not reached are reported so', async () => {
    const colour = backfillColour(T);
    const report = await runOnlineMigrations(ctx.db(), registry(colour), { maxCount: 9 });
    assert.deepEqual([report.exitStatus, report.migrated], [1, 9]);
    assert.deepEqual(
      report.migrations.map((m) => [m.name, m.status, m.migrated]),
      [
        ['backfill_colour', 'done', 9],
        [LATEST, 'not-run', 0],
      ],
    );
    const rest = await runOnlineMigrations(ctx.db(), registry(colour), { maxCount: 9 });
    assert.deepEqual([rest.exitStatus, rest.migrated], [0, 8]);
  });

  test('interrupted runs add up: run with a small maxCount until done', async () => {
    const colour = backfillColour(T);
    let runs = 0;
    let migrated = 0;
    // What one run leaves of a migration is what the next run finds.
    const left = new Map<string, number | undefined>();
    for (;;) {
      const report = await runOnlineMigrations(ctx.db(), registry(colour), {
        maxCount: 2,
        batchSize: 1,
      });
      runs++;
      migrated += report.migrated;
      for (const m of report.migrations) {
        if (m.status === 'not-run') continue;
        if (left.has(m.name)) assert.equal(m.total, left.get(m.name), `${m.name}, run ${runs}`);
        left.set(m.name, m.remaining);
      }
      if (report.exitStatus === 0) break;
      assert.equal(report.exitStatus, 1);
      assert.ok(runs < 20, 'the runs converge');
    }
    assert.equal(migrated, 9 + 8);
    const rows = await widgetRows(ctx.db(), T);
    assert.ok(rows.every((r) => r.version === '1.1' && r.colour === 'grey'));
  });

  test('a failing migration: exit 2 with its error, its batch rolled back, the rest not run', async () => {
    const colour = backfillColour(T, { failOnCall: 2 });
    const report = await runOnlineMigrations(ctx.db(), registry(colour), { batchSize: 4 });
    assert.deepEqual([report.outcome, report.exitStatus], ['failed', 2]);
    const failed = byName(report.migrations, 'backfill_colour');
    assert.deepEqual([failed.status, failed.migrated, failed.batches], ['failed', 4, 1]);
    assert.match(failed.error?.message ?? '', /the disk is on fire/);
    assert.equal(byName(report.migrations, LATEST).status, 'not-run');
    // The first batch stayed, the failed one rolled back.
    const grey = (await widgetRows(ctx.db(), T)).filter((r) => r.colour === 'grey');
    assert.equal(grey.length, 4);
    // Fixed and run again, it finishes what is left.
    const fixed = await runOnlineMigrations(ctx.db(), registry(backfillColour(T)));
    assert.deepEqual(
      [fixed.exitStatus, byName(fixed.migrations, 'backfill_colour').migrated],
      [0, 5],
    );
  });

  test('a row at a version this release cannot read fails the run (exit 2) and names the row', async () => {
    await seedWidgets(ctx.db(), T, ['1.0', '2.0', '1.0']);
    const report = await runOnlineMigrations(ctx.db(), registry(), { batchSize: 10 });
    assert.equal(report.exitStatus, 2);
    const error = byName(report.migrations, LATEST).error;
    assert.ok(error instanceof RowMigrationError, String(error));
    assert.deepEqual([error.table, Number(error.id), error.version], [T, 1, '2.0']);
    // The batch rolled back: row 0 is still at 1.0.
    assert.equal((await widgetRows(ctx.db(), T))[0]?.version, '1.0');
  });

  test('the compatibility pre-check refuses the run before anything moves', async () => {
    await seedWidgets(ctx.db(), T, ['1.0', '0.9', null]);
    const report = await runOnlineMigrations(ctx.db(), registry(), {
      compatibility: {
        tables: [{ table: T, objectName: 'Widget' }],
        supported: { objects: { Widget: ['1.0', '1.1'] } },
      },
    });
    assert.deepEqual([report.outcome, report.exitStatus, report.migrated], ['incompatible', 2, 0]);
    assert.deepEqual(
      report.incompatible?.map((r) => [r.version, r.count]),
      [
        [null, 1],
        ['0.9', 1],
      ],
    );
    assert.ok(report.migrations.every((m) => m.status === 'not-run'));
  });

  test('a migration that breaks its contract fails instead of looping', async () => {
    const greedy: OnlineMigration = {
      name: 'greedy',
      description: 'migrates more than asked',
      run: async (_ctx, maxCount) => ({ total: 100, migrated: maxCount + 1 }),
    };
    const stuck: OnlineMigration = {
      name: 'stuck',
      description: 'never makes progress',
      run: async () => ({ total: 3, migrated: 0 }),
    };
    const one = await runOnlineMigrations(ctx.db(), registry(greedy));
    assert.ok(byName(one.migrations, 'greedy').error instanceof MigrationResultError);
    const two = await runOnlineMigrations(ctx.db(), registry(stuck));
    assert.equal(two.exitStatus, 2);
    assert.ok(byName(two.migrations, 'stuck').error instanceof NoProgressError);
  });

  test('services keep writing during the run: no update is lost', async () => {
    const ids = Array.from({ length: 20 }, (_, i) => i);
    await seedWidgets(
      ctx.db(),
      T,
      ids.map(() => '1.0'),
    );
    const last = new Map<number, number>();
    let writing = true;
    // A pinned service saving widgets at 1.0 (meta unavailable) as fast as it can. Bounded:
    // a writer that re-stales rows faster than batches migrate them would keep any run going
    // (in a real upgrade update_to_latest runs once every service is unpinned).
    const WRITES = 120;
    const writer = (async () => {
      for (let k = 0; (writing && k < WRITES) || k < 30; k++) {
        const id = (k * 7) % ids.length;
        await anyKysely(ctx.db())
          .updateTable(T)
          .set({ version: '1.0', extra: JSON.stringify({ n: id, w: k }), meta: null })
          .where('id', '=', id)
          .execute();
        last.set(id, k);
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const during = await runOnlineMigrations(ctx.db(), registry(), { batchSize: 2 });
    writing = false;
    await writer;
    assert.equal(during.exitStatus, 0);
    // Rows saved at 1.0 after their migration are picked up by the next run.
    await runOnlineMigrations(ctx.db(), registry(), { batchSize: 2 });
    for (const row of await widgetRows(ctx.db(), T)) {
      assert.equal(row.version, '1.1');
      const w = last.get(row.id);
      assert.deepEqual(
        JSON.parse(row.meta ?? 'null'),
        w === undefined ? { n: row.id } : { n: row.id, w },
      );
    }
  });

  test('a gated migration waits until every live service of its binary is new enough', async () => {
    let now = 1_700_000_000_000;
    const clock = () => now;
    const liveness = { liveWithinSeconds: 60, clock };
    const gated = backfillColour(T, { requires: { binary: 'om-conductor', minServiceVersion: 3 } });
    await registerService(ctx.db(), { binary: 'om-conductor', host: 'old', version: 2, clock });
    const fresh = await registerService(ctx.db(), {
      binary: 'om-conductor',
      host: 'new',
      version: 3,
      clock,
    });
    // Services of other binaries do not matter.
    await registerService(ctx.db(), { binary: 'om-api', host: 'old', version: 1, clock });

    const waiting = await runOnlineMigrations(ctx.db(), registry(gated), liveness);
    assert.deepEqual([waiting.outcome, waiting.exitStatus, waiting.migrated], ['waiting', 1, 0]);
    const report = byName(waiting.migrations, 'backfill_colour');
    assert.deepEqual(report.waitingFor, {
      binary: 'om-conductor',
      minServiceVersion: 3,
      currentMinimum: 2,
    });
    assert.equal(gated.calls, 0);
    assert.equal(byName(waiting.migrations, LATEST).status, 'not-run');

    // The old conductor stops heartbeating; once it is dead it no longer holds the gate.
    now += 61_000;
    await fresh.heartbeat();
    const done = await runOnlineMigrations(ctx.db(), registry(gated), liveness);
    assert.deepEqual([done.outcome, done.exitStatus, done.migrated], ['complete', 0, 17]);
  });
});
