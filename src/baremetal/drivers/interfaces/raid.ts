/** The RAID interface (Ironic's RAIDInterface): builds and removes the node's RAID volumes. */
import type { DriverTask, HardwareInterface } from '../base-interface.ts';

export interface RaidInterface extends HardwareInterface<'raid'> {
  createConfiguration(task: DriverTask): Promise<string | null>;
  deleteConfiguration(task: DriverTask): Promise<string | null>;
}
