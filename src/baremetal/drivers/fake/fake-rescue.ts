/**
 * The fake rescue interface (Ironic's `fake.FakeRescue`): rescue and unrescue are over when
 * they return; there is nothing to clean up.
 */
import type { Implementation } from '../implementation.ts';
import type { RescueInterface } from '../interfaces/index.ts';
import { type DelayRange, fakeSleep } from './fake-delays.ts';

class FakeRescue implements RescueInterface {
  readonly kind = 'rescue' as const;
  readonly name = 'fake';
  readonly #delay: DelayRange;

  constructor(delay: DelayRange) {
    this.#delay = delay;
  }

  async validate(): Promise<void> {}

  async rescue(): Promise<string> {
    await fakeSleep(this.#delay);
    return 'rescue';
  }

  async unrescue(): Promise<string> {
    await fakeSleep(this.#delay);
    return 'active';
  }

  async cleanUp(): Promise<void> {}
}

export const fakeRescue: Implementation<'rescue'> = {
  kind: 'rescue',
  name: 'fake',
  className: 'ironic.drivers.modules.fake.FakeRescue',
  properties: {},
  create: (options) => new FakeRescue(options.fake.rescue),
};
