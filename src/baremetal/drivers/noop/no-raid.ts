/**
 * `no-raid` (Ironic's `noop.NoRAID`): the node's RAID cannot be configured (a target RAID
 * configuration refused as UnsupportedDriverExtension); its logical disk properties are still
 * the base interface's, as the real one's are.
 */
import type { DriverTask } from '../base-interface.ts';
import type { Implementation } from '../implementation.ts';
import type { RaidInterface } from '../interfaces/index.ts';
import { RAID_LOGICAL_DISK_PROPERTIES } from '../raid-logical-disks.ts';
import { unsupported } from './unsupported.ts';

class NoRaid implements RaidInterface {
  readonly kind = 'raid' as const;
  readonly name = 'no-raid';

  async validate(task: DriverTask): Promise<void> {
    unsupported(task, 'raid');
  }

  async validateRaidConfig(task: DriverTask): Promise<never> {
    unsupported(task, 'raid');
  }

  logicalDiskProperties(): Record<string, string> {
    return { ...RAID_LOGICAL_DISK_PROPERTIES };
  }

  async createConfiguration(task: DriverTask): Promise<never> {
    unsupported(task, 'raid');
  }

  async deleteConfiguration(task: DriverTask): Promise<never> {
    unsupported(task, 'raid');
  }
}

export const noRaid: Implementation<'raid'> = {
  kind: 'raid',
  name: 'no-raid',
  className: 'ironic.drivers.modules.noop.NoRAID',
  properties: {},
  create: () => new NoRaid(),
};
