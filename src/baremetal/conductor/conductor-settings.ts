/**
 * What a conductor runs with: Ironic's `[conductor]` options (and the few `[DEFAULT]` and
 * `[fake]` ones it reads), named as the real ones are, with the real defaults. The config
 * file (../config.ts) fills them in; tests make the intervals short.
 */
import {
  type EnabledInterfaces,
  STANDALONE_ENABLED_INTERFACES,
} from '../drivers/enabled-interfaces.ts';
import { FAKE_HARDWARE } from '../drivers/fake-hardware.ts';

/** The `[fake] *_delay` options: seconds a fake interface sleeps, a fixed `n` or a range `a,b`. */
export interface FakeDelays {
  readonly power: readonly [number, number];
  readonly boot: readonly [number, number];
  readonly deploy: readonly [number, number];
  readonly management: readonly [number, number];
  readonly inspect: readonly [number, number];
  readonly rescue: readonly [number, number];
  readonly bios: readonly [number, number];
  readonly raid: readonly [number, number];
  readonly storage: readonly [number, number];
  readonly vendor: readonly [number, number];
}

export interface ConductorSettings {
  /** `[DEFAULT] host`: the conductor's name on the ring, the RPC server and in reservations. */
  readonly host: string;
  /** `[conductor] conductor_group`. */
  readonly conductorGroup: string;
  /** `[DEFAULT] enabled_hardware_types`. */
  readonly enabledHardwareTypes: readonly string[];
  /** `[DEFAULT] enabled_*_interfaces`. */
  readonly enabledInterfaces: EnabledInterfaces;
  /** `[conductor] heartbeat_interval` (s): how often the conductor touches its row. */
  readonly heartbeatInterval: number;
  /** `[conductor] heartbeat_timeout` (s): a conductor not seen for this long is dead. */
  readonly heartbeatTimeout: number;
  /** `[conductor] automated_clean`: `provide` and tear-down go through cleaning steps. */
  readonly automatedClean: boolean;
  /** `[conductor] deploy_callback_timeout` (s; 0: never). */
  readonly deployCallbackTimeout: number;
  /** `[conductor] clean_callback_timeout` (s; 0: never). */
  readonly cleanCallbackTimeout: number;
  /** `[conductor] check_provision_state_interval` (s): timeouts and the orphan check. */
  readonly checkProvisionStateInterval: number;
  /** `[conductor] sync_power_state_interval` (s; 0: off). */
  readonly syncPowerStateInterval: number;
  /** `[conductor] sync_local_state_interval` (s; 0: off): active nodes newly mapped here. */
  readonly syncLocalStateInterval: number;
  /** `[conductor] workers_pool_size`: background operations at once. */
  readonly workersPoolSize: number;
  /** `[conductor] periodic_max_workers`: nodes a periodic task starts work on per run. */
  readonly periodicMaxWorkers: number;
  /** `[conductor] node_locked_retry_attempts` and `_interval` (s). */
  readonly nodeLockedRetryAttempts: number;
  readonly nodeLockedRetryInterval: number;
  /** `[conductor] allow_provisioning_in_maintenance`. */
  readonly allowProvisioningInMaintenance: boolean;
  /** `[conductor] allow_deleting_available_nodes`. */
  readonly allowDeletingAvailableNodes: boolean;
  /** `[conductor] soft_power_off_timeout` (s). */
  readonly softPowerOffTimeout: number;
  /** `[DEFAULT] graceful_shutdown_timeout` (s): work in flight may finish within it on SIGTERM. */
  readonly gracefulShutdownTimeout: number;
  /** `[DEFAULT] hash_ring_reset_interval` (s): how long the rings are cached. */
  readonly hashRingResetInterval: number;
  /** `[DEFAULT] hash_partition_exponent`. */
  readonly hashPartitionExponent: number;
  readonly fakeDelays: FakeDelays;
}

const NO_DELAY = [0, 0] as const;

export const FAKE_NO_DELAYS: FakeDelays = {
  power: NO_DELAY,
  boot: NO_DELAY,
  deploy: NO_DELAY,
  management: NO_DELAY,
  inspect: NO_DELAY,
  rescue: NO_DELAY,
  bios: NO_DELAY,
  raid: NO_DELAY,
  storage: NO_DELAY,
  vendor: NO_DELAY,
};

/** The real defaults (ironic/conf/conductor.py, default.py, oslo.service). */
export function defaultConductorSettings(host: string): ConductorSettings {
  return {
    host,
    conductorGroup: '',
    enabledHardwareTypes: [FAKE_HARDWARE],
    enabledInterfaces: STANDALONE_ENABLED_INTERFACES,
    heartbeatInterval: 10,
    heartbeatTimeout: 60,
    automatedClean: true,
    deployCallbackTimeout: 1800,
    cleanCallbackTimeout: 1800,
    checkProvisionStateInterval: 60,
    syncPowerStateInterval: 60,
    syncLocalStateInterval: 180,
    workersPoolSize: 100,
    periodicMaxWorkers: 8,
    nodeLockedRetryAttempts: 3,
    nodeLockedRetryInterval: 1,
    allowProvisioningInMaintenance: true,
    allowDeletingAvailableNodes: true,
    softPowerOffTimeout: 600,
    gracefulShutdownTimeout: 60,
    hashRingResetInterval: 15,
    hashPartitionExponent: 5,
    fakeDelays: FAKE_NO_DELAYS,
  };
}
