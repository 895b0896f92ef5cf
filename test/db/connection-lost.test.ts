/**
 * A PostgreSQL session ended by the server while Kysely holds its client between two queries
 * (what a restart of the server does to a transaction in progress): the process must not die
 * of an unhandled 'error' event (it did: the pool drops its own listener from a client it hands
 * out); the next query fails as "database unavailable", and the pool serves a new session.
 * The session is ended with pg_terminate_backend on the test's own scratch database.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { type Database, isDatabaseUnavailable, openDatabase } from '../../src/db/index.ts';
import { backendAvailable, createScratchDatabase } from './support/backends.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a PostgreSQL session ended under a held client', async () => {
  const unavailable = await backendAvailable('postgresql');
  let scratch: { url: string; drop: () => Promise<void> };
  let database: Database;
  let admin: Database;

  before(async () => {
    if (unavailable) return;
    scratch = await createScratchDatabase('postgresql');
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
      const pid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(connection))
        .rows[0]?.pid;
      await sql`select pg_terminate_backend(${pid})`.execute(admin.kysely);
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
