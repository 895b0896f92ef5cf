/** oslo.config-style INI settings for Placement, and flags over them. */
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { defaultPlacementConfig, PLACEMENT_CORS_DEFAULTS } from '../../src/placement/config.ts';
import {
  ConfigFileError,
  configFromIni,
  loadConfigFile,
  mergeConfig,
  PLACEMENT_OPTIONS,
  parseIni,
} from '../../src/placement/config-file.ts';

const FULL = `
# Placement settings
[DEFAULT]
bind_host = 0.0.0.0
bind_port = 9000

[placement_database]
connection = mysql+pymysql://placement:secret@db.example/placement

[api]
auth_strategy = noauth2

[oslo_policy]
enforce_scope = True
enforce_new_defaults = yes
policy_file = policy.yaml

[cors]
allowed_origin = https://a.example, https://b.example
allow_headers = X-Custom,
  X-Other
max_age = 60
allow_credentials = false

[placement]
incomplete_consumer_project_id = "p-incomplete"
incomplete_consumer_user_id: u-incomplete

[unrelated]
whatever = 1
`;

describe('INI parsing', () => {
  it('reads sections, both separators, comments, continuation lines and quotes', () => {
    const sections = parseIni(FULL);
    assert.equal(sections.get('DEFAULT')?.get('bind_port'), '9000');
    assert.equal(sections.get('cors')?.get('allow_headers'), 'X-Custom,\nX-Other');
    assert.equal(sections.get('placement')?.get('incomplete_consumer_project_id'), 'p-incomplete');
    assert.equal(sections.get('placement')?.get('incomplete_consumer_user_id'), 'u-incomplete');
  });

  it('the last value of a repeated key wins; an empty value is empty', () => {
    const sections = parseIni('[api]\nauth_strategy = keystone\nauth_strategy = noauth2\nx =\n');
    assert.equal(sections.get('api')?.get('auth_strategy'), 'noauth2');
    assert.equal(sections.get('api')?.get('x'), '');
  });

  it('refuses lines it cannot read, with their number', () => {
    assert.throws(() => parseIni('[api]\njust words\n'), /line 2: expected 'key = value'/);
    assert.throws(() => parseIni('key = value\n'), /line 1: option 'key' before any \[section\]/);
  });
});

describe('settings from INI', () => {
  it('maps every recognised option', () => {
    const file = configFromIni(FULL, '/etc/placement');
    assert.deepEqual(file.settings, {
      host: '0.0.0.0',
      port: 9000,
      databaseUrl: 'mysql+pymysql://placement:secret@db.example/placement',
      authStrategy: 'noauth2',
      enforceScope: true,
      enforceNewDefaults: true,
      policyFile: '/etc/placement/policy.yaml',
      corsAllowedOrigins: ['https://a.example', 'https://b.example'],
      corsAllowHeaders: ['X-Custom', 'X-Other'],
      corsMaxAge: 60,
      corsAllowCredentials: false,
      incompleteConsumerProjectId: 'p-incomplete',
      incompleteConsumerUserId: 'u-incomplete',
    });
    assert.equal(file.pinReleaseVersion, undefined);
  });

  it('keeps the release pin apart from the settings the service runs with', () => {
    const file = configFromIni('[DEFAULT]\npin_release_version = 2026.1\nbind_port = 1\n');
    assert.deepEqual(file, { settings: { port: 1 }, pinReleaseVersion: '2026.1' });
    assert.deepEqual(configFromIni('[DEFAULT]\npin_release_version =\n').pinReleaseVersion, '');
  });

  it('each option is one place in the file and sets one setting', () => {
    const defaults = defaultPlacementConfig('sqlite:/tmp/x.sqlite');
    const places = PLACEMENT_OPTIONS.map((o) => `[${o.section}] ${o.name}`);
    assert.equal(new Set(places).size, places.length);
    for (const option of PLACEMENT_OPTIONS) {
      assert.ok(
        ['pinReleaseVersion', 'dataDir', 'workers'].includes(option.field) ||
          Object.hasOwn(defaults, option.field),
        `${option.name} sets ${option.field}, which PlacementConfig does not have`,
      );
      assert.notEqual(option.help, '');
    }
  });

  it('refuses values of the wrong type and unsupported auth strategies', () => {
    assert.throws(
      () => configFromIni('[oslo_policy]\nenforce_scope = maybe\n'),
      /\[oslo_policy\] enforce_scope: 'maybe' is not a boolean/,
    );
    assert.throws(
      () => configFromIni('[DEFAULT]\nbind_port = 70000\n'),
      /bind_port: '70000' is not an integer/,
    );
    assert.throws(
      () => configFromIni('[api]\nauth_strategy = ldap\n'),
      /\[api\] auth_strategy: 'ldap' is not supported; one of keystone, noauth2/,
    );
    assert.equal(
      configFromIni('[api]\nauth_strategy = keystone\n').settings.authStrategy,
      'keystone',
    );
  });

  it('keeps database URLs as written, in every form the database layer reads, and refuses others', () => {
    for (const url of [
      'mysql+pymysql://placement:secret@db.example/placement?charset=utf8',
      'postgresql+psycopg2://placement@db.example/placement',
      'sqlite:////var/lib/placement/placement.sqlite',
    ]) {
      assert.equal(
        configFromIni(`[placement_database]\nconnection = ${url}\n`).settings.databaseUrl,
        url,
      );
    }
    assert.throws(
      () => configFromIni('[placement_database]\nconnection = oracle://h/x\n'),
      /\[placement_database\] connection: database URL 'oracle:\/\/h\/x' has an unsupported scheme/,
    );
  });

  it('keeps the process settings apart: state_path (beside the file) and workers', () => {
    const file = configFromIni('[DEFAULT]\nstate_path = state\nworkers = 4\n', '/etc/placement');
    assert.deepEqual(file, { settings: {}, dataDir: '/etc/placement/state', workers: 4 });
    assert.throws(
      () => configFromIni('[DEFAULT]\nworkers = 0\n'),
      /workers: '0' is not an integer from 1 to 64/,
    );
  });

  it('loads a file, naming it in every error', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'placement-conf-'));
    const good = join(dir, 'placement.conf');
    await writeFile(good, '[oslo_policy]\npolicy_file = rules.yaml\n');
    assert.deepEqual(await loadConfigFile(good), {
      settings: { policyFile: join(dir, 'rules.yaml') },
    });
    const bad = join(dir, 'bad.conf');
    await writeFile(bad, '[cors]\nmax_age = soon\n');
    await assert.rejects(loadConfigFile(bad), (error: unknown) => {
      assert.ok(error instanceof ConfigFileError);
      assert.equal(
        error.message,
        `config file ${bad}: [cors] max_age: 'soon' is not an integer from 0 to 2147483647`,
      );
      return true;
    });
    await assert.rejects(loadConfigFile(join(dir, 'missing.conf')), /missing.conf: no such file/);
  });
});

describe('layering', () => {
  it('defaults, then the file, then the flags', () => {
    const base = defaultPlacementConfig('sqlite:/tmp/default.sqlite');
    const config = mergeConfig(
      base,
      { port: 9000, host: '0.0.0.0', enforceScope: true },
      { port: 9100, policyFile: undefined },
    );
    assert.equal(config.port, 9100);
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.enforceScope, true);
    assert.equal(config.enforceNewDefaults, false);
    assert.equal(config.databaseUrl, 'sqlite:/tmp/default.sqlite');
    assert.deepEqual(config.corsAllowHeaders, PLACEMENT_CORS_DEFAULTS.allowHeaders);
    assert.deepEqual(config.corsAllowedOrigins, []);
  });
});
