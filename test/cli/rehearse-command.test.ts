/** `baton rehearse` refuses bad input with one line and 64, before building or starting anything. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { runCli } from '../../src/cli/main.ts';
import { openDatabase } from '../../src/db/index.ts';

async function baton(...argv: string[]) {
  let out = '';
  let err = '';
  const status = await runCli(argv, {
    out: (line) => {
      out += `${line}\n`;
    },
    err: (text) => {
      err += text;
    },
  });
  return { status, out, err };
}

describe('baton rehearse: bad input', () => {
  it('refuses an unknown transport, step length, microversion or database URL', async () => {
    for (const [args, message] of [
      [['--rpc', 'smtp'], "--rpc must be http or amqp, not 'smtp'"],
      [['--step-seconds', '0'], "--step-seconds must be a positive number, not '0'"],
      [['--workers', '1.5'], "--workers must be a positive integer, not '1.5'"],
      [['--microversion', 'latest'], "--microversion must be 1.N, not 'latest'"],
    ] as const) {
      const result = await baton('rehearse', ...args);
      assert.equal(result.status, 64, result.err);
      assert.equal(result.err, `baton: error: ${message}\n`);
    }
    const db = await baton('rehearse', '--db', 'oracle://x');
    assert.equal(db.status, 64);
    assert.match(db.err, /^baton: error: .+\n$/);
  });

  it('refuses a service it has no definition of, naming those it has', async () => {
    const result = await baton('rehearse', '--service', 'nova');
    assert.equal(result.status, 64);
    assert.equal(
      result.err,
      "baton: error: --service must be one of baremetal, leases, not 'nova'\n",
    );
    const inherited = await baton('rehearse', '--service', 'toString');
    assert.equal(inherited.status, 64);
  });

  it('refuses a definition file it cannot use, and one given with --service', async () => {
    const missing = await baton('rehearse', '--definition', 'no-such-definition.mjs');
    assert.equal(missing.status, 64);
    assert.match(missing.err, /^baton: error: --definition: no file .*no-such-definition\.mjs\n$/);
    const both = await baton('rehearse', '--service', 'leases', '--definition', 'x.mjs');
    assert.equal(both.status, 64);
    assert.equal(
      both.err,
      'baton: error: --service and --definition name the service twice: give one\n',
    );
  });

  it('refuses to go back with a service that has no commands for it', async () => {
    const result = await baton('rehearse', '--service', 'leases', '--back-from', '2.1');
    assert.equal(result.status, 64);
    assert.equal(
      result.err,
      'baton: error: --back-from: the leases service has no commands to go back with (downgrade-rows, plan)\n',
    );
  });

  it('refuses a report file in a folder that does not exist, before rehearsing', async () => {
    for (const flag of ['--json', '--html']) {
      const result = await baton('rehearse', flag, '/nonexistent-folder/report');
      assert.equal(result.status, 64, result.err);
      assert.equal(
        result.err,
        `baton: error: ${flag} /nonexistent-folder/report: the folder /nonexistent-folder does not exist\n`,
      );
    }
    const folder = await baton('rehearse', '--html', '/tmp');
    assert.equal(folder.status, 64);
    assert.equal(folder.err, 'baton: error: --html /tmp is a folder; give a file name\n');
  });

  it('refuses a release that is not recorded, naming those that are', async () => {
    const result = await baton('rehearse', '--from', 'wallaby');
    assert.equal(result.status, 64);
    assert.match(
      result.err,
      /^baton: error: no recorded baremetal release named 'wallaby' \(recorded: .*zed\/21\.1.*\)\n$/,
    );
  });

  it('refuses a database that holds tables, before preparing a release or a working folder', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rehearse-db-'));
    try {
      const url = `sqlite:${join(dir, 'used.sqlite')}`;
      const db = await openDatabase(url);
      await sql`CREATE TABLE nodes (id INTEGER)`.execute(db.kysely);
      await db.close();
      const result = await baton('rehearse', '--db', url);
      assert.equal(result.status, 64, result.err);
      assert.match(
        result.err,
        /^baton: error: sqlite:.*used\.sqlite holds 1 table \(nodes\): a rehearsal needs an empty database/,
      );
      assert.doesNotMatch(result.out, /working folder/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lists its options in --help', async () => {
    const result = await baton('rehearse', '--help');
    assert.equal(result.status, 0);
    for (const flag of [
      '--service',
      '--definition',
      '--from',
      '--db',
      '--rpc',
      '--step-seconds',
      '--json',
      '--html',
      '--profile',
      '--find-capacity',
    ]) {
      assert.match(result.out, new RegExp(flag));
    }
  });
});
