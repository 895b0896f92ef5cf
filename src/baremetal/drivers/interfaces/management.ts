/**
 * The management interface (Ironic's ManagementInterface): boot devices, and the optional
 * parts the base class refuses with UnsupportedDriverExtension naming the method (inject NMI,
 * boot mode, secure boot, indicators) unless the implementation has them.
 */
import type { DriverTask, HardwareInterface } from '../base-interface.ts';

export interface BootDevice {
  readonly boot_device: string | null;
  readonly persistent: boolean | null;
}

/** One indicator of a component, as get_supported_indicators lists it. */
export interface IndicatorInfo {
  readonly readonly: boolean;
  readonly states: readonly string[];
}

/** `{component: {indicator: info}}`, components and indicators in the hardware's order. */
export type SupportedIndicators = Readonly<Record<string, Readonly<Record<string, IndicatorInfo>>>>;

export interface ManagementInterface extends HardwareInterface<'management'> {
  supportedBootDevices(task: DriverTask): readonly string[];
  /** InvalidParameterError for a device the hardware does not offer. */
  setBootDevice(task: DriverTask, device: string, persistent: boolean): Promise<void>;
  getBootDevice(task: DriverTask): Promise<BootDevice>;
  /** Non-maskable interrupt, at once. */
  injectNmi(task: DriverTask): Promise<void>;
  /** `bios`, `uefi`, or null when unknown. */
  getBootMode(task: DriverTask): Promise<string | null>;
  setBootMode(task: DriverTask, mode: string): Promise<void>;
  getSecureBootState(task: DriverTask): Promise<boolean>;
  setSecureBootState(task: DriverTask, state: boolean): Promise<void>;
  /** Only `component`'s when given. */
  supportedIndicators(task: DriverTask, component?: string): Promise<SupportedIndicators>;
  /** InvalidParameterError for a component or indicator the hardware does not have. */
  getIndicatorState(task: DriverTask, component: string, indicator: string): Promise<string>;
  setIndicatorState(
    task: DriverTask,
    component: string,
    indicator: string,
    state: string,
  ): Promise<void>;
}
