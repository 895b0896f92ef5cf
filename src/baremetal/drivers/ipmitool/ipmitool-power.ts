/**
 * The `ipmitool` power interface (Ironic's `ipmitool.IPMIPower`): `power status|on|off|soft`
 * sent to the node's BMC, then the node's power read back until it is the one asked for, within
 * the request's timeout or `[conductor] power_state_change_timeout` (a soft power off: within
 * `[conductor] soft_power_off_timeout`). A reboot is off (when not off already) then on.
 */
import { InvalidParameterError, PowerStateFailureError } from '../../common/errors.ts';
import { IPMIFailureError, PasswordFileFailedToCreateError } from '../../common/ipmi-errors.ts';
import type { DriverTask } from '../base-interface.ts';
import type { Implementation } from '../implementation.ts';
import type { PowerInterface } from '../interfaces/index.ts';
import {
  boolFromString,
  COMMON_PROPERTIES,
  type IpmiDriverInfo,
  parseDriverInfo,
} from './driver-info.ts';
import type { IpmiLog } from './ipmi-settings.ts';
import { IpmitoolExecutionError, type IpmitoolRunner } from './ipmitool-runner.ts';
import { runnerFor } from './shared-runner.ts';

export const POWER_ON = 'power on';
export const POWER_OFF = 'power off';
const REBOOT = 'rebooting';
const SOFT_REBOOT = 'soft rebooting';
const SOFT_POWER_OFF = 'soft power off';
/** What `power status` answers that is neither on nor off (the real states.ERROR). */
export const POWER_ERROR = 'error';

export const IPMITOOL_SUPPORTED_POWER_STATES: readonly string[] = [
  POWER_ON,
  POWER_OFF,
  REBOOT,
  SOFT_REBOOT,
  SOFT_POWER_OFF,
];

const isIpmitoolFailure = (error: unknown) =>
  error instanceof IpmitoolExecutionError || error instanceof PasswordFileFailedToCreateError;

/**
 * driver_utils.ensure_next_boot_device, before each power on of a node with
 * `ipmi_force_boot_device`: after a one-time boot device, only forget that it was one; else
 * set the remembered persistent device again (through the node's management interface).
 */
export async function ensureNextBootDevice(task: DriverTask, info: IpmiDriverInfo): Promise<void> {
  if (!boolFromString(info.forceBootDevice)) return;
  const withSave = task as DriverTask & { save?: () => Promise<void> };
  const internal = (task.node.peek('driver_internal_info') ?? {}) as Record<string, unknown>;
  if (internal.is_next_boot_persistent === false) {
    const rest = { ...internal };
    delete rest.is_next_boot_persistent;
    task.node.set('driver_internal_info', rest);
    await withSave.save?.();
    return;
  }
  const device = internal.persistent_boot_device;
  if (typeof device === 'string' && device !== '' && task.driver !== undefined) {
    await task.driver.management.setBootDevice(task, device, false);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `_power_status`: the state `power status` prints, IPMIFailure when it cannot be read. */
export async function powerStatus(
  runner: IpmitoolRunner,
  log: IpmiLog,
  info: IpmiDriverInfo,
): Promise<string> {
  const cmd = 'power status';
  let stdout: string;
  try {
    ({ stdout } = await runner.exec(info, cmd));
  } catch (error) {
    if (!isIpmitoolFailure(error)) throw error;
    log.warn(
      `IPMI power status failed for node ${info.uuid} with error: ${(error as Error).message}.`,
    );
    throw new IPMIFailureError(cmd);
  }
  if (stdout === 'Chassis Power is on\n') return POWER_ON;
  if (stdout === 'Chassis Power is off\n') return POWER_OFF;
  return POWER_ERROR;
}

class IpmitoolPower implements PowerInterface {
  readonly kind = 'power' as const;
  readonly name = 'ipmitool';
  readonly #runner: IpmitoolRunner;
  readonly #log: IpmiLog;

  constructor(runner: IpmitoolRunner, log: IpmiLog) {
    this.#runner = runner;
    this.#log = log;
  }

  async validate(task: DriverTask): Promise<void> {
    parseDriverInfo(task.node);
  }

  async getPowerState(task: DriverTask): Promise<string | null> {
    return powerStatus(this.#runner, this.#log, parseDriverInfo(task.node));
  }

  async setPowerState(task: DriverTask, state: string, timeout?: number): Promise<void> {
    const info = parseDriverInfo(task.node);
    if (state === POWER_ON) {
      await ensureNextBootDevice(task, info);
      await this.#setAndWait(info, POWER_ON, timeout);
    } else if (state === POWER_OFF) await this.#setAndWait(info, POWER_OFF, timeout);
    else if (state === SOFT_POWER_OFF) await this.#setAndWait(info, SOFT_POWER_OFF, timeout);
    else if (state === SOFT_REBOOT) {
      await this.#setAndWait(info, SOFT_POWER_OFF, timeout);
      await ensureNextBootDevice(task, info);
      await this.#setAndWait(info, POWER_ON, timeout);
    } else {
      throw new InvalidParameterError(`set_power_state called with invalid power state ${state}.`);
    }
  }

  async reboot(task: DriverTask, timeout?: number): Promise<void> {
    const info = parseDriverInfo(task.node);
    const current = await powerStatus(this.#runner, this.#log, info);
    if (current !== POWER_OFF) await this.#setAndWait(info, POWER_OFF, timeout);
    await ensureNextBootDevice(task, info);
    await this.#setAndWait(info, POWER_ON, timeout);
  }

  supportedPowerStates(): readonly string[] {
    return IPMITOOL_SUPPORTED_POWER_STATES;
  }

  /** `_set_and_wait`: sends the power command, then waits for the state it leads to. */
  async #setAndWait(
    info: IpmiDriverInfo,
    action: string,
    timeout: number | undefined,
  ): Promise<void> {
    const settings = this.#runner.settings;
    let cmd = 'power on';
    let target = POWER_ON;
    let wait = timeout;
    if (action === POWER_OFF) {
      cmd = 'power off';
      target = POWER_OFF;
    } else if (action === SOFT_POWER_OFF) {
      cmd = 'power soft';
      target = POWER_OFF;
      wait = timeout || settings.softPowerOffTimeout;
    }
    try {
      await this.#runner.exec(info, cmd);
    } catch (error) {
      if (!isIpmitoolFailure(error)) throw error;
      this.#log.warn(
        `IPMI power action ${cmd} failed for node ${info.uuid} with error: ${(error as Error).message}.`,
      );
      throw new IPMIFailureError(cmd);
    }
    await this.#waitForPowerState(info, target, wait || settings.powerStateChangeTimeout);
  }

  /**
   * node_wait_for_power_state: reads the power a second after the command, then at growing
   * intervals (the real BackOffLoopingCall), until it is `target`; PowerStateFailure after
   * `timeout` seconds.
   */
  async #waitForPowerState(info: IpmiDriverInfo, target: string, timeout: number) {
    const deadline = Date.now() + timeout * 1000;
    let delay = 1000;
    for (;;) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) break;
      await sleep(Math.min(delay, remaining));
      if ((await powerStatus(this.#runner, this.#log, info)) === target) return;
      delay = Math.min(delay * 2, 10_000);
    }
    this.#log.error(`Timed out after ${timeout} secs waiting for ${target} on node ${info.uuid}.`);
    throw new PowerStateFailureError(target);
  }
}

export const ipmitoolPower: Implementation<'power'> = {
  kind: 'power',
  name: 'ipmitool',
  className: 'ironic.drivers.modules.ipmitool.IPMIPower',
  properties: COMMON_PROPERTIES,
  create: (options) => new IpmitoolPower(runnerFor(options), options.log ?? SILENT_IPMI_LOG),
};

const SILENT_IPMI_LOG: IpmiLog = { info: () => {}, warn: () => {}, error: () => {} };
