/** The fake storage interface (Ironic's `fake.FakeStorage`): volumes attach and detach at once. */
import type { Implementation } from '../implementation.ts';
import type { StorageInterface } from '../interfaces/index.ts';
import { type DelayRange, fakeSleep } from './fake-delays.ts';

class FakeStorage implements StorageInterface {
  readonly kind = 'storage' as const;
  readonly name = 'fake';
  readonly #delay: DelayRange;

  constructor(delay: DelayRange) {
    this.#delay = delay;
  }

  async validate(): Promise<void> {}

  attachVolumes(): Promise<void> {
    return fakeSleep(this.#delay);
  }

  detachVolumes(): Promise<void> {
    return fakeSleep(this.#delay);
  }

  shouldWriteImage(): boolean {
    return true;
  }
}

export const fakeStorage: Implementation<'storage'> = {
  kind: 'storage',
  name: 'fake',
  className: 'ironic.drivers.modules.fake.FakeStorage',
  properties: {},
  create: (options) => new FakeStorage(options.fake.storage),
};
