/**
 * Every option of Placement's config file has a flag on `baton placement serve`, every flag
 * of it sets an option of the file (or names the file), and the flag wins: each option is
 * set one way in a file and another by its flag, through commander and the real planning.
 * `--help` shows each option's default, and the pin's values.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { Command } from 'commander';
import { buildProgram, runCli } from '../../src/cli/main.ts';
import { type PlacementServeOptions, planServe } from '../../src/cli/placement-serve-command.ts';
import { PLACEMENT_OPTIONS } from '../../src/placement/config-file.ts';
import { PLACEMENT_SERVICE } from '../../src/placement/service.ts';
import { flagOf } from '../../src/service/config-options.ts';

const scratch = mkdtempSync(join(tmpdir(), 'baton-flags-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** Two different valid values per option: the file's, then the flag's. */
const VALUES: Record<string, [string, string]> = {
  bind_host: ['10.0.0.1', '10.0.0.2'],
  bind_port: ['9001', '9002'],
  workers: ['2', '3'],
  state_path: [join(scratch, 'file-state'), join(scratch, 'flag-state')],
  pin_release_version: ['2026.1', ''],
  connection: [`sqlite:${join(scratch, 'file.sqlite')}`, `sqlite:${join(scratch, 'flag.sqlite')}`],
  auth_strategy: ['keystone', 'noauth2'],
  insecure_noauth_on_any_address: ['true', 'false'],
  enforce_scope: ['true', 'false'],
  enforce_new_defaults: ['false', 'true'],
  policy_file: [join(scratch, 'file.yaml'), join(scratch, 'flag.yaml')],
  allowed_origin: ['https://file.example', 'https://flag.example'],
  allow_headers: ['X-File', 'X-Flag'],
  expose_headers: ['X-File-Out', 'X-Flag-Out'],
  allow_methods: ['GET', 'PUT'],
  max_age: ['10', '20'],
  allow_credentials: ['false', 'true'],
  incomplete_consumer_project_id: ['file-project', 'flag-project'],
  incomplete_consumer_user_id: ['file-user', 'flag-user'],
  randomize_allocation_candidates: ['true', 'false'],
  // Logs, health check and metrics (src/service/operations-options.ts); [metrics] bind_host and
  // bind_port take the values of [DEFAULT]'s above.
  debug: ['true', 'false'],
  log_level: ['warn', 'error'],
  use_json: ['true', 'text'],
  log_file: [join(scratch, 'file.log'), join(scratch, 'flag.log')],
  log_dir: [join(scratch, 'file-logs'), join(scratch, 'flag-logs')],
  disable_by_file_path: [join(scratch, 'file-disable'), join(scratch, 'flag-disable')],
  drain_delay: ['5', '0'],
  max_request_body_size: ['1048576', '2097152'],
  request_receive_timeout: ['30', '45'],
  client_socket_timeout: ['300', '600'],
  max_client_connections: ['500', '800'],
  graceful_shutdown_timeout: ['30', '0'],
  enabled: ['false', 'true'],
  refresh_interval: ['30', '5'],
  www_authenticate_uri: ['https://file.example/identity', 'https://flag.example/identity'],
  auth_uri: ['https://file.example/old', 'https://flag.example/old'],
  auth_url: ['http://file.example:5000', 'http://flag.example:5000/v3'],
  auth_type: ['password', 'v3password'],
  username: ['file-user', 'flag-user'],
  user_id: ['file-uid', 'flag-uid'],
  password: ['file-secret', 'no flag'],
  user_domain_name: ['FileDomain', 'FlagDomain'],
  user_domain_id: ['file-domain', 'flag-domain'],
  project_name: ['file-project', 'flag-project'],
  project_id: ['file-pid', 'flag-pid'],
  project_domain_name: ['FileDomain', 'FlagDomain'],
  project_domain_id: ['file-domain', 'flag-domain'],
  domain_name: ['FileDomain', 'FlagDomain'],
  domain_id: ['file-domain', 'flag-domain'],
  system_scope: ['all', ''],
  default_domain_name: ['FileDomain', 'FlagDomain'],
  default_domain_id: ['file-domain', 'flag-domain'],
  interface: ['public', 'admin'],
  region_name: ['RegionFile', 'RegionFlag'],
  http_connect_timeout: ['5', '6'],
  http_request_max_retries: ['1', '0'],
  token_cache_time: ['60', '0'],
  service_token_roles: ['service', 'service,admin'],
  service_token_roles_required: ['true', 'false'],
  service_type: ['placement', 'placement-flag'],
  cafile: [join(scratch, 'file-ca.pem'), join(scratch, 'flag-ca.pem')],
  certfile: [join(scratch, 'file-cert.pem'), join(scratch, 'flag-cert.pem')],
  keyfile: [join(scratch, 'file-key.pem'), join(scratch, 'flag-key.pem')],
  insecure: ['true', 'false'],
};

/** Options only the file sets: a secret on a command line shows in every process list. */
const FILE_ONLY = ['password'];

/**
 * Written before each option's own line: noauth2 may listen on the test's addresses, and
 * auth_strategy = keystone finds the settings it needs.
 */
const BASE = [
  '[api]',
  'insecure_noauth_on_any_address = true',
  '[keystone_authtoken]',
  'auth_url = http://keystone.example:5000',
  'auth_type = password',
  'username = placement',
  'password = secret',
  'user_domain_name = Default',
  'project_name = service',
  'project_domain_name = Default',
  '',
].join('\n');

function serveCommand(program: Command): Command {
  const placement = program.commands.find((c) => c.name() === 'placement') as Command;
  return placement.commands.find((c) => c.name() === 'serve') as Command;
}

/** The options commander hands the serve command for these words (nothing is started). */
async function serveOptions(...argv: string[]): Promise<PlacementServeOptions> {
  const program = buildProgram(() => {});
  let seen: PlacementServeOptions = {};
  serveCommand(program).action((options: PlacementServeOptions) => {
    seen = options;
  });
  await program.parseAsync(['placement', 'serve', ...argv], { from: 'user' });
  return seen;
}

/** What a plan says of an option's value (the process settings live apart from config). */
function planned(plan: Awaited<ReturnType<typeof planServe>>, field: string): unknown {
  if (field === 'workers') return plan.workers;
  if (field === 'pinReleaseVersion') return plan.caps.release ?? '';
  if (field === 'dataDir') return plan.config.databaseUrl;
  return (plan.config as unknown as Record<string, unknown>)[field];
}

describe('placement serve: a flag for each option of the file, and the flag wins', () => {
  test('the options and the flags match one to one', () => {
    const flags = serveCommand(buildProgram(() => {}))
      .options.map((o) => o.long as string)
      .filter(
        (f) =>
          !['--help', '--config-file', '--config-dir', '--strict-config'].includes(f) &&
          !f.startsWith('--no-'),
      );
    const withFlags = PLACEMENT_OPTIONS.filter((o) => flagOf(o) !== undefined);
    const fromOptions = withFlags.map((o) => `--${flagOf(o)}`);
    assert.deepEqual([...flags].sort(), [...fromOptions].sort());
    assert.deepEqual(
      PLACEMENT_OPTIONS.filter((o) => flagOf(o) === undefined).map((o) => o.name),
      FILE_ONLY,
    );
    for (const option of PLACEMENT_OPTIONS) {
      assert.ok(
        Object.hasOwn(VALUES, option.name),
        `a test value for [${option.section}] ${option.name}`,
      );
    }
  });

  for (const option of PLACEMENT_OPTIONS) {
    if (flagOf(option) === undefined) continue;
    const place = `[${option.section}] ${option.name}`;
    test(`${place}: the file sets it; --${flagOf(option)} wins`, async () => {
      const [fileValue, flagValue] = VALUES[option.name] as [string, string];
      const conf = join(scratch, `${option.name}.conf`);
      writeFileSync(conf, `${BASE}[${option.section}]\n${option.name} = ${fileValue}\n`);
      const flag = `--${flagOf(option)}`;
      const flagArgs =
        option.type.flag === 'switch'
          ? [flagValue === 'true' ? flag : `--no-${flagOf(option)}`]
          : [flag, flagValue];
      const fromFile = await planServe(
        await serveOptions('--config-file', conf),
        PLACEMENT_SERVICE,
      );
      const fromFlag = await planServe(
        await serveOptions('--config-file', conf, ...flagArgs),
        PLACEMENT_SERVICE,
      );
      const parse = (text: string) =>
        option.field === 'dataDir'
          ? `sqlite:${join(text, 'baton.sqlite')}`
          : option.type.parse(text, place, scratch);
      assert.deepEqual(planned(fromFile, option.field), parse(fileValue), 'from the file');
      assert.deepEqual(planned(fromFlag, option.field), parse(flagValue), 'the flag over the file');
    });
  }

  test('BATON_PLACEMENT_PORT, BATON_DATA_DIR and BATON_PIN_RELEASE_VERSION count as their flags', async () => {
    const saved = { ...process.env };
    process.env.BATON_PLACEMENT_PORT = '9100';
    process.env.BATON_DATA_DIR = join(scratch, 'env-data');
    process.env.BATON_PIN_RELEASE_VERSION = '2026.1';
    try {
      const plan = await planServe(await serveOptions(), PLACEMENT_SERVICE);
      assert.equal(plan.config.port, 9100);
      assert.equal(plan.config.databaseUrl, `sqlite:${join(scratch, 'env-data', 'baton.sqlite')}`);
      assert.equal(plan.caps.release, '2026.1');
      const flag = await planServe(await serveOptions('--port', '9200'), PLACEMENT_SERVICE);
      assert.equal(flag.config.port, 9200);
    } finally {
      for (const name of ['BATON_PLACEMENT_PORT', 'BATON_DATA_DIR', 'BATON_PIN_RELEASE_VERSION']) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }
  });
});

describe('--help', () => {
  /** Every command of the program with the words that run it. */
  function leaves(command: Command, path: string[] = []): { path: string[]; command: Command }[] {
    return command.commands.flatMap((sub) => {
      const here = [...path, sub.name()];
      return sub.commands.length === 0 ? [{ path: here, command: sub }] : leaves(sub, here);
    });
  }

  test('shows the default of every option of every command', async () => {
    for (const { path, command } of leaves(buildProgram(() => {}))) {
      for (const option of command.options) {
        const long = option.long as string;
        // A hidden flag (an option's deprecated name) is not in --help.
        if (long === '--help' || long.startsWith('--no-') || option.mandatory || option.hidden) {
          continue;
        }
        assert.match(
          option.description,
          /\(default: [^)]+\)|; default: [^)]+\)/,
          `${path.join(' ')} ${long}`,
        );
      }
      if (command.options.every((o) => o.mandatory || o.long === '--help')) continue;
      let out = '';
      const status = await runCli([...path, '--help'], {
        out: (l) => (out += `${l}\n`),
        err: () => {},
      });
      assert.equal(status, 0);
      assert.match(out, /default:/, path.join(' '));
    }
  });

  test('lists the releases a pin may name', async () => {
    for (const argv of [
      ['placement', 'serve', '--help'],
      ['upgrade-check', '--help'],
    ]) {
      let out = '';
      await runCli(argv, { out: (l) => (out += `${l}\n`), err: () => {} });
      const flat = out.replace(/\s+/g, ' ');
      assert.match(
        flat,
        /--pin-release-version <release> .*one of:? (placement: )?2026\.1, master/,
        argv.join(' '),
      );
    }
  });
});
