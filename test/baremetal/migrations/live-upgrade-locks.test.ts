/**
 * `db upgrade` to antelope while zed's processes write nodes (step 0 of the rolling-upgrade procedure, docs/design.md) must not
 * deadlock them on PostgreSQL. Found by `baton rehearse` on PostgreSQL: the migration took a
 * weaker lock on `nodes` first (the new table's foreign key) and then waited to upgrade it for
 * ADD COLUMN, while a conductor holding `SELECT … FOR UPDATE` on a node went on to UPDATE it:
 * "deadlock detected", a 500 and a node left `deploying`. The strongest lock is now taken first.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { initialSchema } from '../../../src/baremetal/migrations/0001-initial.ts';
import { BAREMETAL_MIGRATIONS } from '../../../src/baremetal/migrations/index.ts';
import { type Database, migrateToLatest, openDatabase } from '../../../src/db/index.ts';
import { backendAvailable, createScratchDatabase } from '../../db/support/backends.ts';

const ZED_ONLY = { ...BAREMETAL_MIGRATIONS, releases: ['zed'], migrations: [initialSchema] };

describe('db upgrade to antelope under zed writers [postgresql]', async () => {
  const unavailable = await backendAvailable('postgresql');
  if (unavailable !== undefined) {
    it(unavailable, { skip: unavailable }, () => {});
    return;
  }
  let scratch: { url: string; drop: () => Promise<void> };
  let db: Database;
  before(async () => {
    scratch = await createScratchDatabase('postgresql');
    db = await openDatabase(scratch.url);
    const zed = await migrateToLatest(db, ZED_ONLY);
    assert.equal(zed.error, undefined);
  });
  after(async () => {
    await db?.close();
    await scratch?.drop();
  });

  it('a writer holding a node FOR UPDATE finishes its UPDATE, and the schema is upgraded', async () => {
    const writer = new pg.Client({ connectionString: scratch.url });
    await writer.connect();
    try {
      await writer.query(
        "insert into nodes (uuid, driver, provision_state, version) values ('1be26c0b-03f2-4d2e-ae87-c02d7f33c781', 'fake-hardware', 'available', '1.36')",
      );
      await writer.query('begin');
      await writer.query('select id from nodes for update');
      const upgrade = migrateToLatest(db, BAREMETAL_MIGRATIONS);
      // Let the migration reach the lock it waits for (deadlock_timeout is 1 s).
      await waitForLockWait(writer);
      await writer.query("update nodes set provision_state = 'deploying'");
      await writer.query('commit');
      const result = await upgrade;
      assert.equal(result.error, undefined, String(result.error));
      const shard = await writer.query(
        "select column_name from information_schema.columns where table_name = 'nodes' and column_name = 'shard'",
      );
      assert.equal(shard.rowCount, 1);
      const state = await writer.query('select provision_state from nodes');
      assert.equal(state.rows[0]?.provision_state, 'deploying');
    } finally {
      await writer.end();
    }
  });
});

/** Until another session waits for a lock (the migration behind the writer), at most 10 s. */
async function waitForLockWait(client: pg.Client): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const waiting = await client.query(
      'select count(*)::int as n from pg_locks where not granted and pid <> pg_backend_pid()',
    );
    if ((waiting.rows[0]?.n ?? 0) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the migration never waited for the writer');
}
