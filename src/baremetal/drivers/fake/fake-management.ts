/**
 * The fake management interface (Ironic's `fake.FakeManagement`): PXE is the only boot device
 * it offers and the one it always reports; nothing set is remembered.
 */
import { InvalidParameterError } from '../../common/errors.ts';
import type { Implementation } from '../implementation.ts';
import type { BootDevice, ManagementInterface } from '../interfaces/index.ts';
import { type DelayRange, fakeSleep } from './fake-delays.ts';

export const FAKE_SUPPORTED_BOOT_DEVICES: readonly string[] = ['pxe'];
export const FAKE_BOOT_DEVICE: BootDevice = { boot_device: 'pxe', persistent: false };

class FakeManagement implements ManagementInterface {
  readonly kind = 'management' as const;
  readonly name = 'fake';
  readonly #delay: DelayRange;

  constructor(delay: DelayRange) {
    this.#delay = delay;
  }

  async validate(): Promise<void> {}

  supportedBootDevices(): readonly string[] {
    return FAKE_SUPPORTED_BOOT_DEVICES;
  }

  async setBootDevice(_task: unknown, device: string): Promise<void> {
    await fakeSleep(this.#delay);
    if (!FAKE_SUPPORTED_BOOT_DEVICES.includes(device)) {
      throw new InvalidParameterError(`Invalid boot device ${device} specified.`);
    }
  }

  async getBootDevice(): Promise<BootDevice> {
    await fakeSleep(this.#delay);
    return { ...FAKE_BOOT_DEVICE };
  }
}

export const fakeManagement: Implementation<'management'> = {
  kind: 'management',
  name: 'fake',
  className: 'ironic.drivers.modules.fake.FakeManagement',
  properties: {},
  create: (options) => new FakeManagement(options.fake.management),
};
