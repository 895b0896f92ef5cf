/**
 * The `ipmitool` management interface (Ironic's `ipmitool.IPMIManagement`): boot devices
 * (pxe, disk, cdrom, bios, safe), NMI (`power diag`), sensor data (`sdr -v`) and the BMC's
 * vendor (`mc info`).
 *
 * Setting a boot device sends what the real one sends: first, unless
 * `ipmi_disable_boot_timeout` (or `[ipmi] disable_boot_timeout`) says not to, `raw 0x00 0x08
 * 0x03 0x08` (no 60 s boot flag timeout); then, for a node booting UEFI (the default boot mode),
 * the raw Set System Boot Options `0x00 0x08 0x05 <0xe0 persistent | 0xa0 next boot> <device>
 * 0x00 0x00 0x00`, or for legacy BIOS `chassis bootdev <device> [options=persistent]`.
 * Reading it back is `chassis bootparam get 5`.
 */
import { InvalidParameterError } from '../../common/errors.ts';
import {
  FailedToGetSensorDataError,
  FailedToParseSensorDataError,
  IPMIFailureError,
  PasswordFileFailedToCreateError,
} from '../../common/ipmi-errors.ts';
import type { DriverTask } from '../base-interface.ts';
import { bootModeOf } from '../boot-mode.ts';
import type { Implementation } from '../implementation.ts';
import type { BootDevice, ManagementInterface } from '../interfaces/index.ts';
import { ManagementBase } from '../management-base.ts';
import { boolFromString, COMMON_PROPERTIES, parseDriverInfo } from './driver-info.ts';
import type { IpmiLog } from './ipmi-settings.ts';
import { IpmitoolExecutionError, type IpmitoolRunner } from './ipmitool-runner.ts';
import { runnerFor } from './shared-runner.ts';

/** The devices and the boot device selector each is sent as (the real BOOT_DEVICE_HEXA_MAP). */
export const BOOT_DEVICE_HEXA_MAP: Readonly<Record<string, string>> = {
  pxe: '0x04',
  disk: '0x08',
  cdrom: '0x14',
  bios: '0x18',
  safe: '0x0c',
};

const isIpmitoolFailure = (error: unknown) =>
  error instanceof IpmitoolExecutionError || error instanceof PasswordFileFailedToCreateError;

/** `_parse_ipmi_sensors_data`: `sdr -v` records by sensor type, then by sensor ID. */
export function parseSensorsData(
  uuid: string,
  output: string,
): Record<string, Record<string, Record<string, string>>> {
  const out: Record<string, Record<string, Record<string, string>>> = {};
  if (output === '') return out;
  for (const block of output.split('\n\n')) {
    const record: Record<string, string> = {};
    for (const line of block.split('\n')) {
      if (line === '' || line.startsWith('<<')) continue;
      const parts = line.split(':');
      if (parts.length !== 2) continue;
      record[(parts[0] as string).trim()] = (parts[1] as string).trim();
    }
    if (Object.keys(record).length === 0) continue;
    const typeLine =
      record['Sensor Type (Analog)'] ??
      record['Sensor Type (Discrete)'] ??
      record['Sensor Type (Threshold)'];
    if (typeLine === undefined) {
      throw new FailedToParseSensorDataError(
        uuid,
        `parse ipmi sensor data failed, unknown sensor type data: ${JSON.stringify(record)}`,
      );
    }
    const type = typeLine.split(' ', 1)[0] as string;
    if ('Sensor Reading' in record) {
      out[type] ??= {};
      out[type][record['Sensor ID'] ?? ''] = record;
    }
  }
  if (Object.keys(out).length === 0) {
    throw new FailedToParseSensorDataError(
      uuid,
      `parse ipmi sensor data failed, get nothing with input data: ${output}`,
    );
  }
  return out;
}

/** Boot mode, secure boot and indicators are the base class's refusals, as in the real one. */
class IpmitoolManagement extends ManagementBase implements ManagementInterface {
  readonly kind = 'management' as const;
  readonly name = 'ipmitool';
  readonly #runner: IpmitoolRunner;
  readonly #log: IpmiLog;

  constructor(runner: IpmitoolRunner, log: IpmiLog) {
    super();
    this.#runner = runner;
    this.#log = log;
  }

  async validate(task: DriverTask): Promise<void> {
    parseDriverInfo(task.node);
  }

  supportedBootDevices(): readonly string[] {
    return Object.keys(BOOT_DEVICE_HEXA_MAP);
  }

  /** send_raw: `raw <bytes>`, IPMIFailure when it fails. */
  async sendRaw(task: DriverTask, rawBytes: string): Promise<string> {
    const info = parseDriverInfo(task.node);
    const cmd = `raw ${rawBytes}`;
    try {
      return (await this.#runner.exec(info, cmd)).stdout;
    } catch (error) {
      if (!isIpmitoolFailure(error)) throw error;
      this.#log.error(
        `IPMI "raw bytes" failed for node ${info.uuid} with error: ${(error as Error).message}.`,
      );
      throw new IPMIFailureError(cmd);
    }
  }

  async setBootDevice(task: DriverTask, device: string, persistent: boolean): Promise<void> {
    const node = task.node;
    const map = BOOT_DEVICE_HEXA_MAP;
    if (!(device in map))
      throw new InvalidParameterError(`Invalid boot device ${device} specified.`);
    const driverInfo = (node.peek('driver_info') ?? {}) as Record<string, unknown>;
    const disableTimeout =
      driverInfo.ipmi_disable_boot_timeout ?? this.#runner.settings.disableBootTimeout;
    const uuid = String(node.peek('uuid'));
    if (boolFromString(disableTimeout)) {
      await this.sendRaw(task, '0x00 0x08 0x03 0x08');
    } else {
      this.#log.info(
        `For node ${uuid}, driver_info['ipmi_disable_boot_timeout'] is set to False, so not sending ipmi boot-timeout-disable`,
      );
    }
    let keep = persistent;
    if (boolFromString(driverInfo.ipmi_force_boot_device ?? false)) {
      await forcePersistentBoot(task, device, persistent);
      keep = false;
    }
    if (bootModeOf(node) === 'uefi') {
      const vendor = String(
        ((node.peek('properties') ?? {}) as Record<string, unknown>).vendor ?? '',
      ).toLowerCase();
      const selector = device === 'disk' && vendor === 'supermicro' ? '0x24' : map[device];
      await this.sendRaw(
        task,
        `0x00 0x08 0x05 ${keep ? '0xe0' : '0xa0'} ${selector} 0x00 0x00 0x00`,
      );
      return;
    }
    const cmd = `chassis bootdev ${device}${keep ? ' options=persistent' : ''}`;
    const info = parseDriverInfo(node);
    try {
      await this.#runner.exec(info, cmd);
    } catch (error) {
      if (!isIpmitoolFailure(error)) throw error;
      this.#log.warn(
        `IPMI set boot device failed for node ${uuid} when executing "ipmitool ${cmd}". Error: ${(error as Error).message}`,
      );
      throw new IPMIFailureError(cmd);
    }
  }

  async getBootDevice(task: DriverTask): Promise<BootDevice> {
    const node = task.node;
    const driverInfo = (node.peek('driver_info') ?? {}) as Record<string, unknown>;
    const info = parseDriverInfo(node);
    const internal = (node.peek('driver_internal_info') ?? {}) as Record<string, unknown>;
    if (
      boolFromString(driverInfo.ipmi_force_boot_device ?? false) &&
      internal.persistent_boot_device &&
      (internal.is_next_boot_persistent ?? true)
    ) {
      return { boot_device: String(internal.persistent_boot_device), persistent: true };
    }
    const cmd = 'chassis bootparam get 5';
    let out: string;
    try {
      out = (await this.#runner.exec(info, cmd)).stdout;
    } catch (error) {
      if (!isIpmitoolFailure(error)) throw error;
      this.#log.warn(
        `IPMI get boot device failed for node ${info.uuid} when executing "ipmitool ${cmd}". Error: ${(error as Error).message}`,
      );
      throw new IPMIFailureError(cmd);
    }
    let bootDevice: string | null = null;
    const selector = /Boot Device Selector : (.+)?\n/.exec(out);
    if (selector) {
      const text = selector[1] ?? '';
      if (text.includes('PXE')) bootDevice = 'pxe';
      else if (text.includes('Hard-Drive'))
        bootDevice = text.includes('Safe-Mode') ? 'safe' : 'disk';
      else if (text.includes('BIOS')) bootDevice = 'bios';
      else if (text.includes('CD/DVD')) bootDevice = 'cdrom';
    }
    return {
      boot_device: bootDevice,
      persistent: out.includes('Options apply to all future boots'),
    };
  }

  /** inject_nmi: `power diag`. */
  override async injectNmi(task: DriverTask): Promise<void> {
    const info = parseDriverInfo(task.node);
    try {
      await this.#runner.exec(info, 'power diag');
    } catch (error) {
      if (!isIpmitoolFailure(error)) throw error;
      this.#log.error(`Inject NMI failed for node ${info.uuid}: ${(error as Error).message}.`);
      throw new IPMIFailureError('power diag');
    }
  }

  /** get_sensors_data: `sdr -v`, by sensor type then sensor ID. */
  async getSensorsData(task: DriverTask) {
    const info = parseDriverInfo(task.node);
    let out: string;
    try {
      out = (await this.#runner.exec(info, 'sdr -v')).stdout;
    } catch (error) {
      if (!isIpmitoolFailure(error)) throw error;
      throw new FailedToGetSensorDataError(info.uuid, (error as Error).message);
    }
    return parseSensorsData(info.uuid, out);
  }

  /** detect_vendor: the manufacturer `mc info` names, lower-cased, or null. */
  async detectVendor(task: DriverTask): Promise<string | null> {
    const info = parseDriverInfo(task.node);
    const { stdout } = await this.#runner.exec(info, 'mc info');
    const found = /Manufacturer Name *: (.+)/.exec(stdout);
    return found ? (found[1] as string).toLowerCase() : null;
  }
}

/** A task the conductor saves (NodeTask); a bare DriverTask is saved by its caller. */
type SavingTask = DriverTask & { save?: () => Promise<void> };

/**
 * driver_utils.force_persistent_boot, for `ipmi_force_boot_device`: a persistent device is
 * remembered in driver_internal_info (and set again at each power on, `ensureNextBootDevice`),
 * a one-time one marks the next boot as not persistent; saved at once, as the real one does.
 */
export async function forcePersistentBoot(
  task: SavingTask,
  device: string,
  persistent: boolean,
): Promise<void> {
  const internal = {
    ...((task.node.peek('driver_internal_info') ?? {}) as Record<string, unknown>),
  };
  if (persistent) {
    delete internal.is_next_boot_persistent;
    internal.persistent_boot_device = device;
  } else {
    internal.is_next_boot_persistent = false;
  }
  task.node.set('driver_internal_info', internal);
  await task.save?.();
}

const SILENT_IPMI_LOG: IpmiLog = { info: () => {}, warn: () => {}, error: () => {} };

export const ipmitoolManagement: Implementation<'management'> = {
  kind: 'management',
  name: 'ipmitool',
  className: 'ironic.drivers.modules.ipmitool.IPMIManagement',
  properties: COMMON_PROPERTIES,
  create: (options) => new IpmitoolManagement(runnerFor(options), options.log ?? SILENT_IPMI_LOG),
};
