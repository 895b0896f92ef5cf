/**
 * The fake RAID interface (Ironic's `fake.FakeRAID`): creating and deleting a configuration
 * succeed after the delay. (The real one validates a node's target_raid_config against the
 * RAID schema; Baton does not serve RAID configuration yet, so there is nothing to check.)
 */
import type { Implementation } from '../implementation.ts';
import type { RaidInterface } from '../interfaces/index.ts';
import { type DelayRange, fakeSleep } from './fake-delays.ts';

class FakeRaid implements RaidInterface {
  readonly kind = 'raid' as const;
  readonly name = 'fake';
  readonly #delay: DelayRange;

  constructor(delay: DelayRange) {
    this.#delay = delay;
  }

  async validate(): Promise<void> {}

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
