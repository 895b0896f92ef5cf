/**
 * The fake RAID interface (Ironic's `fake.FakeRAID`): the base RAIDInterface's checks (a
 * node's target_raid_config, when it has one, against the RAID schema, on validation and
 * before it is stored) and its logical disk properties; creating and deleting a configuration
 * sleep `[fake] raid_delay` and do nothing else — the real one writes nothing to the node's
 * raid_config, and offers neither as a clean or deploy step (they carry no step decorator).
 */
import type { DriverTask } from '../base-interface.ts';
import type { Implementation } from '../implementation.ts';
import type { RaidInterface } from '../interfaces/index.ts';
import { RAID_LOGICAL_DISK_PROPERTIES, validateRaidConfiguration } from '../raid-logical-disks.ts';
import { type DelayRange, fakeSleep } from './fake-delays.ts';

class FakeRaid implements RaidInterface {
  readonly kind = 'raid' as const;
  readonly name = 'fake';
  readonly #delay: DelayRange;

  constructor(delay: DelayRange) {
    this.#delay = delay;
  }

  async validate(task: DriverTask): Promise<void> {
    if (!task.node.isSet('target_raid_config')) return;
    const target = task.node.get('target_raid_config') as Record<string, unknown> | null;
    if (target === null || Object.keys(target).length === 0) return;
    await this.validateRaidConfig(task, target);
  }

  async validateRaidConfig(_task: DriverTask, config: Record<string, unknown>): Promise<void> {
    validateRaidConfiguration(config);
  }

  logicalDiskProperties(): Record<string, string> {
    return { ...RAID_LOGICAL_DISK_PROPERTIES };
  }

  async createConfiguration(): Promise<null> {
    await fakeSleep(this.#delay);
    return null;
  }

  async deleteConfiguration(): Promise<null> {
    await fakeSleep(this.#delay);
    return null;
  }
}

export const fakeRaid: Implementation<'raid'> = {
  kind: 'raid',
  name: 'fake',
  className: 'ironic.drivers.modules.fake.FakeRAID',
  properties: {},
  create: (options) => new FakeRaid(options.fake.raid),
};
