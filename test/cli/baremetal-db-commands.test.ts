/**
 * `baton db upgrade|online-migrations` and `baton upgrade-check` with `--service baremetal`
 * speak `ironic-dbsync`'s and `ironic-status`'s dialect: the same lines and exit statuses,
 * held to the real commands run on a real Ironic schema in the same test (Baton's command
 * names in the advice, the release as this code's). Under CI=true a missing real Ironic fails.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { BAREMETAL_SERVICE } from '../../src/baremetal/service.ts';
import { dbsyncOnlineMigrations } from '../../src/cli/ironic-dbsync-dialect.ts';
import { type Database, openDatabase } from '../../src/db/index.ts';
import { NO_CONFIG, type ServiceDefinition } from '../../src/service/index.ts';
import { DBSYNC, pythonEnv, realIronicMissing } from '../support/real-ironic.ts';

// Its `err` leaves out the line naming the config files and database, as the real tool's
// INFO lines are left out below.
import { baton } from './support/run-baton.ts';

const inCi = process.env.CI === 'true';
const missing = realIronicMissing();
if (missing && inCi) throw new Error(`${missing} (CI=true: the real ironic-dbsync must run)`);

async function addNodes(db: Database, count: number, version: string) {
  for (let i = 0; i < count; i++) {
    await sql`insert into nodes (uuid, version, driver, provision_state, created_at)
      values (${randomUUID()}, ${version}, 'fake-hardware', 'enroll', ${new Date().toISOString()})`.execute(
      db.kysely,
    );
  }
}

/** The real ironic-dbsync on a real schema of its own (its stdout, stderr and status). */
function realDbsync(conf: string, ...args: string[]) {
  const result = spawnSync(DBSYNC, ['--config-file', conf, ...args], {
    env: pythonEnv(),
    encoding: 'utf8',
  });
  const drop = (text: string) =>
    text
      .split('\n')
      .filter((line) => line !== '' && !/ INFO | WARNING /.test(line))
      .join('\n');
  return { status: result.status, out: drop(result.stdout), err: drop(result.stderr) };
}

/**
 * Baton's advice where the real names its own commands and version; Baton's own online
 * migration (antelope's inventory move, which Ironic does not have) left out.
 */
const asReal = (text: string) =>
  text
    .split('\n')
    .filter((line) => !line.startsWith('move_inventory_to_node_inventory()'))
    .join('\n')
    .replace(/ironic \(21\.4\)/g, 'ironic (21.4.4)')
    .replace(
      /baton db online-migrations --service baremetal/g,
      'ironic-dbsync online_data_migrations',
    )
    .trim();

describe('baton db commands for the bare metal service', () => {
  let dir: string;
  let url: string;
  let db: Database;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'baton-bm-db-'));
    url = `sqlite:${join(dir, 'bm.sqlite')}`;
    assert.equal((await baton('db', 'upgrade', '--service', 'baremetal', '--db', url)).status, 0);
    db = await openDatabase(url);
  });
  after(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('online-migrations on a database with nothing to migrate: the real three lines, 0', async () => {
    const run = await baton('db', 'online-migrations', '--service', 'baremetal', '--db', url);
    assert.equal(run.status, 0, run.err);
    assert.equal(
      run.out,
      'Running batches of 50 until migrations have been completed.\n' +
        'move_inventory_to_node_inventory() migrated 0 of 0 objects.\n' +
        'update_to_latest_versions() migrated 0 of 0 objects.\n' +
        'Data migrations have completed.\n',
    );
  });

  test('--max-count 0 or below: the real refusal, 127; a word that is no number: 64', async () => {
    for (const count of ['0', '-1']) {
      const run = await baton(
        'db',
        'online-migrations',
        '--service',
        'baremetal',
        '--db',
        url,
        `--max-count=${count}`,
      );
      assert.equal(run.status, 127, count);
      assert.equal(run.err, '"max-count" must be a positive value.\n');
      assert.equal(run.out, '');
    }
    const word = await baton(
      'db',
      'online-migrations',
      '--service',
      'baremetal',
      '--db',
      url,
      '--max-count',
      'abc',
    );
    assert.equal(word.status, 64);
    assert.match(word.err, /invalid int value: 'abc'/);
  });

  test('rows to migrate: 50 at a time with --max-count (1, "Please re-run"), then rounds of 50 to the end (0)', async () => {
    // The mapping lists Node 1.36 and 1.37 only; a mapping that also knew Node 1.30 is what
    // leaves rows for update_to_latest_versions.
    const widened: ServiceDefinition = {
      ...BAREMETAL_SERVICE,
      releases: { ...BAREMETAL_SERVICE.releases, older: { objects: { Node: ['1.30'] } } },
    };
    await addNodes(db, 120, '1.30');
    const lines: string[] = [];
    const io = {
      out: (line: string) => lines.push(line),
      err: (line: string) => lines.push(`! ${line}`),
    };
    const dialect = BAREMETAL_SERVICE.operatorDialect;
    assert.ok(dialect);
    assert.equal(await dbsyncOnlineMigrations(db, widened, dialect, NO_CONFIG, 50, io), 1);
    assert.deepEqual(lines, [
      'move_inventory_to_node_inventory() migrated 0 of 0 objects.',
      'update_to_latest_versions() migrated 50 of 120 objects.',
      'Data migrations have not completed. Please re-run.',
    ]);
    lines.length = 0;
    assert.equal(await dbsyncOnlineMigrations(db, widened, dialect, NO_CONFIG, undefined, io), 0);
    assert.deepEqual(lines, [
      'Running batches of 50 until migrations have been completed.',
      'move_inventory_to_node_inventory() migrated 0 of 0 objects.',
      'update_to_latest_versions() migrated 50 of 70 objects.',
      // Each round runs every migration, as ironic-dbsync's rounds do.
      'move_inventory_to_node_inventory() migrated 0 of 0 objects.',
      'update_to_latest_versions() migrated 20 of 20 objects.',
      'Data migrations have completed.',
    ]);
    const versions = await sql<{ version: string }>`select distinct version from nodes`.execute(
      db.kysely,
    );
    assert.deepEqual(
      versions.rows.map((r) => r.version),
      ['1.37'],
    );
  });

  test('a row at a version no release knows: upgrade and online-migrations refuse with 2, upgrade-check fails', async () => {
    await addNodes(db, 1, '1.99');
    const message =
      'The database is not compatible with this release of ironic (21.4). Please run "baton db online-migrations --service baremetal" using the previous release.';
    const upgrade = await baton('db', 'upgrade', '--service', 'baremetal', '--db', url);
    assert.equal(upgrade.status, 2);
    assert.equal(upgrade.err, `baton: error: ${message}\n`);
    const online = await baton('db', 'online-migrations', '--service', 'baremetal', '--db', url);
    assert.equal(online.status, 2);
    assert.equal(online.err, `${message}\n`);
    const check = await baton('upgrade-check', '--service', 'baremetal', '--db', url);
    assert.equal(check.status, 2);
    assert.match(
      check.out,
      /\| Check: Object versions +\|\n\| Result: Failure +\|\n\| Details: The database is not compatible with this release of ironic/,
    );
    await sql`delete from nodes where version = '1.99'`.execute(db.kysely);
  });

  test('a database from before versioned rows (a release skipped): the real skip-versions refusal, 2', async () => {
    const oldUrl = `sqlite:${join(dir, 'old.sqlite')}`;
    const old = await openDatabase(oldUrl);
    try {
      await sql`create table nodes (id integer primary key, uuid varchar(36))`.execute(old.kysely);
      await sql`insert into nodes (uuid) values ('11111111-1111-1111-1111-111111111111')`.execute(
        old.kysely,
      );
    } finally {
      await old.close();
    }
    const upgrade = await baton('db', 'upgrade', '--service', 'baremetal', '--db', oldUrl);
    assert.equal(upgrade.status, 2);
    assert.equal(
      upgrade.err,
      'baton: error: The database version is not compatible with this release of ironic (21.4). This can happen if you are attempting to upgrade from a version older than the previous release (skip versions upgrade). This is an unsupported upgrade method. Please run "baton db upgrade --service baremetal" using the previous releases for a fast-forward upgrade.\n',
    );
  });

  test('the same lines and statuses as the real ironic-dbsync', { skip: missing }, async () => {
    const realDir = mkdtempSync(join(tmpdir(), 'real-dbsync-'));
    try {
      const conf = join(realDir, 'ironic.conf');
      writeFileSync(
        conf,
        `[DEFAULT]\n[database]\nconnection = sqlite:///${join(realDir, 'i.sqlite')}\n`,
      );
      assert.equal(realDbsync(conf, 'create_schema').status, 0);
      const empty = realDbsync(conf, 'online_data_migrations');
      const ours = await baton('db', 'online-migrations', '--service', 'baremetal', '--db', url);
      assert.equal(empty.status, ours.status);
      assert.equal(empty.out, asReal(ours.out.trim()));
      const zero = realDbsync(conf, 'online_data_migrations', '--max-count', '0');
      const ourZero = await baton(
        'db',
        'online-migrations',
        '--service',
        'baremetal',
        '--db',
        url,
        '--max-count=0',
      );
      assert.equal(zero.status, ourZero.status);
      assert.equal(zero.err, ourZero.err.trim());
      const realDb = await openDatabase(`sqlite:${join(realDir, 'i.sqlite')}`);
      try {
        await addNodes(realDb, 1, '1.99');
      } finally {
        await realDb.close();
      }
      await addNodes(db, 1, '1.99');
      for (const [real, ourArgs] of [
        [realDbsync(conf, 'upgrade'), ['db', 'upgrade']],
        [realDbsync(conf, 'online_data_migrations'), ['db', 'online-migrations']],
      ] as const) {
        const mine = await baton(...ourArgs, '--service', 'baremetal', '--db', url);
        assert.equal(mine.status, real.status);
        assert.equal(asReal(mine.err.replace(/^baton: error: /, '')), real.err);
      }
    } finally {
      rmSync(realDir, { recursive: true, force: true });
    }
  });
});
