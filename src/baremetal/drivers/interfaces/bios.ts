/** The BIOS interface (Ironic's BIOSInterface): applies, resets and reads BIOS settings. */
import type { DriverTask, HardwareInterface } from '../base-interface.ts';

export interface BiosInterface extends HardwareInterface<'bios'> {
  applyConfiguration(
    task: DriverTask,
    settings: readonly Readonly<Record<string, unknown>>[],
  ): Promise<string | null>;
  factoryReset(task: DriverTask): Promise<string | null>;
  cacheBiosSettings(task: DriverTask): Promise<void>;
}
