/** The RAID interface (Ironic's RAIDInterface): builds and removes the node's RAID volumes. */
import type { DriverTask, HardwareInterface } from '../base-interface.ts';

export interface RaidInterface extends HardwareInterface<'raid'> {
  /**
   * validate_raid_config: a target RAID configuration checked before the conductor stores it
   * (InvalidParameterValue with the schema's error; `no-raid`: UnsupportedDriverExtension).
   */
  validateRaidConfig(task: DriverTask, config: Record<string, unknown>): Promise<void>;
  /** get_logical_disk_properties: the logical disk keys and their descriptions. */
  logicalDiskProperties(): Record<string, string>;
  createConfiguration(task: DriverTask): Promise<string | null>;
  deleteConfiguration(task: DriverTask): Promise<string | null>;
}
