/**
 * The boot interface (Ironic's BootInterface): how the node boots a ramdisk (deploy, clean,
 * rescue) and then its instance. Deploy interfaces that run on the node call it.
 */
import type { DriverTask, HardwareInterface } from '../base-interface.ts';

export interface BootInterface extends HardwareInterface<'boot'> {
  /** What it can boot (the real `capabilities`): a ramdisk deploy needs `ramdisk_boot`. */
  readonly capabilities?: readonly string[];
  prepareRamdisk(task: DriverTask, params: Readonly<Record<string, unknown>>): Promise<void>;
  cleanUpRamdisk(task: DriverTask): Promise<void>;
  prepareInstance(task: DriverTask): Promise<void>;
  cleanUpInstance(task: DriverTask): Promise<void>;
}
