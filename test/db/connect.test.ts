import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { sql } from 'kysely';
import {
  DatabaseConnectionError,
  DatabaseUrlError,
  openDatabase,
  parseDatabaseUrl,
  redactUrl,
} from '../../src/db/index.ts';
import { skipOutsideCi } from '../support/skip-outside-ci.ts';
import { forEachBackend, SERVER_URLS } from './support/backends.ts';

describe('database URLs', () => {
  test('the scheme selects the backend', () => {
    assert.equal(parseDatabaseUrl('sqlite:/tmp/x.sqlite').backend, 'sqlite');
    assert.equal(parseDatabaseUrl('sqlite:data/x.sqlite', '/srv').path, '/srv/data/x.sqlite');
    assert.equal(parseDatabaseUrl('postgresql://u:p@h:5432/db').backend, 'postgresql');
    assert.equal(parseDatabaseUrl('postgres://h/db').backend, 'postgresql');
    assert.equal(parseDatabaseUrl('mysql://root@h:3306/db').backend, 'mysql');
  });

  test("SQLAlchemy's SQLite forms: three slashes before a relative path, four before an absolute one", () => {
    assert.equal(parseDatabaseUrl('sqlite:////var/lib/x.sqlite').path, '/var/lib/x.sqlite');
    assert.equal(parseDatabaseUrl('sqlite:///var/x.sqlite', '/srv').path, '/srv/var/x.sqlite');
    assert.equal(parseDatabaseUrl('sqlite:///x.sqlite', '/srv').path, '/srv/x.sqlite');
    assert.equal(parseDatabaseUrl('sqlite://').path, ':memory:');
    assert.equal(parseDatabaseUrl('sqlite:///:memory:').path, ':memory:');
    assert.throws(() => parseDatabaseUrl('sqlite://host/x.sqlite'), /names a host/);
  });

  test('driver suffixes name Python drivers; the Node driver gets the URL without them', () => {
    const pg = parseDatabaseUrl('postgresql+psycopg2://placement:pw@db.example:5433/placement');
    assert.equal(pg.backend, 'postgresql');
    assert.equal(pg.connectionString, 'postgresql://placement:pw@db.example:5433/placement');
    assert.equal(pg.redacted, 'postgresql+psycopg2://placement:***@db.example:5433/placement');
    assert.equal(
      parseDatabaseUrl('postgresql://u@/placement?host=/var/run/postgresql').connectionString,
      'postgresql://u@/placement?host=/var/run/postgresql',
    );
    const my = parseDatabaseUrl(
      'mysql+pymysql://placement:p%40ss@db.example/placement?charset=utf8',
    );
    assert.equal(my.backend, 'mysql');
    assert.deepEqual(my.mysql, {
      host: 'db.example',
      user: 'placement',
      password: 'p@ss',
      database: 'placement',
      charset: 'utf8',
    });
    assert.deepEqual(
      parseDatabaseUrl('mysql+pymysql://root@/ironic?unix_socket=/run/mysqld/mysqld.sock').mysql,
      { user: 'root', password: '', database: 'ironic', socketPath: '/run/mysqld/mysqld.sock' },
    );
    assert.equal(parseDatabaseUrl('mariadb+mysqldb://u@h:3307/d').mysql?.port, 3307);
  });

  test('a MySQL URL option Baton cannot honour is refused, not dropped', () => {
    assert.throws(
      () => parseDatabaseUrl('mysql+pymysql://u:pw@h/d?ssl_ca=/etc/ca.pem'),
      /option 'ssl_ca' is not supported \(supported: charset, unix_socket\)/,
    );
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
    ['postgresql+psycopg2:///db', /no host/],
    ['sqlite:///', /no file path/],
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

describe('opening each URL form real configs use', () => {
  test("SQLite: Baton's form and SQLAlchemy's absolute form open the same file", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-url-'));
    try {
      const first = await openDatabase(`sqlite:${dir}/x.sqlite`);
      await sql`create table t (n integer)`.execute(first.kysely);
      await sql`insert into t values (7)`.execute(first.kysely);
      await first.close();
      const again = await openDatabase(`sqlite:///${dir}/x.sqlite`);
      const rows = await sql<{ n: number }>`select n from t`.execute(again.kysely);
      await again.close();
      assert.deepEqual(rows.rows, [{ n: 7 }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('PostgreSQL: postgresql+psycopg2:// and postgres://', async () => {
    for (const scheme of ['postgresql+psycopg2:', 'postgres:']) {
      const url = SERVER_URLS.postgresql.replace(/^[^:]+:/, scheme);
      const db = await openDatabase(url);
      const row = await sql<{ one: number }>`select 1 as one`.execute(db.kysely);
      await db.close();
      assert.equal(Number(row.rows[0]?.one), 1, url);
      assert.equal(db.caps.backend, 'postgresql');
    }
  });

  test('MariaDB: mysql+pymysql://…?charset=utf8 (as oslo.db writes it) and mariadb://', async () => {
    for (const [scheme, query, charset] of [
      ['mysql+pymysql:', '?charset=utf8', /^utf8(mb3)?$/],
      ['mysql+pymysql:', '?charset=utf8mb4', /^utf8mb4$/],
      ['mariadb:', '', /./],
    ] as const) {
      const url = `${SERVER_URLS.mysql.replace(/^[^:]+:/, scheme)}${query}`;
      const db = await openDatabase(url);
      const row = await sql<{ cs: string }>`select @@character_set_client as cs`.execute(db.kysely);
      await db.close();
      assert.match(String(row.rows[0]?.cs), charset, url);
    }
  });

  const socket = '/run/mysqld/mysqld.sock';
  const server = new URL(SERVER_URLS.mysql);
  test('MariaDB through its socket: mysql+pymysql://root@/db?unix_socket=…', {
    skip: skipOutsideCi(
      existsSync(socket) && server.hostname === '127.0.0.1'
        ? undefined
        : `no local MariaDB socket at ${socket}`,
    ),
  }, async () => {
    const db = await openDatabase(
      `mysql+pymysql://${server.username}@${server.pathname}?unix_socket=${socket}`,
    );
    const row = await sql<{ one: number }>`select 1 as one`.execute(db.kysely);
    await db.close();
    assert.equal(Number(row.rows[0]?.one), 1);
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
