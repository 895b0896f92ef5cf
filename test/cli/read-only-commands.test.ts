/**
 * Commands that only read (`db services`, `upgrade-check`, `upgrade plan`, `db version`, and `db
 * online-migrations`, which needs a schema to migrate) never create a database or a
 * directory: a missing SQLite file is one error line naming it and the command that creates
 * it, exit 1. `db upgrade` creates it, wherever `--db`, `--data-dir`, BATON_DATA_DIR or the
 * config file's `[DEFAULT] state_path` put it.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { baton } from './support/run-baton.ts';

const READ_ONLY: readonly string[][] = [
  ['db', 'services'],
  ['db', 'services', '--remove-dead'],
  ['upgrade-check'],
  ['upgrade', 'plan'],
  ['db', 'version'],
  ['db', 'version', '--verbose'],
  ['db', 'online-migrations'],
];

/** Runs `work` with BATON_DATA_DIR set as given (or unset), restoring it after. */
async function withDataDirEnv<T>(value: string | undefined, work: () => Promise<T>): Promise<T> {
  const saved = process.env.BATON_DATA_DIR;
  if (value === undefined) delete process.env.BATON_DATA_DIR;
  else process.env.BATON_DATA_DIR = value;
  try {
    return await work();
  } finally {
    if (saved === undefined) delete process.env.BATON_DATA_DIR;
    else process.env.BATON_DATA_DIR = saved;
  }
}

describe('baton: commands that only read create nothing', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'baton-readonly-'));
  after(() => rmSync(scratch, { recursive: true, force: true }));

  test('a missing --db file: exit 1, the path and the command that creates it, nothing created', async () => {
    const dir = join(scratch, 'absent-dir');
    const file = join(dir, 'baton.sqlite');
    for (const url of [`sqlite:${file}`, `sqlite:///${file}`]) {
      for (const command of READ_ONLY) {
        const result = await baton(...command, '--service', 'placement', '--db', url);
        const what = `${command.join(' ')} --db ${url}`;
        assert.equal(result.status, 1, `${what}: ${result.err}`);
        assert.equal(
          result.err,
          `baton: error: database file ${file} does not exist; \`baton db upgrade --service placement --db ${url}\` creates it\n`,
          what,
        );
        assert.equal(result.out, '', what);
        assert.equal(existsSync(dir), false, `${what} created ${dir}`);
      }
    }
  });

  test('a missing --data-dir, or BATON_DATA_DIR: the same, naming the directory given', async () => {
    const dir = join(scratch, 'no-data-here');
    for (const command of READ_ONLY) {
      const result = await baton(...command, '--service', 'placement', '--data-dir', dir);
      assert.equal(result.status, 1, result.err);
      assert.equal(
        result.err,
        `baton: error: database file ${dir}/baton.sqlite does not exist; \`baton db upgrade --service placement --data-dir ${dir}\` creates it\n`,
      );
      const fromEnv = await withDataDirEnv(dir, () => baton(...command, '--service', 'placement'));
      assert.equal(fromEnv.status, 1, fromEnv.err);
      assert.match(
        fromEnv.err,
        new RegExp(`^baton: error: database file ${dir}/baton\\.sqlite does not exist;`),
      );
      assert.equal(existsSync(dir), false, `${command.join(' ')} created ${dir}`);
    }
  });

  test('an existing, empty data directory gets no file either', async () => {
    const dir = mkdtempSync(join(scratch, 'empty-'));
    for (const command of READ_ONLY) {
      const result = await baton(...command, '--service', 'placement', '--data-dir', dir);
      assert.equal(result.status, 1, result.err);
      assert.deepEqual(readdirSync(dir), [], command.join(' '));
    }
  });

  test('db upgrade creates the database in the data directory; the readers then find it', async () => {
    const dir = join(scratch, 'made', 'by', 'upgrade');
    const upgraded = await baton('db', 'upgrade', '--service', 'placement', '--data-dir', dir);
    assert.equal(upgraded.status, 0, upgraded.err);
    assert.match(upgraded.out, new RegExp(`^placement: database sqlite:${dir}/baton\\.sqlite\\n`));
    assert.ok(existsSync(join(dir, 'baton.sqlite')));
    const version = await withDataDirEnv(dir, () =>
      baton('db', 'version', '--service', 'placement'),
    );
    assert.equal(version.status, 0, version.err);
    assert.equal(version.out, '0002_exact_name_collation\n');
    const services = await baton('db', 'services', '--service', 'placement', '--data-dir', dir);
    assert.equal(services.status, 0, services.err);
    assert.equal(
      services.out,
      "no placement processes registered (placement-api; --all lists every service's)\ncaps in force: latest; API max 1.39\n",
    );
  });

  test("the config file's [DEFAULT] state_path is the data directory when no flag names one", async () => {
    const dir = join(scratch, 'state-path');
    const conf = join(scratch, 'placement.conf');
    writeFileSync(conf, `[DEFAULT]\nstate_path = ${dir}\n`);
    const missing = await baton('db', 'version', '--service', 'placement', '--config-file', conf);
    assert.equal(missing.status, 1);
    assert.equal(
      missing.err,
      `baton: error: database file ${dir}/baton.sqlite does not exist; \`baton db upgrade --service placement --config-file ${conf}\` creates it\n`,
    );
    assert.equal(existsSync(dir), false);
    const upgraded = await baton('db', 'upgrade', '--service', 'placement', '--config-file', conf);
    assert.equal(upgraded.status, 0, upgraded.err);
    assert.ok(existsSync(join(dir, 'baton.sqlite')));
    const flagWins = join(scratch, 'flag-wins');
    const viaFlag = await baton(
      'db',
      'version',
      '--service',
      'placement',
      '--config-file',
      conf,
      '--data-dir',
      flagWins,
    );
    assert.equal(viaFlag.status, 1);
    assert.match(
      viaFlag.err,
      new RegExp(`database file ${flagWins}/baton\\.sqlite does not exist`),
    );
  });
});

describe('baton db version', () => {
  test('None on a database without the schema; the last migration, and with --verbose every one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-version-'));
    try {
      const url = `sqlite:${join(dir, 'x.sqlite')}`;
      writeFileSync(join(dir, 'x.sqlite'), '');
      const none = await baton('db', 'version', '--service', 'placement', '--db', url);
      assert.deepEqual([none.status, none.out, none.err], [0, 'None\n', '']);
      await baton('db', 'upgrade', '--service', 'placement', '--db', url);
      const verbose = await baton(
        'db',
        'version',
        '--service',
        'placement',
        '--db',
        url,
        '--verbose',
      );
      assert.equal(verbose.status, 0, verbose.err);
      const lines = verbose.out.split('\n');
      assert.equal(lines[0], '0002_exact_name_collation');
      assert.match(verbose.out, /\| 0001_initial +\| 2026\.1 +\| applied \d{4}-\d\d-\d\dT/);
      assert.match(verbose.out, /placement: 2 of 2 migrations applied \(database sqlite:/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
