/**
 * The options of the bare metal service's config file (`ironic.conf`'s names and meanings), as
 * the toolkit's option data (src/service/config-options.ts): one flat list of settings by field,
 * from which the file is read, `baton baremetal conductor` gets a flag per option (the flag
 * wins), and `baton config sample --service baremetal` writes the commented sample. Anything
 * else in the file is ignored, as oslo.config does (the command warns about it:
 * src/service/config-check.ts). `baremetalConfigOf` turns the flat values
 * into the settings of the two processes (config.ts).
 */
import { hostname } from 'node:os';
import {
  KEYSTONE_AUTHTOKEN_DEFAULTS,
  KEYSTONE_AUTHTOKEN_OPTIONS,
  type KeystoneAuthtokenSettings,
} from '../auth/keystone-options.ts';
import { INSECURE_NOAUTH_OPTION } from '../auth/listen-safety.ts';
import type { ConfigProject } from '../service/config-files.ts';
import { ConfigFileError, toInteger } from '../service/config-ini.ts';
import {
  BOOLEAN,
  type ConfigOption,
  type ConfigSchema,
  choice,
  DATABASE_URL,
  integer,
  LIST,
  type OptionType,
  type OptionTypeLike,
  optionType,
  PATH,
  PORT,
  STRING,
} from '../service/config-options.ts';
import { DATA_DIR_ENV } from '../service/data-dir.ts';
import type { OperationsConfig } from '../service/operations-config.ts';
import { OPERATIONS_OPTIONS } from '../service/operations-options.ts';
import type { FakeDelays } from './conductor/conductor-settings.ts';
import {
  BAREMETAL_AUTH_STRATEGIES,
  type BaremetalConfig,
  defaultBaremetalConfig,
} from './config.ts';
import { BUILTIN_DRIVERS, implementationNames } from './drivers/driver-catalog.ts';
import { INTERFACE_KINDS, type InterfaceKind } from './drivers/interface-kinds.ts';
import { BAREMETAL_RELEASES } from './releases.ts';

const MAX_INT = 2 ** 31 - 1;

/** `[json_rpc]`'s keystoneauth options (who the API is when it calls a conductor), with their help. */
const JSON_RPC_CREDENTIALS: Readonly<Record<string, string>> = {
  auth_type: 'How the API authenticates for the RPC; only password is implemented.',
  auth_url: 'The Identity endpoint the API gets its RPC token at (…/v3 or its root).',
  username: "The RPC user's name (it needs one of allowed_roles).",
  user_id: "The RPC user's id (instead of username).",
  password: "The RPC user's password (no flag).",
  user_domain_name: "The RPC user's domain name.",
  user_domain_id: "The RPC user's domain id.",
  project_name: "The RPC token's project (scope).",
  project_id: "The RPC token's project id (scope).",
  project_domain_name: "The RPC token project's domain name.",
  project_domain_id: "The RPC token project's domain id.",
  domain_name: 'A domain to scope the RPC token to.',
  domain_id: 'A domain id to scope the RPC token to.',
  system_scope: 'Scope the RPC token to the system (all).',
  default_domain_name: 'Domain of the user and project when their own domain options are unset.',
  default_domain_id: 'Domain id of the user and project when their own domain options are unset.',
  cafile: 'CA bundle for an https Keystone.',
  certfile: 'Client certificate for Keystone.',
  keyfile: 'Key of the client certificate.',
  insecure: "Do not verify Keystone's certificate.",
};

/** `keystoneAuthUrl` (a [keystone_authtoken] field) → `jsonRpcAuthUrl`, its [json_rpc] twin. */
export const jsonRpcField = (keystoneField: string) =>
  `jsonRpc${keystoneField.slice('keystone'.length)}`;

const JSON_RPC_CREDENTIAL_OPTIONS: readonly ConfigOption[] = KEYSTONE_AUTHTOKEN_OPTIONS.flatMap(
  (option) => {
    const help = JSON_RPC_CREDENTIALS[option.name];
    if (help === undefined) return [];
    const flag = option.flag === false ? false : `json-rpc-${option.name.replaceAll('_', '-')}`;
    return [{ ...option, section: 'json_rpc', field: jsonRpcField(option.field), help, flag }];
  },
);

function option(
  section: string,
  name: string,
  field: string,
  help: string,
  type: OptionTypeLike,
  extra: Pick<ConfigOption, 'flag' | 'env' | 'defaultText'> = {},
): ConfigOption {
  return { section, name, field, help, type: optionType(type) as OptionType, ...extra };
}

const seconds = (min = 0) => integer(min, MAX_INT);
const capitalized = (kind: string) => `${kind[0]?.toUpperCase()}${kind.slice(1)}`;
const FAKE_DELAY_KINDS = Object.keys({
  power: 0,
  boot: 0,
  deploy: 0,
  management: 0,
  inspect: 0,
  rescue: 0,
  bios: 0,
  raid: 0,
  storage: 0,
  vendor: 0,
} satisfies Record<keyof FakeDelays, 0>) as (keyof FakeDelays)[];

/** `[fake] x_delay`: `n` or `a,b` seconds. */
const DELAY: OptionType<readonly [number, number]> = {
  name: 'string value',
  metavar: 'seconds',
  parse: (text, option) => {
    const parts = text.split(',').map((part) => toInteger(option, part.trim(), 0, 3600));
    if (parts.length === 1) return [parts[0] as number, parts[0] as number];
    if (parts.length === 2) return [parts[0] as number, parts[1] as number];
    throw new ConfigFileError(`${option}: '${text}' is not a number of seconds or a range a,b`);
  },
  format: ([low, high]) => (low === high ? String(low) : `${low},${high}`),
  flag: 'value',
};

/** Hardware types Baton has (src/baremetal/drivers/driver-catalog.ts): a file names no other. */
const AVAILABLE_TYPES = BUILTIN_DRIVERS.hardwareTypes.map((type) => type.name);

const HARDWARE_TYPES: OptionType<readonly string[]> = {
  ...LIST,
  parse: (text, option) => {
    const types = LIST.parse(text, option, '');
    for (const type of types) {
      if (!AVAILABLE_TYPES.includes(type)) {
        const only = `${AVAILABLE_TYPES.join(', ')} ${AVAILABLE_TYPES.length === 1 ? 'is' : 'are'}`;
        throw new ConfigFileError(
          `${option}: hardware type '${type}' is not available; only ${only}`,
        );
      }
    }
    return types;
  },
};

/** `enabled_<kind>_interfaces`: implementations Baton has a module for. */
function interfaces(kind: InterfaceKind): OptionType<readonly string[]> {
  const available = implementationNames(BUILTIN_DRIVERS, kind);
  return {
    ...LIST,
    notes: [`Available: ${available.join(', ')}`],
    parse: (text, option) => {
      const names = LIST.parse(text, option, '');
      for (const name of names) {
        if (!available.includes(name)) {
          throw new ConfigFileError(`${option}: '${name}' is not an available ${kind} interface`);
        }
      }
      return names;
    },
  };
}

const PIN: OptionType<string> = {
  ...STRING,
  metavar: 'release',
  notes: ['Possible values:', ...Object.keys(BAREMETAL_RELEASES), 'master'],
};

const conductor = (name: string, field: string, help: string, type: OptionTypeLike) =>
  option('conductor', name, field, help, type);

export const BAREMETAL_OPTIONS: readonly ConfigOption[] = [
  option(
    'DEFAULT',
    'host',
    'host',
    "This conductor's name: its RPC server, ring entry and reservations. Unset: the machine's hostname.",
    STRING,
  ),
  option(
    'DEFAULT',
    'state_path',
    'dataDir',
    'The data directory: where the embedded SQLite database is when [database] connection is unset. Unset: $XDG_DATA_HOME/baton, else ~/.local/share/baton.',
    PATH,
    { flag: 'data-dir', env: DATA_DIR_ENV },
  ),
  option(
    'DEFAULT',
    'pin_release_version',
    'pinReleaseVersion',
    'Speak at most what this release speaks, during a rolling upgrade; empty: not pinned.',
    PIN,
    { env: 'BATON_PIN_RELEASE_VERSION' },
  ),
  option(
    'DEFAULT',
    'rpc_transport',
    'rpcTransport',
    'How the tiers talk: http (JSON-RPC over HTTP, peers in the services table), amqp (RabbitMQ) or local (one process).',
    choice(['http', 'amqp', 'local']),
  ),
  option(
    'DEFAULT',
    'rpc_transport_url',
    'rpcTransportUrl',
    'http: the address a conductor listens on (http://host:port; port 0: any free one); amqp: the broker URL.',
    STRING,
  ),
  option(
    'DEFAULT',
    'transport_url',
    'transportUrl',
    "oslo.messaging's name for the broker URL: used when rpc_transport_url is unset.",
    STRING,
    { flag: false },
  ),
  option(
    'DEFAULT',
    'rpc_shared_secret',
    'rpcSharedSecret',
    'http: a secret every RPC request carries (Authorization: Bearer) and every conductor checks, whatever the auth strategy (a Baton extension); empty: none.',
    STRING,
  ),
  option(
    'DEFAULT',
    'rpc_exchange',
    'rpcExchange',
    "amqp: the topic exchange (oslo.messaging's control_exchange).",
    STRING,
  ),
  option(
    'DEFAULT',
    'rpc_response_timeout',
    'rpcResponseTimeout',
    "Seconds the API waits for a conductor's reply before answering 503 (oslo.messaging's option).",
    seconds(1),
  ),
  option(
    'DEFAULT',
    'enabled_hardware_types',
    'enabledHardwareTypes',
    'Hardware types the conductors run.',
    HARDWARE_TYPES,
  ),
  ...INTERFACE_KINDS.flatMap((kind) => [
    option(
      'DEFAULT',
      `enabled_${kind}_interfaces`,
      `enabled${capitalized(kind)}Interfaces`,
      `The ${kind} interfaces the conductors enable; empty: the first of each enabled hardware type's supported ones.`,
      interfaces(kind),
    ),
    // Checked when a conductor starts, as the real one does: it must be enabled, and
    // supported by every enabled hardware type.
    option(
      'DEFAULT',
      `default_${kind}_interface`,
      `default${capitalized(kind)}Interface`,
      `The ${kind} interface of a node created without one. Unset: its hardware type's first supported one that is enabled.`,
      STRING,
    ),
  ]),
  option(
    'DEFAULT',
    'hash_ring_reset_interval',
    'hashRingResetInterval',
    'Seconds the hash rings are cached (and a stopping conductor keeps serving RPC).',
    seconds(),
  ),
  option(
    'DEFAULT',
    'hash_partition_exponent',
    'hashPartitionExponent',
    '2^n points per conductor on the hash ring.',
    integer(1, 16),
  ),
  option(
    'database',
    'connection',
    'databaseUrl',
    'The database URL: sqlite:<path>, sqlite:////<absolute path>, postgresql[+driver]://… or mysql[+driver]://…. Unset: sqlite:<state_path>/baton.sqlite.',
    DATABASE_URL,
    { flag: 'db' },
  ),
  option(
    'api',
    'host_ip',
    'apiHostIp',
    'Address the API listens on (Baton: loopback by default, no authentication is built).',
    { ...STRING, metavar: 'address' },
  ),
  option('api', 'port', 'apiPort', 'Port the API listens on (0: any free one).', PORT),
  option('api', 'api_workers', 'apiWorkers', 'API processes sharing the port.', integer(1, 256)),
  option(
    'api',
    'max_limit',
    'apiMaxLimit',
    'The most items a list answers with.',
    integer(1, MAX_INT),
  ),
  option(
    'api',
    'public_endpoint',
    'apiPublicEndpoint',
    'The root of the links in API bodies. Unset: the host each request names.',
    { ...STRING, metavar: 'url' },
  ),
  option(
    'api',
    'enable_ramdisk_endpoints',
    'apiEnableRamdiskEndpoints',
    'Serve the ramdisk agent endpoints (lookup, heartbeat); off, they answer 403 (an API no ramdisk should reach).',
    BOOLEAN,
  ),
  option(
    'api',
    'restrict_lookup',
    'apiRestrictLookup',
    "A ramdisk's lookup finds only nodes in the states a ramdisk runs in (deploying, cleaning, inspecting, rescuing and their waits; with fast track also enroll, manageable and available).",
    BOOLEAN,
  ),
  option(
    'api',
    'ramdisk_heartbeat_timeout',
    'apiRamdiskHeartbeatTimeout',
    'The heartbeat interval (s) a lookup tells the ramdisk agent to keep under.',
    seconds(),
  ),
  option(
    'deploy',
    'fast_track',
    'deployFastTrack',
    "Let a ramdisk agent stay up between operations (lookups in enroll, manageable and available); a node's driver_info fast_track overrides it.",
    BOOLEAN,
  ),
  option(
    'DEFAULT',
    'auth_strategy',
    'authStrategy',
    "The API's authentication, and the http RPC's unless [json_rpc] auth_strategy is set. keystone: tokens validated with Keystone ([keystone_authtoken]) and Ironic's policy applied; noauth: no token is checked, the caller is trusted (the real standalone setup; loopback only); http_basic: a user and password of http_basic_auth_user_file on every request but the public ones, no policy (the RPC then needs [json_rpc] auth_strategy keystone, or noauth with rpc_shared_secret).",
    choice(BAREMETAL_AUTH_STRATEGIES),
  ),
  option(
    'DEFAULT',
    'http_basic_auth_user_file',
    'httpBasicAuthUserFile',
    'Under auth_strategy http_basic: the Apache htpasswd file of the API users (bcrypt entries only), read for every request.',
    PATH,
  ),
  option(
    'oslo_policy',
    'enforce_scope',
    'enforceScope',
    'Refuse a token of a scope the rule is not meant for (off in Ironic 21.4).',
    BOOLEAN,
  ),
  option(
    'oslo_policy',
    'enforce_new_defaults',
    'enforceNewDefaults',
    'Use only the secure-RBAC defaults, not the pre-RBAC rules they replaced (off in Ironic 21.4).',
    BOOLEAN,
  ),
  option(
    'oslo_policy',
    'policy_file',
    'policyFile',
    'YAML or JSON rules over the defaults; relative to the config file.',
    PATH,
  ),
  option(
    'api',
    INSECURE_NOAUTH_OPTION,
    'insecureNoauthOnAnyAddress',
    'Let noauth listen on a non-loopback address, where anyone who reaches it can act as any user, admin included.',
    BOOLEAN,
  ),
  option(
    'DEFAULT',
    'default_resource_class',
    'defaultResourceClass',
    'The resource class of a node created without one. Unset: none.',
    STRING,
  ),
  conductor(
    'conductor_group',
    'conductorGroup',
    'The conductor group this conductor serves.',
    (text: string) => text.toLowerCase(),
  ),
  conductor('heartbeat_interval', 'heartbeatInterval', 'Seconds between heartbeats.', seconds(1)),
  conductor(
    'heartbeat_timeout',
    'heartbeatTimeout',
    'Seconds without a heartbeat after which a conductor is dead.',
    seconds(1),
  ),
  conductor(
    'automated_clean',
    'automatedClean',
    'Clean nodes on provide and after tear-down.',
    BOOLEAN,
  ),
  option(
    'agent',
    'require_tls',
    'agentRequireTls',
    'Refuse a ramdisk heartbeat whose callback URL is not https://.',
    BOOLEAN,
  ),
  conductor(
    'deploy_callback_timeout',
    'deployCallbackTimeout',
    'Seconds a deploy may wait for a callback (0: forever).',
    seconds(),
  ),
  conductor(
    'clean_callback_timeout',
    'cleanCallbackTimeout',
    'Seconds a clean may wait for a callback (0: forever).',
    seconds(),
  ),
  conductor(
    'check_provision_state_interval',
    'checkProvisionStateInterval',
    'Seconds between the provision state checks (takeovers, timeouts; 0: off).',
    seconds(),
  ),
  conductor(
    'sync_power_state_interval',
    'syncPowerStateInterval',
    'Seconds between power state syncs (0 or less: off, as in Ironic, which sets no minimum).',
    integer(-MAX_INT - 1, MAX_INT),
  ),
  conductor(
    'force_power_state_during_sync',
    'forcePowerStateDuringSync',
    "During the power state sync, set the hardware to the recorded power state (true) or record the hardware's (false).",
    BOOLEAN,
  ),
  conductor(
    'power_state_sync_max_retries',
    'powerStateSyncMaxRetries',
    'Failed power state syncs of a node in a row before it goes to maintenance (fault: power failure).',
    integer(0, MAX_INT),
  ),
  conductor(
    'sync_power_state_workers',
    'syncPowerStateWorkers',
    'Nodes the power state sync reads at once.',
    integer(1, MAX_INT),
  ),
  conductor(
    'power_failure_recovery_interval',
    'powerFailureRecoveryInterval',
    'Seconds between checks of nodes in maintenance for a power failure, which leave it when their power state is read again (0: off).',
    seconds(),
  ),
  conductor(
    'sync_local_state_interval',
    'syncLocalStateInterval',
    'Seconds between takeovers of active nodes newly mapped here (0: off).',
    seconds(),
  ),
  conductor(
    'check_allocations_interval',
    'checkAllocationsInterval',
    'Seconds between take-overs of allocations left by a dead conductor (0: off).',
    seconds(),
  ),
  conductor(
    'workers_pool_size',
    'workersPoolSize',
    'Background operations at once.',
    integer(3, MAX_INT),
  ),
  conductor(
    'periodic_max_workers',
    'periodicMaxWorkers',
    'Nodes a periodic task works on at once (every node it finds is done in the run).',
    integer(1, MAX_INT),
  ),
  conductor(
    'node_locked_retry_attempts',
    'nodeLockedRetryAttempts',
    'Attempts at a locked node before NodeLocked.',
    integer(1, MAX_INT),
  ),
  conductor(
    'node_locked_retry_interval',
    'nodeLockedRetryInterval',
    'Seconds between them.',
    seconds(),
  ),
  conductor(
    'allow_provisioning_in_maintenance',
    'allowProvisioningInMaintenance',
    'Allow provide and cleaning in maintenance.',
    BOOLEAN,
  ),
  conductor(
    'allow_deleting_available_nodes',
    'allowDeletingAvailableNodes',
    'Allow deleting available nodes.',
    BOOLEAN,
  ),
  conductor(
    'soft_power_off_timeout',
    'softPowerOffTimeout',
    'Seconds a soft power off may take.',
    seconds(1),
  ),
  conductor(
    'node_history',
    'nodeHistory',
    'Record node history events (errors and other noteworthy events).',
    BOOLEAN,
  ),
  conductor(
    'node_history_max_entries',
    'nodeHistoryMaxEntries',
    'History events kept per node by the cleanup.',
    integer(0, MAX_INT),
  ),
  conductor(
    'node_history_cleanup_interval',
    'nodeHistoryCleanupInterval',
    'Seconds between node history cleanups (0: never).',
    seconds(),
  ),
  conductor(
    'node_history_cleanup_batch_count',
    'nodeHistoryCleanupBatchCount',
    'History events a cleanup deletes (0: no cleanup).',
    integer(0, MAX_INT),
  ),
  conductor(
    'node_history_minimum_days',
    'nodeHistoryMinimumDays',
    'Days of history the cleanup always keeps.',
    integer(0, MAX_INT),
  ),
  conductor(
    'power_state_change_timeout',
    'powerStateChangeTimeout',
    'Seconds a power change may take to show on the hardware (ipmitool power waits this long).',
    integer(2, MAX_INT),
  ),
  option(
    'ipmi',
    'command_retry_timeout',
    'ipmiCommandRetryTimeout',
    'Seconds a failing ipmitool command is retried; also the longest one run may take.',
    seconds(1),
    { flag: 'ipmi-command-retry-timeout' },
  ),
  option(
    'ipmi',
    'min_command_interval',
    'ipmiMinCommandInterval',
    'Least seconds between two ipmitool commands to one BMC (also its -N).',
    seconds(),
    { flag: 'ipmi-min-command-interval' },
  ),
  option(
    'ipmi',
    'disable_boot_timeout',
    'ipmiDisableBootTimeout',
    'Send the raw command disabling the 60 s boot flag timeout before setting a boot device (driver_info ipmi_disable_boot_timeout wins).',
    BOOLEAN,
    { flag: 'ipmi-disable-boot-timeout' },
  ),
  option('ipmi', 'debug', 'ipmiDebug', 'Run ipmitool with -v.', BOOLEAN, { flag: 'ipmi-debug' }),
  option(
    'pxe',
    'tftp_root',
    'pxeTftpRoot',
    "The pxe boot interface's TFTP root: each node's directory (config, kernel, ramdisk) and the per-MAC links are written under it.",
    PATH,
    { flag: 'pxe-tftp-root' },
  ),
  option(
    'pxe',
    'pxe_config_subdir',
    'pxeConfigSubdir',
    "The directory under the TFTP root holding the per-MAC links to the nodes' PXE configurations.",
    STRING,
    { flag: false },
  ),
  option(
    'pxe',
    'tftp_server',
    'pxeTftpServer',
    "The TFTP server's address, which UEFI (GRUB) configurations name (the real default is the conductor's address).",
    STRING,
    { flag: false },
  ),
  option(
    'pxe',
    'kernel_append_params',
    'pxeKernelAppendParams',
    'Appended to the kernel command line of a PXE-booted node (instance_info or driver_info kernel_append_params win).',
    STRING,
    { flag: false },
  ),
  conductor(
    'file_url_allowed_paths',
    'fileUrlAllowedPaths',
    'Where file:// images (instance_info kernel, ramdisk) may be: these paths and what is under them; empty: no file:// image.',
    LIST,
  ),
  option(
    'conductor',
    'graceful_shutdown_timeout',
    'conductorGracefulShutdownTimeout',
    'Baton: [DEFAULT] graceful_shutdown_timeout, for the conductor alone (wins over it).',
    seconds(),
    { flag: false },
  ),
  ...FAKE_DELAY_KINDS.map((kind) =>
    option(
      'fake',
      `${kind}_delay`,
      `fake${capitalized(kind)}Delay`,
      `Seconds the fake ${kind} interface takes: n, or a range a,b.`,
      DELAY,
    ),
  ),
  // Logs, health check, metrics and the stop ([DEFAULT], [healthcheck], [metrics]): the
  // toolkit's; `[api] drain_wait` (--drain-wait), this service's name before the toolkit
  // had one, is still read as `[healthcheck] drain_delay`.
  ...OPERATIONS_OPTIONS.map((option) =>
    option.field === 'drainDelaySeconds'
      ? { ...option, deprecated: [{ section: 'api', name: 'drain_wait', flag: 'drain-wait' }] }
      : option,
  ),
  // The http RPC's authentication, as the real [json_rpc] (docs/baremetal.md, "RPC authentication").
  option(
    'json_rpc',
    'auth_strategy',
    'jsonRpcAuthStrategy',
    "The http RPC's authentication. keystone: the API sends a token got with the [json_rpc] credentials, the conductor validates it with [keystone_authtoken] and wants one of allowed_roles; noauth: none (a conductor then listens on loopback only, unless rpc_shared_secret is set); http_basic is Ironic's and not served. Unset: [DEFAULT] auth_strategy.",
    choice(BAREMETAL_AUTH_STRATEGIES),
    { flag: 'json-rpc-auth-strategy' },
  ),
  option(
    'json_rpc',
    'allowed_roles',
    'jsonRpcAllowedRoles',
    'Under keystone: the roles a token must hold one of for the conductor to run a call.',
    LIST,
    { flag: 'json-rpc-allowed-roles' },
  ),
  ...JSON_RPC_CREDENTIAL_OPTIONS,
  // Keystone: the toolkit's [keystone_authtoken] (src/auth/keystone-options.ts, docs/security.md).
  ...KEYSTONE_AUTHTOKEN_OPTIONS,
];

/** The defaults by field, as the sample and `--help` show them. */
function defaultValues(): Record<string, unknown> {
  const base = defaultBaremetalConfig('sqlite:<state_path>/baton.sqlite');
  const c = base.conductor;
  const values: Record<string, unknown> = {
    pinReleaseVersion: '',
    rpcTransport: 'http',
    rpcSharedSecret: '',
    rpcExchange: 'baton',
    enabledHardwareTypes: c.enabledHardwareTypes,
    gracefulShutdownTimeout: c.gracefulShutdownTimeout,
    hashRingResetInterval: c.hashRingResetInterval,
    hashPartitionExponent: c.hashPartitionExponent,
    apiHostIp: base.api.hostIp,
    apiPort: base.api.port,
    apiWorkers: base.api.apiWorkers,
    apiMaxLimit: base.api.maxLimit,
    apiEnableRamdiskEndpoints: base.api.enableRamdiskEndpoints,
    apiRestrictLookup: base.api.restrictLookup,
    apiRamdiskHeartbeatTimeout: base.api.ramdiskHeartbeatTimeout,
    deployFastTrack: base.api.fastTrack,
    authStrategy: base.api.authStrategy,
    httpBasicAuthUserFile: base.api.httpBasicAuthUserFile,
    insecureNoauthOnAnyAddress: base.api.insecureNoauthOnAnyAddress,
    enforceScope: base.api.policy.enforceScope,
    enforceNewDefaults: base.api.policy.enforceNewDefaults,
    ...KEYSTONE_AUTHTOKEN_DEFAULTS,
    rpcResponseTimeout: base.api.rpcResponseTimeout,
    jsonRpcAllowedRoles: base.jsonRpc.allowedRoles,
    ...Object.fromEntries(
      JSON_RPC_CREDENTIAL_OPTIONS.map((option) => [
        option.field,
        (base.jsonRpc.credentials as unknown as Record<string, unknown>)[
          `keystone${option.field.slice('jsonRpc'.length)}`
        ],
      ]),
    ),
  };
  for (const kind of INTERFACE_KINDS) {
    values[`enabled${capitalized(kind)}Interfaces`] = c.enabledInterfaces[kind];
    values[`default${capitalized(kind)}Interface`] = c.defaultInterfaces[kind];
  }
  for (const field of [
    'conductorGroup',
    'heartbeatInterval',
    'heartbeatTimeout',
    'automatedClean',
    'agentRequireTls',
    'deployCallbackTimeout',
    'cleanCallbackTimeout',
    'checkProvisionStateInterval',
    'syncPowerStateInterval',
    'forcePowerStateDuringSync',
    'powerStateSyncMaxRetries',
    'syncPowerStateWorkers',
    'powerFailureRecoveryInterval',
    'syncLocalStateInterval',
    'checkAllocationsInterval',
    'workersPoolSize',
    'periodicMaxWorkers',
    'nodeLockedRetryAttempts',
    'nodeLockedRetryInterval',
    'allowProvisioningInMaintenance',
    'allowDeletingAvailableNodes',
    'softPowerOffTimeout',
    'nodeHistory',
    'nodeHistoryMaxEntries',
    'nodeHistoryCleanupInterval',
    'nodeHistoryCleanupBatchCount',
    'nodeHistoryMinimumDays',
    'powerStateChangeTimeout',
  ] as const) {
    values[field] = c[field];
  }
  values.ipmiCommandRetryTimeout = c.ipmi.commandRetryTimeout;
  values.ipmiMinCommandInterval = c.ipmi.minCommandInterval;
  values.ipmiDisableBootTimeout = c.ipmi.disableBootTimeout;
  values.ipmiDebug = c.ipmi.debug;
  values.pxeTftpRoot = c.pxe.tftpRoot;
  values.pxeConfigSubdir = c.pxe.configSubdir;
  values.pxeTftpServer = c.pxe.tftpServer;
  values.pxeKernelAppendParams = c.pxe.kernelAppendParams;
  values.fileUrlAllowedPaths = c.pxe.fileUrlAllowedPaths;
  for (const kind of FAKE_DELAY_KINDS) values[`fake${capitalized(kind)}Delay`] = c.fakeDelays[kind];
  return { ...values, ...base.operations };
}

/**
 * The real Ironic's project and programs: the files are found where oslo.config finds
 * `ironic.conf` (src/service/config-files.ts), and each command also reads a file named after
 * the real program it stands for (`ironic-dbsync.conf` for `baton db`…), as those do.
 */
export const BAREMETAL_CONFIG_PROJECT: ConfigProject = {
  project: 'ironic',
  programs: {
    db: 'ironic-dbsync',
    status: 'ironic-status',
    'baremetal-api': 'ironic-api',
    'baremetal-conductor': 'ironic-conductor',
  },
};

export const BAREMETAL_CONFIG: ConfigSchema = {
  options: BAREMETAL_OPTIONS,
  defaults: defaultValues(),
};

/**
 * The same options with the flags of `baton baremetal api`: `--host` is where the API listens
 * (`[api] host_ip`); `[DEFAULT] host` names a conductor and has no flag there.
 */
export const BAREMETAL_API_OPTIONS: readonly ConfigOption[] = BAREMETAL_OPTIONS.map((option) => {
  if (option.section === 'api' && option.name === 'host_ip') return { ...option, flag: 'host' };
  if (option.section === 'DEFAULT' && option.name === 'host') return { ...option, flag: false };
  return option;
});

export const BAREMETAL_API_CONFIG: ConfigSchema = {
  options: BAREMETAL_API_OPTIONS,
  defaults: BAREMETAL_CONFIG.defaults,
};

/** What a file or the flags set, by field. */
export type BaremetalValues = Readonly<Record<string, unknown>>;

/**
 * The settings of both processes from the defaults and layers of values by field (file, then
 * flags: a later one wins). The database: the last layer's, else `defaultDatabaseUrl`.
 */
export function baremetalConfigOf(
  defaultDatabaseUrl: string,
  ...layers: BaremetalValues[]
): BaremetalConfig {
  const v: Record<string, unknown> = {};
  for (const layer of layers) {
    for (const [field, value] of Object.entries(layer)) if (value !== undefined) v[field] = value;
  }
  const base = defaultBaremetalConfig(defaultDatabaseUrl);
  const c = base.conductor;
  const operations = Object.fromEntries(
    Object.entries(base.operations).map(([field, value]) => [field, v[field] ?? value]),
  ) as unknown as OperationsConfig;
  const pick = <T>(field: string, fallback: T): T =>
    v[field] === undefined ? fallback : (v[field] as T);
  const enabledInterfaces = Object.fromEntries(
    INTERFACE_KINDS.map((kind) => [
      kind,
      pick(`enabled${capitalized(kind)}Interfaces`, c.enabledInterfaces[kind]),
    ]),
  ) as unknown as typeof c.enabledInterfaces;
  const defaultInterfaces: Partial<Record<InterfaceKind, string>> = {};
  for (const kind of INTERFACE_KINDS) {
    const name = pick<string | undefined>(
      `default${capitalized(kind)}Interface`,
      c.defaultInterfaces[kind],
    );
    if (name !== undefined) defaultInterfaces[kind] = name;
  }
  const fakeDelays = Object.fromEntries(
    FAKE_DELAY_KINDS.map((kind) => [
      kind,
      pick(`fake${capitalized(kind)}Delay`, c.fakeDelays[kind]),
    ]),
  ) as unknown as FakeDelays;
  const rpcTransportUrl =
    pick<string | undefined>('rpcTransportUrl', undefined) ??
    pick<string | undefined>('transportUrl', undefined);
  const rpcSharedSecret = pick<string>('rpcSharedSecret', '');
  const rpcExchange = pick<string | undefined>('rpcExchange', undefined);
  return {
    operations,
    databaseUrl: pick('databaseUrl', base.databaseUrl),
    rpc: {
      rpc_transport: pick('rpcTransport', base.rpc.rpc_transport ?? 'http'),
      ...(rpcTransportUrl === undefined ? {} : { rpc_transport_url: rpcTransportUrl }),
      ...(rpcSharedSecret === '' ? {} : { rpc_shared_secret: rpcSharedSecret }),
      ...(rpcExchange === undefined ? {} : { rpc_exchange: rpcExchange }),
    },
    api: {
      hostIp: pick('apiHostIp', base.api.hostIp),
      port: pick('apiPort', base.api.port),
      apiWorkers: pick('apiWorkers', base.api.apiWorkers),
      maxLimit: pick('apiMaxLimit', base.api.maxLimit),
      publicEndpoint: pick<string>('apiPublicEndpoint', '') || undefined,
      enableRamdiskEndpoints: pick('apiEnableRamdiskEndpoints', base.api.enableRamdiskEndpoints),
      restrictLookup: pick('apiRestrictLookup', base.api.restrictLookup),
      ramdiskHeartbeatTimeout: pick('apiRamdiskHeartbeatTimeout', base.api.ramdiskHeartbeatTimeout),
      fastTrack: pick('deployFastTrack', base.api.fastTrack),
      defaultResourceClass: pick<string>('defaultResourceClass', '') || undefined,
      authStrategy: pick('authStrategy', base.api.authStrategy),
      httpBasicAuthUserFile: pick('httpBasicAuthUserFile', base.api.httpBasicAuthUserFile),
      insecureNoauthOnAnyAddress: pick(
        'insecureNoauthOnAnyAddress',
        base.api.insecureNoauthOnAnyAddress,
      ),
      policy: {
        policyFile: pick<string | undefined>('policyFile', undefined),
        enforceScope: pick('enforceScope', base.api.policy.enforceScope),
        enforceNewDefaults: pick('enforceNewDefaults', base.api.policy.enforceNewDefaults),
      },
      keystone: Object.fromEntries(
        Object.entries(KEYSTONE_AUTHTOKEN_DEFAULTS).map(([field, value]) => [
          field,
          pick(field, value),
        ]),
      ) as unknown as KeystoneAuthtokenSettings,
      rpcResponseTimeout: pick('rpcResponseTimeout', base.api.rpcResponseTimeout),
    },
    jsonRpc: {
      authStrategy: pick('jsonRpcAuthStrategy', base.jsonRpc.authStrategy),
      allowedRoles: pick('jsonRpcAllowedRoles', base.jsonRpc.allowedRoles),
      credentials: Object.fromEntries(
        Object.entries(base.jsonRpc.credentials).map(([field, value]) => [
          field,
          pick(jsonRpcField(field), value),
        ]),
      ) as unknown as KeystoneAuthtokenSettings,
    },
    conductor: {
      ...c,
      host: pick('host', hostname()),
      conductorGroup: pick('conductorGroup', c.conductorGroup),
      enabledHardwareTypes: pick('enabledHardwareTypes', c.enabledHardwareTypes),
      enabledInterfaces,
      defaultInterfaces,
      heartbeatInterval: pick('heartbeatInterval', c.heartbeatInterval),
      heartbeatTimeout: pick('heartbeatTimeout', c.heartbeatTimeout),
      automatedClean: pick('automatedClean', c.automatedClean),
      agentRequireTls: pick('agentRequireTls', c.agentRequireTls),
      fastTrack: pick('deployFastTrack', c.fastTrack),
      deployCallbackTimeout: pick('deployCallbackTimeout', c.deployCallbackTimeout),
      cleanCallbackTimeout: pick('cleanCallbackTimeout', c.cleanCallbackTimeout),
      checkProvisionStateInterval: pick(
        'checkProvisionStateInterval',
        c.checkProvisionStateInterval,
      ),
      syncPowerStateInterval: pick('syncPowerStateInterval', c.syncPowerStateInterval),
      forcePowerStateDuringSync: pick('forcePowerStateDuringSync', c.forcePowerStateDuringSync),
      powerStateSyncMaxRetries: pick('powerStateSyncMaxRetries', c.powerStateSyncMaxRetries),
      syncPowerStateWorkers: pick('syncPowerStateWorkers', c.syncPowerStateWorkers),
      powerFailureRecoveryInterval: pick(
        'powerFailureRecoveryInterval',
        c.powerFailureRecoveryInterval,
      ),
      syncLocalStateInterval: pick('syncLocalStateInterval', c.syncLocalStateInterval),
      checkAllocationsInterval: pick('checkAllocationsInterval', c.checkAllocationsInterval),
      workersPoolSize: pick('workersPoolSize', c.workersPoolSize),
      periodicMaxWorkers: pick('periodicMaxWorkers', c.periodicMaxWorkers),
      nodeLockedRetryAttempts: pick('nodeLockedRetryAttempts', c.nodeLockedRetryAttempts),
      nodeLockedRetryInterval: pick('nodeLockedRetryInterval', c.nodeLockedRetryInterval),
      allowProvisioningInMaintenance: pick(
        'allowProvisioningInMaintenance',
        c.allowProvisioningInMaintenance,
      ),
      allowDeletingAvailableNodes: pick(
        'allowDeletingAvailableNodes',
        c.allowDeletingAvailableNodes,
      ),
      softPowerOffTimeout: pick('softPowerOffTimeout', c.softPowerOffTimeout),
      nodeHistory: pick('nodeHistory', c.nodeHistory),
      nodeHistoryMaxEntries: pick('nodeHistoryMaxEntries', c.nodeHistoryMaxEntries),
      nodeHistoryCleanupInterval: pick('nodeHistoryCleanupInterval', c.nodeHistoryCleanupInterval),
      nodeHistoryCleanupBatchCount: pick(
        'nodeHistoryCleanupBatchCount',
        c.nodeHistoryCleanupBatchCount,
      ),
      nodeHistoryMinimumDays: pick('nodeHistoryMinimumDays', c.nodeHistoryMinimumDays),
      powerStateChangeTimeout: pick('powerStateChangeTimeout', c.powerStateChangeTimeout),
      ipmi: {
        ...c.ipmi,
        commandRetryTimeout: pick('ipmiCommandRetryTimeout', c.ipmi.commandRetryTimeout),
        minCommandInterval: pick('ipmiMinCommandInterval', c.ipmi.minCommandInterval),
        disableBootTimeout: pick('ipmiDisableBootTimeout', c.ipmi.disableBootTimeout),
        debug: pick('ipmiDebug', c.ipmi.debug),
      },
      pxe: {
        tftpRoot: pick('pxeTftpRoot', c.pxe.tftpRoot),
        configSubdir: pick('pxeConfigSubdir', c.pxe.configSubdir),
        tftpServer: pick('pxeTftpServer', c.pxe.tftpServer),
        kernelAppendParams: pick('pxeKernelAppendParams', c.pxe.kernelAppendParams),
        fileUrlAllowedPaths: pick('fileUrlAllowedPaths', c.pxe.fileUrlAllowedPaths),
      },
      gracefulShutdownTimeout: pick(
        'conductorGracefulShutdownTimeout',
        pick('gracefulShutdownTimeout', c.gracefulShutdownTimeout),
      ),
      hashRingResetInterval: pick('hashRingResetInterval', c.hashRingResetInterval),
      hashPartitionExponent: pick('hashPartitionExponent', c.hashPartitionExponent),
      fakeDelays,
    },
  };
}
