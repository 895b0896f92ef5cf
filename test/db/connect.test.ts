import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import {
  DatabaseConnectionError,
  DatabaseUrlError,
  openDatabase,
  parseDatabaseUrl,
  redactUrl,
} from '../../src/db/index.ts';
import { forEachBackend, SERVER_URLS } from './support/backends.ts';

describe('database URLs', () => {
  test('the scheme selects the backend', () => {
    assert.equal(parseDatabaseUrl('sqlite:/tmp/x.sqlite').backend, 'sqlite');
    assert.equal(parseDatabaseUrl('sqlite:data/x.sqlite', '/srv').path, '/srv/data/x.sqlite');
    assert.equal(parseDatabaseUrl('sqlite:///var/x.sqlite').path, '/var/x.sqlite');
    assert.equal(parseDatabaseUrl('postgresql://u:p@h:5432/db').backend, 'postgresql');
    assert.equal(parseDatabaseUrl('postgres://h/db').backend, 'postgresql');
    assert.equal(parseDatabaseUrl('mysql://root@h:3306/db').backend, 'mysql');
  });

  test('passwords never appear in messages', () => {
    assert.equal(
      redactUrl('postgresql://admin:s3cret@db:5432/x'),
      'postgresql://admin:***@db:5432/x',
    );
    assert.throws(
      () => parseDatabaseUrl('oracle://admin:s3cret@db/x'),
      (e: unknown) => {
        assert.ok(e instanceof DatabaseUrlError);
        assert.ok(!e.message.includes('s3cret'));
        assert.match(e.message, /unsupported scheme/);
        return true;
      },
    );
  });

  for (const [url, problem] of [
    ['sqlite:', /no file path/],
    ['postgresql://h', /names no database/],
    ['mysql://:3306/db', /not a valid URL|no host/],
    ['nonsense', /unsupported scheme/],
  ] as const) {
    test(`'${url}' is refused: ${problem}`, () => {
      assert.throws(() => parseDatabaseUrl(url), problem);
    });
  }
});

describe('opening databases that cannot be opened', () => {
  test('an unreachable server: one line naming the URL without its password', async () => {
    await assert.rejects(
      openDatabase('postgresql://u:topsecret@127.0.0.1:1/db', { connectTimeoutMs: 2_000 }),
      (e: unknown) => {
        assert.ok(e instanceof DatabaseConnectionError);
        assert.equal(
          e.message,
          'cannot open database postgresql://u:***@127.0.0.1:1/db: connection refused (is the server running?)',
        );
        return true;
      },
    );
    await assert.rejects(
      openDatabase('mysql://u:topsecret@127.0.0.1:1/db'),
      /mysql:\/\/u:\*\*\*@127\.0\.0\.1:1\/db: connection refused/,
    );
  });

  test('wrong credentials on MariaDB and a missing PostgreSQL database are named', async () => {
    const mysql = new URL(SERVER_URLS.mysql);
    mysql.username = 'nobody_here';
    mysql.password = 'wrong';
    await assert.rejects(openDatabase(mysql.toString()), /authentication failed/);
    const pg = new URL(SERVER_URLS.postgresql);
    pg.pathname = '/no_such_database_here';
    await assert.rejects(openDatabase(pg.toString()), /the database does not exist/);
  });

  test('a SQLite file that cannot be created', async () => {
    await assert.rejects(openDatabase('sqlite:/etc/hostname/x.sqlite'), DatabaseConnectionError);
  });
});

forEachBackend('connections', (ctx) => {
  test('round trip and capabilities', async () => {
    const db = ctx.db();
    const row = await sql<{ one: number }>`select 1 as one`.execute(db.kysely);
    assert.equal(Number(row.rows[0]?.one), 1);
    assert.equal(db.caps.backend, ctx.backend);
    assert.equal(db.caps.transactionalDdl, ctx.backend !== 'mysql');
  });
});
