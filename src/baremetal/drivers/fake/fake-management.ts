/**
 * The fake management interface (Ironic's `fake.FakeManagement`): PXE is the only boot device
 * it offers and the one it always reports; nothing set is remembered. Its indicators are the
 * real ones: `led-0` of the chassis (read-only, off/on) and `led` of the system (blinking, off,
 * on), each reported `on`; setting one, inject NMI, boot mode and secure boot are the base
 * class's refusals (management-base.ts), as in the real one.
 */
import { InvalidParameterError } from '../../common/errors.ts';
import type { Implementation } from '../implementation.ts';
import type { BootDevice, ManagementInterface, SupportedIndicators } from '../interfaces/index.ts';
import { ManagementBase } from '../management-base.ts';
import { type DelayRange, fakeSleep } from './fake-delays.ts';

export const FAKE_SUPPORTED_BOOT_DEVICES: readonly string[] = ['pxe'];
export const FAKE_BOOT_DEVICE: BootDevice = { boot_device: 'pxe', persistent: false };

/** FakeManagement.get_supported_indicators, in its order. */
export const FAKE_INDICATORS: SupportedIndicators = {
  chassis: { 'led-0': { readonly: true, states: ['off', 'on'] } },
  system: { led: { readonly: false, states: ['blinking', 'off', 'on'] } },
};

class FakeManagement extends ManagementBase implements ManagementInterface {
  readonly kind = 'management' as const;
  readonly name = 'fake';
  readonly #delay: DelayRange;

  constructor(delay: DelayRange) {
    super();
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

  override async supportedIndicators(
    _task: unknown,
    component?: string,
  ): Promise<SupportedIndicators> {
    await fakeSleep(this.#delay);
    return Object.fromEntries(
      Object.entries(FAKE_INDICATORS).filter(([name]) => !component || name === component),
    );
  }

  override async getIndicatorState(
    task: unknown,
    component: string,
    indicator: string,
  ): Promise<string> {
    await fakeSleep(this.#delay);
    const indicators = await this.supportedIndicators(task);
    const ofComponent = Object.hasOwn(indicators, component) ? indicators[component] : undefined;
    if (ofComponent === undefined) {
      throw new InvalidParameterError(`Invalid component ${component} specified.`);
    }
    if (!Object.hasOwn(ofComponent, indicator)) {
      throw new InvalidParameterError(`Invalid indicator ${indicator} specified.`);
    }
    return 'on';
  }
}

export const fakeManagement: Implementation<'management'> = {
  kind: 'management',
  name: 'fake',
  className: 'ironic.drivers.modules.fake.FakeManagement',
  properties: {},
  create: (options) => new FakeManagement(options.fake.management),
};
