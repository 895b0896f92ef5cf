/** The management interface (Ironic's ManagementInterface): boot devices, for now. */
import type { DriverTask, HardwareInterface } from '../base-interface.ts';

export interface BootDevice {
  readonly boot_device: string | null;
  readonly persistent: boolean | null;
}

export interface ManagementInterface extends HardwareInterface<'management'> {
  supportedBootDevices(task: DriverTask): readonly string[];
  /** InvalidParameterError for a device the hardware does not offer. */
  setBootDevice(task: DriverTask, device: string, persistent: boolean): Promise<void>;
  getBootDevice(task: DriverTask): Promise<BootDevice>;
}
