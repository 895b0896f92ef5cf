/**
 * The statement-counting proxy the scale bench puts between an API and PostgreSQL
 * (bench/support/pg-statement-counter.ts), with the two drivers it counts for: node-postgres
 * (Baton; simple queries, and Parse/Bind/Execute for parameterized ones, named statements
 * executed again without a Parse) and psycopg2 (the real Ironic; every statement a simple
 * query, BEGIN sent by the driver). Transaction control is counted apart from statements.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import pg from 'pg';
import { StatementCountingProxy } from '../../../bench/support/pg-statement-counter.ts';
import { backendAvailable, SERVER_URLS } from '../../db/support/backends.ts';

const run = promisify(execFile);
const SYSTEM_PYTHON = '/usr/bin/python3';

const unavailable = await backendAvailable('postgresql');
describe('the statement-counting PostgreSQL proxy', { skip: unavailable }, () => {
  let proxy: StatementCountingProxy;
  const target = new URL(SERVER_URLS.postgresql);

  before(async () => {
    proxy = new StatementCountingProxy({
      host: target.hostname,
      port: Number(target.port || 5432),
    });
    await proxy.listen();
  });
  after(() => proxy.close());

  it('counts node-postgres statements, parameterized and named ones each run, BEGIN/COMMIT apart', async () => {
    const client = new pg.Client({ connectionString: proxy.through(SERVER_URLS.postgresql) });
    await client.connect();
    const before = { ...proxy.counts };
    try {
      await client.query('select 1');
      const answer = await client.query('select $1::int + 1 as n', [41]);
      assert.equal(answer.rows[0].n, 42, 'the answers pass through');
      await client.query('begin');
      for (let i = 0; i < 3; i++) {
        await client.query({ name: 'named', text: 'select $1::int as n', values: [i] });
      }
      await client.query('commit');
    } finally {
      await client.end();
    }
    assert.deepEqual(
      {
        statements: proxy.counts.statements - before.statements,
        transactionControl: proxy.counts.transactionControl - before.transactionControl,
      },
      { statements: 5, transactionControl: 2 },
    );
  });

  it('counts psycopg2 statements (simple queries, its own BEGIN)', {
    skip: existsSync(SYSTEM_PYTHON) ? false : `${SYSTEM_PYTHON} is missing`,
  }, async () => {
    const before = { ...proxy.counts };
    const script = [
      'import sys, psycopg2',
      'c = psycopg2.connect(sys.argv[1])',
      'cur = c.cursor()',
      'cur.execute("select %s", (1,))',
      'cur.execute("select 2")',
      'c.commit()',
      'c.close()',
    ].join('\n');
    const dsn = new URL(proxy.through(SERVER_URLS.postgresql));
    await run(SYSTEM_PYTHON, [
      '-c',
      script,
      `host=127.0.0.1 port=${dsn.port} user=${dsn.username || 'postgres'} dbname=${dsn.pathname.slice(1)} sslmode=prefer`,
    ]);
    assert.deepEqual(
      {
        statements: proxy.counts.statements - before.statements,
        transactionControl: proxy.counts.transactionControl - before.transactionControl,
      },
      { statements: 2, transactionControl: 2 },
    );
  });
});
