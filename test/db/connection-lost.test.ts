/**
 * A session ended by the server while Kysely holds its connection between two queries (what a
 * restart of the server does to a transaction in progress): the process must not die of an
 * unhandled 'error' event (on PostgreSQL it did: the pool drops its own listener from a client
 * it hands out); the next query fails as "database unavailable" (on MariaDB it was not
 * recognised: a 500), and the pool serves a new session. The session is ended with
 * pg_terminate_backend / KILL on the test's own scratch database.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import {
  type Backend,
  type Database,
  isDatabaseUnavailable,
  openDatabase,
} from '../../src/db/index.ts';
import { backendAvailable, createScratchDatabase } from './support/backends.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

for (const backend of ['postgresql', 'mysql'] as Backend[]) {
  describe(`a session ended under a held connection [${backend}]`, async () => {
    const unavailable = await backendAvailable(backend);
    let scratch: { url: string; drop: () => Promise<void> };
    let database: Database;
    let admin: Database;

    before(async () => {
      if (unavailable) return;
      scratch = await createScratchDatabase(backend);
      database = await openDatabase(scratch.url, { poolSize: 2 });
      admin = await openDatabase(scratch.url, { poolSize: 1 });
    });
    after(async () => {
      await database?.close();
      await admin?.close();
      await scratch?.drop();
    });

    it('fails the next query as unavailable, and the pool reconnects', {
      skip: unavailable,
    }, async () => {
      let failure: unknown;
      await database.kysely.connection().execute(async (connection) => {
        if (backend === 'postgresql') {
          const pid = (
            await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(connection)
          ).rows[0]?.pid;
          await sql`select pg_terminate_backend(${pid})`.execute(admin.kysely);
        } else {
          const id = (await sql<{ id: number }>`select connection_id() as id`.execute(connection))
            .rows[0]?.id;
          await sql.raw(`kill ${Number(id)}`).execute(admin.kysely);
        }
        // The server's FATAL arrives while no query runs on this client.
        await sleep(300);
        try {
          await sql`select 1`.execute(connection);
        } catch (error) {
          failure = error;
        }
      });
      assert.ok(failure !== undefined, 'the ended session cannot answer');
      assert.ok(isDatabaseUnavailable(failure), String(failure));
      const again = await sql<{ one: number }>`select 1 as one`.execute(database.kysely);
      assert.equal(Number(again.rows[0]?.one), 1);
    });
  });
}
