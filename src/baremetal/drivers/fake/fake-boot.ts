/** The fake boot interface (Ironic's `fake.FakeBoot`): every step succeeds after its delay. */
import type { Implementation } from '../implementation.ts';
import type { BootInterface } from '../interfaces/index.ts';
import { type DelayRange, fakeSleep } from './fake-delays.ts';

class FakeBoot implements BootInterface {
  readonly kind = 'boot' as const;
  readonly name = 'fake';
  // The real FakeBoot's: no `ramdisk_boot`, so a ramdisk deploy refuses it.
  readonly capabilities = ['ipxe_boot', 'pxe_boot'] as const;
  readonly #delay: DelayRange;

  constructor(delay: DelayRange) {
    this.#delay = delay;
  }

  async validate(): Promise<void> {}

  prepareRamdisk(): Promise<void> {
    return fakeSleep(this.#delay);
  }

  cleanUpRamdisk(): Promise<void> {
    return fakeSleep(this.#delay);
  }

  prepareInstance(): Promise<void> {
    return fakeSleep(this.#delay);
  }

  cleanUpInstance(): Promise<void> {
    return fakeSleep(this.#delay);
  }
}

export const fakeBoot: Implementation<'boot'> = {
  kind: 'boot',
  name: 'fake',
  className: 'ironic.drivers.modules.fake.FakeBoot',
  properties: {},
  create: (options) => new FakeBoot(options.fake.boot),
};
