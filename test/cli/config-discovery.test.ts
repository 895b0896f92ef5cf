/**
 * Issue 22 §3: without `--config-file`, every command reads the service's config where
 * oslo.config looks for the real service's (here `/etc` is a temporary folder, through
 * BATON_SYSCONFDIR, and `~` another, through HOME), and each database, status and plan command
 * says which config files and which database it works on (the password hidden), on stderr, so
 * `--json` and `db version` stay the answer alone. Unknown sections and options are a warning
 * each, naming the file, the place and the nearest known option; `--strict-config` refuses them.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { BAREMETAL_MIGRATIONS } from '../../src/baremetal/migrations/index.ts';
import { planServe } from '../../src/cli/placement-serve-command.ts';
import { PLACEMENT_SERVICE } from '../../src/placement/service.ts';
import { SYSCONFDIR_ENV } from '../../src/service/config-files.ts';
import { baton } from './support/run-baton.ts';

describe('config files found where oslo.config looks, and said', () => {
  const root = mkdtempSync(join(tmpdir(), 'baton-discovery-'));
  const etc = join(root, 'etc');
  const home = join(root, 'home');
  const ironicConf = join(etc, 'ironic', 'ironic.conf');
  const placementConf = join(etc, 'placement', 'placement.conf');
  const ironicDb = join(root, 'ironic.sqlite');
  const saved = {
    HOME: process.env.HOME,
    etc: process.env[SYSCONFDIR_ENV],
    data: process.env.BATON_DATA_DIR,
  };
  before(() => {
    mkdirSync(join(etc, 'ironic'), { recursive: true });
    mkdirSync(join(etc, 'placement'), { recursive: true });
    mkdirSync(home);
    process.env.HOME = home;
    process.env[SYSCONFDIR_ENV] = etc;
    delete process.env.BATON_DATA_DIR;
  });
  after(() => {
    for (const [name, value] of [
      ['HOME', saved.HOME],
      [SYSCONFDIR_ENV, saved.etc],
      ['BATON_DATA_DIR', saved.data],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    rmSync(root, { recursive: true, force: true });
  });

  test("/etc/ironic/ironic.conf's database, for db upgrade, db version, upgrade-check and upgrade plan", async () => {
    writeFileSync(
      ironicConf,
      `[DEFAULT]\nhost = c1\n\n[database]\nconnection = sqlite:${ironicDb}\n`,
    );
    const said = `config: ${ironicConf}; database: sqlite:${ironicDb} (the config file)\n`;
    const upgraded = await baton('db', 'upgrade', '--service', 'baremetal');
    assert.equal(upgraded.status, 0, upgraded.err);
    assert.equal(upgraded.config, said);
    assert.ok(existsSync(ironicDb), 'the config file named the database');
    assert.equal(existsSync(join(home, '.local')), false, 'not the embedded default');
    const version = await baton('db', 'version', '--service', 'baremetal');
    assert.equal(version.out, `${BAREMETAL_MIGRATIONS.migrations.at(-1)?.id}\n`);
    assert.equal(version.config, said);
    const check = await baton('upgrade-check', '--service', 'baremetal');
    assert.equal(check.status, 0, check.out);
    assert.equal(check.config, said);
    const plan = await baton('upgrade', 'plan', '--json');
    assert.equal(plan.config, said);
    assert.equal(JSON.parse(plan.out).schema.state, 'current', 'stdout is the JSON alone');
    const services = await baton('db', 'services', '--service', 'baremetal', '--json');
    assert.equal(JSON.parse(services.out).service, 'baremetal');
    assert.equal(services.err, '', 'a file Baton knows all of: no warning');
  });

  test('none found: said, with where it looked; the embedded database', async () => {
    const placement = await baton('db', 'version', '--service', 'placement');
    assert.equal(placement.status, 1);
    assert.equal(
      placement.config,
      `config: none (no placement.conf or placement-manage.conf in ${join(home, '.placement')}, ${home}, ${join(etc, 'placement')}, ${etc}); database: sqlite:${join(home, '.local', 'share', 'baton', 'baton.sqlite')} (embedded, in the data directory)\n`,
    );
  });

  test('a password in the URL is hidden', async () => {
    writeFileSync(
      placementConf,
      '[placement_database]\nconnection = postgresql://placement:s3cret@127.0.0.1:1/placement\n',
    );
    const result = await baton('db', 'version', '--service', 'placement');
    assert.match(
      result.config,
      /database: postgresql:\/\/placement:\*\*\*@127\.0\.0\.1:1\/placement \(the config file\)/,
    );
    assert.doesNotMatch(result.config + result.err, /s3cret/);
  });

  test('a typo is a warning naming the file, the place and the nearest option; --strict-config exits 64', async () => {
    writeFileSync(
      placementConf,
      '[placement_database]\nconection = sqlite:/elsewhere.sqlite\n\n[api]\nprot = 8780\n\n[placment]\nx = 1\n\n[empty_section_of_the_real_sample]\n',
    );
    const warned = await baton('db', 'version', '--service', 'placement');
    assert.equal(
      warned.err
        .split('\n')
        .filter((line) => line.startsWith('baton: warning:'))
        .join('\n'),
      [
        `baton: warning: ${placementConf}: [placement_database] conection is not an option Baton knows; did you mean connection? (ignored)`,
        `baton: warning: ${placementConf}: [api] prot is not an option Baton knows; did you mean port? (ignored)`,
        `baton: warning: ${placementConf}: section [placment] (1 option(s)) is not one Baton knows; did you mean [placement]? (ignored)`,
      ].join('\n'),
    );
    // The typo'd connection selects nothing: the embedded database, said so.
    assert.match(
      warned.config,
      /database: sqlite:.*baton\.sqlite \(embedded, in the data directory\)/,
    );
    const strict = await baton('db', 'version', '--service', 'placement', '--strict-config');
    assert.equal(strict.status, 64);
    assert.match(
      strict.err,
      /^baton: error: --strict-config: 3 setting\(s\) no service knows in the config files:\n.*conection is not an option Baton knows; did you mean connection\?\n/,
    );
    assert.equal(strict.config, '', 'refused before it names a database');
  });

  test('an option of the other service is no typo (one file may serve both)', async () => {
    writeFileSync(
      placementConf,
      '[database]\nconnection = sqlite:/x.sqlite\n[DEFAULT]\nhost = c1\n',
    );
    const result = await baton('db', 'version', '--service', 'placement');
    assert.equal(result.err.includes('warning'), false, result.err);
  });

  test("the servers read the same files: placement serve's plan, and its warnings", async () => {
    writeFileSync(placementConf, '[api]\nprot = 1\n[DEFAULT]\nbind_port = 8999\n');
    const warnings: string[] = [];
    const plan = await planServe({}, PLACEMENT_SERVICE, (line) => warnings.push(line));
    assert.deepEqual(plan.configFiles, [placementConf]);
    assert.equal(plan.config.port, 8999);
    assert.deepEqual(warnings, [
      `${placementConf}: [api] prot is not an option Baton knows; did you mean port? (ignored)`,
    ]);
    await assert.rejects(planServe({ strictConfig: true }, PLACEMENT_SERVICE), /--strict-config/);
  });
});
