/**
 * Two processes upgrading the same database at once (two deployment hosts
 * starting together): each migration is applied exactly once, and both
 * calls succeed. Each runner has its own connection, as a process would.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  type Database,
  MigrationLockTimeoutError,
  migrateToLatest,
  openDatabase,
} from '../../../src/db/index.ts';
import { forEachBackend } from '../support/backends.ts';
import { anyKysely, historyIds, migration, migrationSet } from './fixtures.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

forEachBackend('two runners at once', (ctx) => {
  let first: Database;
  let second: Database;
  before(async () => {
    first = await openDatabase(ctx.url());
    second = await openDatabase(ctx.url());
  });
  after(async () => {
    await first.close();
    await second.close();
  });

  test('each migration is applied exactly once; both report success', async () => {
    let inside = 0;
    let overlapped = false;
    let blockerCalls = 0;
    const migrations = Array.from({ length: 6 }, (_, i) =>
      migration(
        `000${i + 1}_step`,
        [
          {
            op: 'createTable',
            table: `step_${i + 1}`,
            columns: [{ name: 'id', type: 'integer', primaryKey: true }],
          },
        ],
        {
          // Holds the lock a while, and notices if two runners are ever inside.
          blockedBy: {
            onlineMigration: 'nothing',
            remaining: async () => {
              blockerCalls++;
              inside++;
              if (inside > 1) overlapped = true;
              await sleep(40);
              inside--;
              return 0;
            },
          },
        },
      ),
    );
    const set = migrationSet('race', migrations);
    const [a, b] = await Promise.all([migrateToLatest(first, set), migrateToLatest(second, set)]);
    assert.equal(a.error, undefined, a.error?.message);
    assert.equal(b.error, undefined, b.error?.message);
    const appliedIds = [...a.applied, ...b.applied].map((m) => m.id).sort();
    assert.deepEqual(
      appliedIds,
      migrations.map((m) => m.id),
    );
    assert.equal(a.alreadyApplied + b.alreadyApplied, 6);
    assert.equal(blockerCalls, 6, 'each migration was considered by one runner only');
    assert.equal(overlapped, false);
    assert.deepEqual(
      await historyIds(ctx.db(), 'race'),
      migrations.map((m) => m.id),
    );
  });

  test('a runner that cannot get the lock in time says so', async () => {
    let release: () => void = () => {};
    const holding = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered: () => void = () => {};
    const inside = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const slow = migrationSet('slow', [
      migration('0001_slow', [], {
        blockedBy: {
          onlineMigration: 'nothing',
          remaining: async () => {
            entered();
            await holding;
            return 0;
          },
        },
      }),
    ]);
    const holder = migrateToLatest(first, slow);
    await inside;
    const waiter = await migrateToLatest(second, migrationSet('other', []), { lockTimeoutMs: 300 });
    release();
    assert.equal((await holder).error, undefined);
    assert.ok(waiter.error instanceof MigrationLockTimeoutError, String(waiter.error));
    assert.match(
      waiter.error.message,
      /another process has been migrating this database for more than 300 ms/,
    );
    // And the lock is free again afterwards.
    const again = await migrateToLatest(second, migrationSet('other', []), {
      lockTimeoutMs: 2_000,
    });
    assert.equal(again.error, undefined);
    assert.ok(await anyKysely(ctx.db()).selectFrom('step_1').selectAll().execute());
  });
});
