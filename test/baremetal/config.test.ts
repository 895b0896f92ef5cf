/** The bare metal service's config file: options as data, the real defaults, layers, errors. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { KEYSTONE_AUTHTOKEN_DEFAULTS } from '../../src/auth/index.ts';
import { DEFAULT_API_PORT, defaultBaremetalConfig } from '../../src/baremetal/config.ts';
import {
  BAREMETAL_OPTIONS,
  baremetalConfigFromIni,
  baremetalConfigOf,
  loadBaremetalConfigFile,
} from '../../src/baremetal/config-file.ts';
import { BAREMETAL_SERVICE, planBaremetal } from '../../src/baremetal/service.ts';
import { UnknownReleaseError } from '../../src/releases/index.ts';
import { RpcConfigError } from '../../src/rpc/index.ts';
import { ConfigFileError } from '../../src/service/index.ts';

describe('bare metal config', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'baton-bm-config-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('has the real defaults', () => {
    const config = defaultBaremetalConfig('sqlite:x');
    assert.equal(config.api.port, DEFAULT_API_PORT);
    assert.equal(DEFAULT_API_PORT, 6385);
    assert.equal(config.rpc.rpc_transport, 'http');
    const c = config.conductor;
    assert.deepEqual(
      [
        c.heartbeatInterval,
        c.heartbeatTimeout,
        c.automatedClean,
        c.deployCallbackTimeout,
        c.cleanCallbackTimeout,
      ],
      [10, 60, true, 1800, 1800],
    );
    assert.deepEqual(
      [
        c.workersPoolSize,
        c.nodeLockedRetryAttempts,
        c.nodeLockedRetryInterval,
        c.gracefulShutdownTimeout,
      ],
      [100, 3, 1, 60],
    );
    // ironic/conf/conductor.py: the power state sync and the recovery from power failures.
    assert.deepEqual(
      [
        c.syncPowerStateInterval,
        c.forcePowerStateDuringSync,
        c.powerStateSyncMaxRetries,
        c.syncPowerStateWorkers,
        c.powerFailureRecoveryInterval,
      ],
      [60, true, 3, 8, 300],
    );
    assert.equal(c.conductorGroup, '');
  });

  it('reads [api] drain_wait as the deprecated name of [healthcheck] drain_delay; the new name wins', () => {
    const read = (text: string) =>
      baremetalConfigOf('sqlite:x', baremetalConfigFromIni(text, '/etc/baton').values).operations;
    assert.equal(read('').drainDelaySeconds, 5, 'the API waits for its balancer by default');
    assert.equal(read('').gracefulShutdownTimeout, 60);
    assert.equal(read('[api]\ndrain_wait = 7').drainDelaySeconds, 7);
    assert.deepEqual(baremetalConfigFromIni('[api]\ndrain_wait = 7').deprecations, [
      'Option "drain_wait" from group "api" is deprecated. Use option "drain_delay" from group "healthcheck".',
    ]);
    assert.deepEqual(baremetalConfigFromIni('[healthcheck]\ndrain_delay = 7').deprecations, []);
    assert.equal(
      read('[api]\ndrain_wait = 7\n[healthcheck]\ndrain_delay = 2').drainDelaySeconds,
      2,
    );
    assert.throws(() => read('[api]\ndrain_wait = -1'), /\[api\] drain_wait/);
    const both = read('[DEFAULT]\ngraceful_shutdown_timeout = 9');
    assert.equal(both.gracefulShutdownTimeout, 9, 'the APIs bound their stop with it');
  });

  it('reads every section by field, keeps the pin apart, and names each option once', () => {
    const read = baremetalConfigFromIni(
      [
        '[DEFAULT]',
        'host = cond-a',
        'pin_release_version = zed',
        'rpc_response_timeout = 7',
        'rpc_transport = amqp',
        'transport_url = amqp://guest:guest@127.0.0.1:5672/',
        'enabled_rescue_interfaces = fake',
        'enabled_console_interfaces = fake,no-console',
        'default_console_interface = no-console',
        'graceful_shutdown_timeout = 30',
        'state_path = data',
        '[database]',
        'connection = mysql+pymysql://root@127.0.0.1/ironic',
        '[api]',
        'host_ip = 0.0.0.0',
        'port = 6390',
        'insecure_noauth_on_any_address = true',
        '[oslo_policy]',
        'policy_file = policy.yaml',
        'enforce_scope = true',
        '[keystone_authtoken]',
        'auth_url = http://127.0.0.1:5000/',
        '[conductor]',
        'conductor_group = Rack1',
        'heartbeat_interval = 2',
        'automated_clean = false',
        'workers_pool_size = 8',
        'node_locked_retry_attempts = 5',
        'power_state_change_timeout = 20',
        'sync_power_state_interval = -1',
        'force_power_state_during_sync = false',
        'power_state_sync_max_retries = 5',
        'sync_power_state_workers = 16',
        'power_failure_recovery_interval = 0',
        '[ipmi]',
        'command_retry_timeout = 10',
        'min_command_interval = 1',
        'disable_boot_timeout = false',
        '[fake]',
        'deploy_delay = 2,5',
        'power_delay = 1',
        '[unknown]',
        'ignored = yes',
      ].join('\n'),
      '/etc/baton',
    );
    assert.equal(read.pinReleaseVersion, 'zed');
    assert.equal(read.databaseUrl, 'mysql+pymysql://root@127.0.0.1/ironic');
    assert.equal(read.dataDir, '/etc/baton/data', 'relative to the file');
    const config = baremetalConfigOf('sqlite:default.sqlite', read.values);
    assert.deepEqual(config.rpc, {
      rpc_transport: 'amqp',
      rpc_transport_url: 'amqp://guest:guest@127.0.0.1:5672/',
    });
    assert.deepEqual(config.api, {
      hostIp: '0.0.0.0',
      port: 6390,
      apiWorkers: 1,
      maxLimit: 1000,
      publicEndpoint: undefined,
      defaultResourceClass: undefined,
      authStrategy: 'noauth',
      insecureNoauthOnAnyAddress: true,
      policy: {
        policyFile: '/etc/baton/policy.yaml',
        enforceScope: true,
        enforceNewDefaults: false,
      },
      keystone: { ...KEYSTONE_AUTHTOKEN_DEFAULTS, keystoneAuthUrl: 'http://127.0.0.1:5000/' },
      rpcResponseTimeout: 7,
      enableRamdiskEndpoints: true,
      fastTrack: false,
      httpBasicAuthUserFile: '/etc/ironic/htpasswd',
      ramdiskHeartbeatTimeout: 300,
      restrictLookup: true,
    });
    const c = config.conductor;
    assert.equal(c.host, 'cond-a');
    assert.equal(c.conductorGroup, 'rack1');
    assert.equal(c.heartbeatInterval, 2);
    assert.equal(c.automatedClean, false);
    assert.equal(c.workersPoolSize, 8);
    assert.equal(c.nodeLockedRetryAttempts, 5);
    assert.equal(c.gracefulShutdownTimeout, 30);
    assert.equal(c.powerStateChangeTimeout, 20);
    assert.equal(c.syncPowerStateInterval, -1, 'off, as the real one takes it');
    assert.equal(c.forcePowerStateDuringSync, false);
    assert.equal(c.powerStateSyncMaxRetries, 5);
    assert.equal(c.syncPowerStateWorkers, 16);
    assert.equal(c.powerFailureRecoveryInterval, 0);
    assert.equal(c.ipmi.commandRetryTimeout, 10);
    assert.equal(c.ipmi.minCommandInterval, 1);
    assert.equal(c.ipmi.disableBootTimeout, false);
    assert.equal(c.ipmi.debug, false);
    assert.deepEqual(c.fakeDelays.deploy, [2, 5]);
    assert.deepEqual(c.fakeDelays.power, [1, 1]);
    assert.deepEqual(c.fakeDelays.bios, [0, 0]);
    assert.deepEqual(c.enabledInterfaces.rescue, ['fake']);
    assert.deepEqual(
      c.enabledInterfaces.network,
      ['noop'],
      'kinds the file leaves out keep their default',
    );
    assert.deepEqual(
      c.defaultInterfaces,
      { console: 'no-console', storage: 'noop' },
      'default_<kind>_interface by kind; storage keeps the real default, noop',
    );
    const names = BAREMETAL_OPTIONS.map((o) => `[${o.section}] ${o.name}`);
    assert.equal(new Set(names).size, names.length);
    for (const option of BAREMETAL_OPTIONS) assert.ok(option.help.length > 0, option.name);
  });

  it('refuses bad values naming the file and the option', async () => {
    for (const [text, expected] of [
      [
        '[conductor]\nheartbeat_interval = often',
        /\[conductor\] heartbeat_interval: 'often' is not an integer/,
      ],
      [
        '[conductor]\nautomated_clean = maybe',
        /\[conductor\] automated_clean: 'maybe' is not a boolean/,
      ],
      ['[conductor]\nworkers_pool_size = 1', /workers_pool_size: '1' is not an integer from 3/],
      [
        '[DEFAULT]\nenabled_hardware_types = redfish',
        /hardware type 'redfish' is not available; only fake-hardware, ipmi are/,
      ],
      [
        '[DEFAULT]\nenabled_bios_interfaces = redfish',
        /'redfish' is not an available bios interface/,
      ],
      [
        '[DEFAULT]\nrpc_transport = zeromq',
        /rpc_transport: 'zeromq' is not one of http, amqp, local/,
      ],
      ['[fake]\ndeploy_delay = 1,2,3', /deploy_delay: '1,2,3' is not a number of seconds/],
    ] as const) {
      const path = file('bad.conf', text);
      await assert.rejects(loadBaremetalConfigFile(path), (error: unknown) => {
        assert.ok(error instanceof ConfigFileError);
        assert.match(error.message, new RegExp(`^config file ${path}: `));
        assert.match(error.message, expected);
        return true;
      });
    }
    await assert.rejects(loadBaremetalConfigFile(join(dir, 'none.conf')), /no such file/);
  });

  it('plans a process: defaults, then the file, then the flags; the flag pin wins', async () => {
    const path = file(
      'plan.conf',
      '[DEFAULT]\npin_release_version = yoga\n[conductor]\nheartbeat_timeout = 30\nheartbeat_interval = 3\n[database]\nconnection = sqlite:/tmp/x.sqlite\n',
    );
    const fromFile = await planBaremetal({ configFile: path });
    assert.equal(fromFile.caps.release, 'yoga');
    assert.equal(fromFile.caps.apiMax, '1.78');
    assert.equal(fromFile.config.databaseUrl, 'sqlite:/tmp/x.sqlite');
    assert.equal(fromFile.config.conductor.heartbeatTimeout, 30);
    const flagged = await planBaremetal({
      configFile: path,
      flags: { pinReleaseVersion: '', heartbeatInterval: 1, dataDir: dir, databaseUrl: undefined },
    });
    assert.equal(flagged.caps.release, undefined, 'an empty flag unpins');
    assert.equal(flagged.caps.apiMax, '1.82');
    assert.equal(flagged.config.conductor.heartbeatInterval, 1);
    assert.equal(flagged.config.conductor.heartbeatTimeout, 30, 'the file still applies');
    const embedded = await planBaremetal({ flags: { dataDir: dir } });
    assert.equal(embedded.config.databaseUrl, `sqlite:${join(dir, 'baton.sqlite')}`);
    await assert.rejects(
      planBaremetal({ flags: { pinReleaseVersion: 'xena' } }),
      (error: unknown) =>
        error instanceof UnknownReleaseError &&
        /yoga, 21\.1, zed, 21\.4, 2023\.1, antelope, master/.test(error.message),
    );
    await assert.rejects(
      planBaremetal({ flags: { rpcTransport: 'amqp', rpcTransportUrl: 'http://x' } }),
      RpcConfigError,
    );
  });

  it('defines the service for the toolkit, master derived from the code', () => {
    assert.deepEqual(BAREMETAL_SERVICE.binaries, ['baremetal-api', 'baremetal-conductor']);
    assert.equal(BAREMETAL_SERVICE.release, 'antelope');
    const master = BAREMETAL_SERVICE.releases.master;
    assert.equal(master?.api, '1.82');
    assert.equal(master?.rpc, '1.4');
    assert.deepEqual(master?.objects.Node, ['1.37']);
    assert.equal(BAREMETAL_SERVICE.objectTables.length > 0, true);
  });
});
