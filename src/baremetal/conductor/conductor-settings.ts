/**
 * What a conductor runs with: Ironic's `[conductor]` options (and the few `[DEFAULT]` and
 * `[fake]` ones it reads), named as the real ones are, with the real defaults. The config
 * file (../config.ts) fills them in; tests make the intervals short.
 */
import type { DefaultInterfaces } from '../drivers/driver-factory.ts';
import {
  type EnabledInterfaces,
  STANDALONE_ENABLED_INTERFACES,
} from '../drivers/enabled-interfaces.ts';
import { FAKE_NO_DELAYS, type FakeDelays } from '../drivers/fake/fake-delays.ts';
import { FAKE_HARDWARE } from '../drivers/hardware-types/fake-hardware.ts';
import { IPMI_DEFAULTS, type IpmiOptions } from '../drivers/ipmitool/ipmi-settings.ts';
import { PXE_DEFAULTS, type PxeOptions } from '../drivers/pxe/pxe-settings.ts';

export { FAKE_NO_DELAYS, type FakeDelays };

export interface ConductorSettings {
  /** `[DEFAULT] host`: the conductor's name on the ring, the RPC server and in reservations. */
  readonly host: string;
  /** `[conductor] conductor_group`. */
  readonly conductorGroup: string;
  /** `[DEFAULT] enabled_hardware_types`. */
  readonly enabledHardwareTypes: readonly string[];
  /** `[DEFAULT] enabled_*_interfaces`. */
  readonly enabledInterfaces: EnabledInterfaces;
  /** `[DEFAULT] default_*_interface`: a kind's default for every hardware type, when set. */
  readonly defaultInterfaces: DefaultInterfaces;
  /** `[conductor] heartbeat_interval` (s): how often the conductor touches its row. */
  readonly heartbeatInterval: number;
  /** `[conductor] heartbeat_timeout` (s): a conductor not seen for this long is dead. */
  readonly heartbeatTimeout: number;
  /** `[conductor] automated_clean`: `provide` and tear-down go through cleaning steps. */
  readonly automatedClean: boolean;
  /** `[agent] require_tls`: a heartbeat whose callback URL is not https is refused. */
  readonly agentRequireTls: boolean;
  /** `[deploy] fast_track`: a node's agent may stay up between operations (its token kept). */
  readonly fastTrack: boolean;
  /** `[conductor] deploy_callback_timeout` (s; 0: never). */
  readonly deployCallbackTimeout: number;
  /** `[conductor] clean_callback_timeout` (s; 0: never). */
  readonly cleanCallbackTimeout: number;
  /** `[conductor] check_provision_state_interval` (s): timeouts and the orphan check. */
  readonly checkProvisionStateInterval: number;
  /** `[conductor] sync_power_state_interval` (s; 0 or less: off). */
  readonly syncPowerStateInterval: number;
  /** `[conductor] force_power_state_during_sync`: set the hardware to the recorded state (true) or record the hardware's (false). */
  readonly forcePowerStateDuringSync: boolean;
  /** `[conductor] power_state_sync_max_retries`: failed syncs in a row before maintenance. */
  readonly powerStateSyncMaxRetries: number;
  /** `[conductor] sync_power_state_workers`: nodes a power state sync reads at once. */
  readonly syncPowerStateWorkers: number;
  /** `[conductor] power_failure_recovery_interval` (s; 0: off): nodes in `power failure`. */
  readonly powerFailureRecoveryInterval: number;
  /** `[conductor] sync_local_state_interval` (s; 0: off): active nodes newly mapped here. */
  readonly syncLocalStateInterval: number;
  /** `[conductor] check_allocations_interval` (s; 0: off): allocations of dead conductors. */
  readonly checkAllocationsInterval: number;
  /** `[conductor] workers_pool_size`: background operations at once. */
  readonly workersPoolSize: number;
  /** `[conductor] periodic_max_workers`: nodes a periodic task works on at once. */
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
  /** `[conductor] node_history`: failures (and a few other events) recorded as node history. */
  readonly nodeHistory: boolean;
  /** `[conductor] node_history_max_entries`: events per node the cleanup keeps (0: no cleanup). */
  readonly nodeHistoryMaxEntries: number;
  /** `[conductor] node_history_cleanup_interval` (s; 0: off). */
  readonly nodeHistoryCleanupInterval: number;
  /** `[conductor] node_history_cleanup_batch_count`: events a cleanup deletes (0: off). */
  readonly nodeHistoryCleanupBatchCount: number;
  /** `[conductor] node_history_minimum_days`: the cleanup counts only older events. */
  readonly nodeHistoryMinimumDays: number;
  /** `[conductor] power_state_change_timeout` (s): how long a power change is waited for. */
  readonly powerStateChangeTimeout: number;
  /** `[ipmi] *`: the ipmitool interfaces' retries, interval and boot timeout. */
  readonly ipmi: IpmiOptions;
  /** `[pxe] *` and `[conductor] file_url_allowed_paths`: where the pxe boot interface writes and reads. */
  readonly pxe: PxeOptions;
  /** `[DEFAULT] graceful_shutdown_timeout` (s): work in flight may finish within it on SIGTERM. */
  readonly gracefulShutdownTimeout: number;
  /** `[DEFAULT] hash_ring_reset_interval` (s): how long the rings are cached. */
  readonly hashRingResetInterval: number;
  /** `[DEFAULT] hash_partition_exponent`. */
  readonly hashPartitionExponent: number;
  readonly fakeDelays: FakeDelays;
}

/** The real defaults (ironic/conf/conductor.py, default.py, oslo.service). */
export function defaultConductorSettings(host: string): ConductorSettings {
  return {
    host,
    conductorGroup: '',
    enabledHardwareTypes: [FAKE_HARDWARE],
    enabledInterfaces: STANDALONE_ENABLED_INTERFACES,
    // The only kind the real service gives a default option (ironic/conf/default.py).
    defaultInterfaces: { storage: 'noop' },
    heartbeatInterval: 10,
    heartbeatTimeout: 60,
    automatedClean: true,
    agentRequireTls: false,
    fastTrack: false,
    deployCallbackTimeout: 1800,
    cleanCallbackTimeout: 1800,
    checkProvisionStateInterval: 60,
    syncPowerStateInterval: 60,
    forcePowerStateDuringSync: true,
    powerStateSyncMaxRetries: 3,
    syncPowerStateWorkers: 8,
    powerFailureRecoveryInterval: 300,
    syncLocalStateInterval: 180,
    checkAllocationsInterval: 60,
    workersPoolSize: 100,
    periodicMaxWorkers: 8,
    nodeLockedRetryAttempts: 3,
    nodeLockedRetryInterval: 1,
    allowProvisioningInMaintenance: true,
    allowDeletingAvailableNodes: true,
    softPowerOffTimeout: 600,
    nodeHistory: true,
    nodeHistoryMaxEntries: 300,
    nodeHistoryCleanupInterval: 86400,
    nodeHistoryCleanupBatchCount: 1000,
    nodeHistoryMinimumDays: 0,
    powerStateChangeTimeout: 60,
    ipmi: {
      commandRetryTimeout: IPMI_DEFAULTS.commandRetryTimeout,
      minCommandInterval: IPMI_DEFAULTS.minCommandInterval,
      disableBootTimeout: IPMI_DEFAULTS.disableBootTimeout,
      additionalRetryableIpmiErrors: IPMI_DEFAULTS.additionalRetryableIpmiErrors,
      debug: IPMI_DEFAULTS.debug,
      ipmitoolPath: IPMI_DEFAULTS.ipmitoolPath,
    },
    pxe: {
      tftpRoot: PXE_DEFAULTS.tftpRoot,
      configSubdir: PXE_DEFAULTS.configSubdir,
      tftpServer: PXE_DEFAULTS.tftpServer,
      kernelAppendParams: PXE_DEFAULTS.kernelAppendParams,
      fileUrlAllowedPaths: PXE_DEFAULTS.fileUrlAllowedPaths,
    },
    gracefulShutdownTimeout: 60,
    hashRingResetInterval: 15,
    hashPartitionExponent: 5,
    fakeDelays: FAKE_NO_DELAYS,
  };
}
