/**
 * isDatabaseUnavailable: the drivers' ways of saying the server is away (read from real
 * failures: a private PostgreSQL stopped under load, test/faults/postgres-restart.test.ts),
 * and errors that say something else.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isDatabaseUnavailable } from '../../src/db/index.ts';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('recognises a server stopped, restarting or unreachable', () => {
    for (const error of [
      withCode('57P01', 'terminating connection due to administrator command'),
      withCode('57P03', 'the database system is starting up'),
      withCode('08006'),
      withCode('ECONNREFUSED'),
      withCode('ECONNRESET'),
      withCode('PROTOCOL_CONNECTION_LOST'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('wrapped', { cause: withCode('ECONNREFUSED') }),
    ]) {
      assert.ok(isDatabaseUnavailable(error), String(error));
    }
  });

  it('leaves other failures alone', () => {
    for (const error of [
      withCode('23505', 'duplicate key'),
      withCode('40P01', 'deadlock detected'),
      withCode('ER_DUP_ENTRY'),
      new Error('syntax error'),
      null,
      'ECONNREFUSED',
      { code: 503 },
    ]) {
      assert.ok(!isDatabaseUnavailable(error), String(error));
    }
  });
});
