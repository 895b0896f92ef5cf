/**
 * The options the bare metal config file may set, as data: section, name, help, and how the
 * text is read and where its value goes (Ironic's option names and meanings). Anything else
 * in the file is ignored, as oslo.config does.
 */
import {
  ConfigFileError,
  normalizeDatabaseUrl,
  toBoolean,
  toInteger,
  toList,
} from '../service/index.ts';
import type { ConductorSettings, FakeDelays } from './conductor/conductor-settings.ts';
import type { BaremetalConfig } from './config.ts';
import type { EnabledInterfaces } from './drivers/enabled-interfaces.ts';
import { FAKE_HARDWARE, FAKE_HARDWARE_SUPPORTED } from './drivers/fake-hardware.ts';
import { INTERFACE_KINDS, type InterfaceKind } from './drivers/interface-kinds.ts';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** What a file sets, layer by layer: unset values fall through to the defaults. */
export interface BaremetalConfigLayer {
  databaseUrl?: string;
  rpc: Mutable<BaremetalConfig['rpc']>;
  api: Partial<Mutable<BaremetalConfig['api']>>;
  conductor: Partial<Mutable<ConductorSettings>>;
}

export interface BaremetalConfigFile {
  readonly layer: BaremetalConfigLayer;
  /** `[DEFAULT] pin_release_version`, undefined when not set. */
  readonly pinReleaseVersion?: string;
}

export type OptionTarget = { layer: BaremetalConfigLayer; pin?: string };

export interface BaremetalOption {
  readonly section: string;
  readonly name: string;
  readonly help: string;
  /** Reads the text (ConfigFileError naming `option` when it cannot) and stores the value. */
  readonly apply: (target: OptionTarget, value: string, option: string) => void;
}

const MAX_INT = 2 ** 31 - 1;
const integer =
  (min: number, max = MAX_INT) =>
  (v: string, o: string) =>
    toInteger(o, v, min, max);

function opt(
  section: string,
  name: string,
  help: string,
  apply: BaremetalOption['apply'],
): BaremetalOption {
  return { section, name, help, apply };
}

function conductorOpt<K extends keyof ConductorSettings>(
  section: string,
  name: string,
  field: K,
  help: string,
  read: (value: string, option: string) => ConductorSettings[K],
): BaremetalOption {
  return opt(section, name, help, (t, v, o) => {
    t.layer.conductor[field] = read(v, o);
  });
}

/** `[fake] x_delay`: `n` or `a,b` seconds. */
function delay(value: string, option: string): readonly [number, number] {
  const parts = value.split(',').map((part) => toInteger(option, part.trim(), 0, 3600));
  if (parts.length === 1) return [parts[0] as number, parts[0] as number];
  if (parts.length === 2) return [parts[0] as number, parts[1] as number];
  throw new ConfigFileError(`${option}: '${value}' is not a number of seconds or a range a,b`);
}

function hardwareTypes(value: string, option: string): string[] {
  const types = toList(value);
  for (const type of types) {
    if (type !== FAKE_HARDWARE) {
      throw new ConfigFileError(
        `${option}: hardware type '${type}' is not available; only ${FAKE_HARDWARE} is`,
      );
    }
  }
  return types;
}

const enabledInterfaceOptions = INTERFACE_KINDS.map((kind: InterfaceKind) =>
  opt(
    'DEFAULT',
    `enabled_${kind}_interfaces`,
    `The ${kind} interfaces conductors enable.`,
    (t, v, o) => {
      const names = toList(v);
      for (const name of names) {
        if (!FAKE_HARDWARE_SUPPORTED[kind].includes(name)) {
          throw new ConfigFileError(`${o}: '${name}' is not an available ${kind} interface`);
        }
      }
      const current = (t.layer.conductor.enabledInterfaces ?? {}) as Partial<
        Record<InterfaceKind, string[]>
      >;
      t.layer.conductor.enabledInterfaces = {
        ...current,
        [kind]: names,
      } as unknown as EnabledInterfaces;
    },
  ),
);

const fakeDelayOptions = (
  [
    'power',
    'boot',
    'deploy',
    'management',
    'inspect',
    'rescue',
    'bios',
    'raid',
    'storage',
    'vendor',
  ] as const
).map((kind: keyof FakeDelays) =>
  opt(
    'fake',
    `${kind}_delay`,
    `Seconds the fake ${kind} interface takes (n or a,b).`,
    (t, v, o) => {
      t.layer.conductor.fakeDelays = {
        ...(t.layer.conductor.fakeDelays ?? {}),
        [kind]: delay(v, o),
      } as FakeDelays;
    },
  ),
);

const b = (v: string, o: string) => toBoolean(o, v);

export const BAREMETAL_OPTIONS: readonly BaremetalOption[] = [
  opt(
    'DEFAULT',
    'host',
    'Name of this conductor: its RPC server, ring entry and reservations.',
    (t, v) => {
      t.layer.conductor.host = v;
    },
  ),
  opt(
    'DEFAULT',
    'pin_release_version',
    'Speak at most what this release speaks (rolling upgrades); empty: not pinned.',
    (t, v) => {
      t.pin = v;
    },
  ),
  opt(
    'DEFAULT',
    'rpc_transport',
    'http (JSON-RPC over HTTP, the default), amqp (RabbitMQ) or local.',
    (t, v) => {
      t.layer.rpc.rpc_transport = v;
    },
  ),
  opt(
    'DEFAULT',
    'rpc_transport_url',
    'http: the conductor listen address; amqp: the broker URL.',
    (t, v) => {
      t.layer.rpc.rpc_transport_url = v;
    },
  ),
  opt(
    'DEFAULT',
    'transport_url',
    "oslo.messaging's name for the broker URL (sets rpc_transport_url).",
    (t, v) => {
      t.layer.rpc.rpc_transport_url ??= v;
    },
  ),
  opt(
    'DEFAULT',
    'rpc_shared_secret',
    'http: a bearer secret both tiers send and check.',
    (t, v) => {
      t.layer.rpc.rpc_shared_secret = v;
    },
  ),
  opt('DEFAULT', 'rpc_exchange', 'amqp: the topic exchange (oslo control_exchange).', (t, v) => {
    t.layer.rpc.rpc_exchange = v;
  }),
  conductorOpt(
    'DEFAULT',
    'enabled_hardware_types',
    'enabledHardwareTypes',
    'Hardware types conductors run.',
    hardwareTypes,
  ),
  ...enabledInterfaceOptions,
  conductorOpt(
    'DEFAULT',
    'graceful_shutdown_timeout',
    'gracefulShutdownTimeout',
    'Seconds work in flight may take to finish on SIGTERM.',
    integer(0),
  ),
  conductorOpt(
    'DEFAULT',
    'hash_ring_reset_interval',
    'hashRingResetInterval',
    'Seconds the hash rings are cached.',
    integer(0),
  ),
  conductorOpt(
    'DEFAULT',
    'hash_partition_exponent',
    'hashPartitionExponent',
    '2^n points per conductor on the ring.',
    integer(1, 16),
  ),
  opt(
    'database',
    'connection',
    'The database URL (sqlite:…, postgresql://…, mysql://…).',
    (t, v) => {
      t.layer.databaseUrl = normalizeDatabaseUrl(v);
    },
  ),
  opt('api', 'host_ip', 'Address the API listens on.', (t, v) => {
    t.layer.api.hostIp = v;
  }),
  opt('api', 'port', 'Port the API listens on (6385).', (t, v, o) => {
    t.layer.api.port = toInteger(o, v, 0, 65535);
  }),
  opt('api', 'api_workers', 'API processes sharing the port.', (t, v, o) => {
    t.layer.api.apiWorkers = toInteger(o, v, 1, 256);
  }),
  opt('api', 'max_limit', 'The most items a list answers with.', (t, v, o) => {
    t.layer.api.maxLimit = toInteger(o, v, 1, MAX_INT);
  }),
  opt(
    'api',
    'public_endpoint',
    'The root of the links in API bodies (the request host by default).',
    (t, v) => {
      t.layer.api.publicEndpoint = v === '' ? undefined : v;
    },
  ),
  opt(
    'api',
    'drain_wait',
    'Seconds a stopping API answers with a failed health check before it stops accepting.',
    (t, v, o) => {
      t.layer.api.drainWait = toInteger(o, v, 0, 3600);
    },
  ),
  opt(
    'DEFAULT',
    'default_resource_class',
    'The resource class of a node created without one.',
    (t, v) => {
      t.layer.api.defaultResourceClass = v === '' ? undefined : v;
    },
  ),
  conductorOpt(
    'conductor',
    'conductor_group',
    'conductorGroup',
    'The conductor group this conductor serves.',
    (v) => v.toLowerCase(),
  ),
  conductorOpt(
    'conductor',
    'heartbeat_interval',
    'heartbeatInterval',
    'Seconds between heartbeats.',
    integer(1),
  ),
  conductorOpt(
    'conductor',
    'heartbeat_timeout',
    'heartbeatTimeout',
    'Seconds without a heartbeat after which a conductor is dead.',
    integer(1),
  ),
  conductorOpt(
    'conductor',
    'automated_clean',
    'automatedClean',
    'Clean nodes on provide and after tear-down.',
    b,
  ),
  conductorOpt(
    'conductor',
    'deploy_callback_timeout',
    'deployCallbackTimeout',
    'Seconds a deploy may wait for a callback (0: forever).',
    integer(0),
  ),
  conductorOpt(
    'conductor',
    'clean_callback_timeout',
    'cleanCallbackTimeout',
    'Seconds a clean may wait for a callback (0: forever).',
    integer(0),
  ),
  conductorOpt(
    'conductor',
    'check_provision_state_interval',
    'checkProvisionStateInterval',
    'Seconds between provision state checks (takeovers, timeouts).',
    integer(0),
  ),
  conductorOpt(
    'conductor',
    'sync_power_state_interval',
    'syncPowerStateInterval',
    'Seconds between power state syncs (0: off).',
    integer(0),
  ),
  conductorOpt(
    'conductor',
    'sync_local_state_interval',
    'syncLocalStateInterval',
    'Seconds between takeovers of active nodes newly mapped here (0: off).',
    integer(0),
  ),
  conductorOpt(
    'conductor',
    'workers_pool_size',
    'workersPoolSize',
    'Background operations at once.',
    integer(3),
  ),
  conductorOpt(
    'conductor',
    'periodic_max_workers',
    'periodicMaxWorkers',
    'Nodes a periodic task moves per run.',
    integer(1),
  ),
  conductorOpt(
    'conductor',
    'node_locked_retry_attempts',
    'nodeLockedRetryAttempts',
    'Attempts at a locked node.',
    integer(1),
  ),
  conductorOpt(
    'conductor',
    'node_locked_retry_interval',
    'nodeLockedRetryInterval',
    'Seconds between them.',
    integer(0),
  ),
  conductorOpt(
    'conductor',
    'allow_provisioning_in_maintenance',
    'allowProvisioningInMaintenance',
    'Allow provide and cleaning in maintenance.',
    b,
  ),
  conductorOpt(
    'conductor',
    'allow_deleting_available_nodes',
    'allowDeletingAvailableNodes',
    'Allow deleting available nodes.',
    b,
  ),
  conductorOpt(
    'conductor',
    'soft_power_off_timeout',
    'softPowerOffTimeout',
    'Seconds a soft power off may take.',
    integer(1),
  ),
  conductorOpt(
    'conductor',
    'graceful_shutdown_timeout',
    'gracefulShutdownTimeout',
    'Baton: the same as [DEFAULT] graceful_shutdown_timeout, for the conductor.',
    integer(0),
  ),
  ...fakeDelayOptions,
];
