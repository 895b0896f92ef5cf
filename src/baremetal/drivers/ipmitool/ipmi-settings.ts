/**
 * What the `ipmitool` interfaces run with: Ironic's `[ipmi]` options (ironic/conf/ipmi.py) and
 * `[conductor] power_state_change_timeout`, with the real defaults, plus where log lines go.
 */

export interface IpmiLog {
  /** The command lines run (the real one logs them at debug level too). */
  debug?(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface IpmiSettings {
  /** `[ipmi] command_retry_timeout` (s): how long a failing command is retried; also each run's limit. */
  readonly commandRetryTimeout: number;
  /** `[ipmi] min_command_interval` (s): the least time between two commands to one BMC. */
  readonly minCommandInterval: number;
  /** `[ipmi] disable_boot_timeout`: send the raw command that disables the 60 s boot timeout. */
  readonly disableBootTimeout: boolean;
  /** `[ipmi] additional_retryable_ipmi_errors`: kept for the option's sake (every error is retried). */
  readonly additionalRetryableIpmiErrors: readonly string[];
  /** `[ipmi] debug`: run ipmitool with `-v`. */
  readonly debug: boolean;
  /** `[conductor] power_state_change_timeout` (s): how long a power change is waited for. */
  readonly powerStateChangeTimeout: number;
  /** `[conductor] soft_power_off_timeout` (s): the wait of a soft power off. */
  readonly softPowerOffTimeout: number;
  /** The ipmitool program (found on PATH by default). */
  readonly ipmitoolPath: string;
  /** Where the ipmitool password files are written (`[DEFAULT] tempdir`; the system's by default). */
  readonly tempDir?: string;
}

/** The `[ipmi]` part, as a conductor's settings hold it. */
export type IpmiOptions = Omit<IpmiSettings, 'powerStateChangeTimeout' | 'softPowerOffTimeout'>;

export const IPMI_DEFAULTS: IpmiSettings = {
  commandRetryTimeout: 60,
  minCommandInterval: 5,
  disableBootTimeout: true,
  additionalRetryableIpmiErrors: [],
  debug: false,
  powerStateChangeTimeout: 60,
  softPowerOffTimeout: 600,
  ipmitoolPath: 'ipmitool',
};
