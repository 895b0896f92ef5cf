/**
 * Two runners of the incomplete-consumers migration at once, on every backend: both finish
 * without an error, every missing consumer is created exactly once with the configured
 * project and user, and the runners' counts add up to the consumers created. The race is
 * staged, not hoped for: the first runner's batch stops before its commit until the second
 * runner is blocked on one of its rows (PostgreSQL, MariaDB; SQLite's writers queue).
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import {
  createOnlineMigrationRegistry,
  type Database,
  type OnlineMigration,
  openDatabase,
  runOnlineMigrations,
} from '../../../src/db/index.ts';
import { createIncompleteConsumers } from '../../../src/placement/online-migrations/create-incomplete-consumers.ts';
import { ensureOwner } from '../../../src/placement/store/projects-users.ts';
import { gate, untilLockWaiters } from '../../db/support/lock-waits.ts';
import {
  consumerRecord,
  createProvider,
  insertBareAllocations,
} from '../support/allocation-fixtures.ts';
import { forEachPlacementBackend, uuid } from '../support/placement-api.ts';

const CONSUMERS = 40;
const BATCH = 7;

forEachPlacementBackend('create_incomplete_consumers with two runners', (ctx) => {
  let providerId: number;
  before(async () => {
    providerId = (await createProvider(ctx.placementDb(), { DISK_GB: { total: 1000 } })).id;
  });

  /** Consumers with allocations and no record. */
  async function bareConsumers(): Promise<string[]> {
    const consumers = Array.from({ length: CONSUMERS }, () => uuid());
    for (const consumer of consumers) {
      await insertBareAllocations(ctx.placementDb(), consumer, providerId, { DISK_GB: 1 });
    }
    return consumers;
  }

  /** The migration, whose first batch waits for `release` after its writes, before its commit. */
  function pausingOnce(migration: OnlineMigration, written: () => void, release: Promise<void>) {
    let first = true;
    return {
      ...migration,
      async run(ctx, maxCount) {
        const result = await migration.run(ctx, maxCount);
        if (first) {
          first = false;
          written();
          await release;
        }
        return result;
      },
    } satisfies OnlineMigration;
  }

  async function raceTwoRunners(settings: { project: string; user: string }) {
    const config = {
      incompleteConsumerProjectId: settings.project,
      incompleteConsumerUserId: settings.user,
    };
    const registryOf = (migration: OnlineMigration) =>
      createOnlineMigrationRegistry({
        service: 'placement',
        migrations: [migration],
        objectTables: [],
      });
    const written = gate();
    const release = gate();
    const first = runOnlineMigrations(
      ctx.db(),
      registryOf(pausingOnce(createIncompleteConsumers(config), written.open, release.wait)),
      { batchSize: BATCH },
    );
    // A first batch that fails never pauses: the run's report says why.
    await Promise.race([
      written.wait,
      first.then((report) => {
        throw new Error(`the first runner ended before pausing: ${report.migrations[0]?.error}`);
      }),
    ]);
    // A second process's runner: its own connections. SQLite's writers queue on one handle
    // (a second one in this process would wait for the write lock synchronously).
    const singleWriter = ctx.db().caps.singleWriter;
    const secondDb: Database = singleWriter
      ? ctx.db()
      : await openDatabase(ctx.url(), { poolSize: 2 });
    try {
      const second = runOnlineMigrations(secondDb, registryOf(createIncompleteConsumers(config)), {
        batchSize: BATCH,
      });
      // Whatever happens, both runners end before the next test starts.
      const blocked = untilLockWaiters(ctx.placementDb()).then(
        () => undefined,
        (error: Error) => error,
      );
      const failure = await blocked.finally(release.open);
      const reports = await Promise.all([first, second]);
      if (failure !== undefined) throw failure;
      return reports;
    } finally {
      if (!singleWriter) await secondDb.close();
    }
  }

  async function assertCreatedOnce(
    consumers: readonly string[],
    settings: { project: string; user: string },
    reports: Awaited<ReturnType<typeof raceTwoRunners>>,
  ) {
    for (const report of reports) {
      assert.equal(report.outcome, 'complete', report.migrations[0]?.error?.message);
    }
    const rows = await ctx
      .placementDb()
      .kysely.selectFrom('consumers')
      .select('uuid')
      .where('uuid', 'in', consumers)
      .execute();
    assert.equal(rows.length, consumers.length, 'one record per consumer');
    for (const consumer of consumers) {
      assert.deepEqual(await consumerRecord(ctx.placementDb(), consumer), {
        generation: 0,
        project: settings.project,
        user: settings.user,
      });
    }
    const [first, second] = reports.map((report) => report.migrations[0]?.migrated ?? 0);
    assert.equal(Number(first) + Number(second), consumers.length, `counted ${first}, ${second}`);
    for (const [table, key] of [
      ['projects', settings.project],
      ['users', settings.user],
    ] as const) {
      const owners = await ctx
        .placementDb()
        .kysely.selectFrom(table)
        .select('id')
        .where('external_id', '=', key)
        .execute();
      assert.equal(owners.length, 1, `one ${table} row`);
    }
  }

  it('creates the configured project and user once when both runners create them', async () => {
    const settings = { project: `p-${uuid()}`, user: `u-${uuid()}` };
    const consumers = await bareConsumers();
    const reports = await raceTwoRunners(settings);
    await assertCreatedOnce(consumers, settings, reports);
  });

  it('creates each consumer once when both runners take the same batch', async () => {
    const settings = { project: `p-${uuid()}`, user: `u-${uuid()}` };
    // The owner rows exist: the second runner's first batch reads the same missing consumers
    // as the first runner's uncommitted one, and waits on its first consumer row.
    await ensureOwner(ctx.placementDb(), {
      projectExternalId: settings.project,
      userExternalId: settings.user,
    });
    const consumers = await bareConsumers();
    const reports = await raceTwoRunners(settings);
    await assertCreatedOnce(consumers, settings, reports);
  });
});
