/**
 * The fake BIOS interface (Ironic's `fake.FakeBIOS`): three clean steps of priority 0 (so run
 * only when a manual clean asks for them), each done after the delay. The real one also keeps
 * the settings in a table Baton does not have in this release.
 */
import { InvalidParameterError } from '../../common/errors.ts';
import type { DriverStep, DriverTask } from '../base-interface.ts';
import type { Implementation } from '../implementation.ts';
import type { BiosInterface } from '../interfaces/index.ts';
import { type DelayRange, fakeSleep } from './fake-delays.ts';

const step = (name: string, argsinfo?: DriverStep['argsinfo']): DriverStep => ({
  interface: 'bios',
  step: name,
  priority: 0,
  abortable: false,
  requiresRamdisk: true,
  ...(argsinfo === undefined ? {} : { argsinfo }),
});

const CLEAN_STEPS: readonly DriverStep[] = [
  step('apply_configuration', {
    settings: {
      description:
        'List of BIOS settings, each item needs to contain a dictionary with name/value pairs',
      required: true,
    },
  }),
  step('cache_bios_settings'),
  step('factory_reset'),
];

class FakeBios implements BiosInterface {
  readonly kind = 'bios' as const;
  readonly name = 'fake';
  readonly cleanSteps = CLEAN_STEPS;
  readonly #delay: DelayRange;

  constructor(delay: DelayRange) {
    this.#delay = delay;
  }

  async validate(): Promise<void> {}

  async applyConfiguration(): Promise<null> {
    await fakeSleep(this.#delay);
    return null;
  }

  async factoryReset(): Promise<null> {
    await fakeSleep(this.#delay);
    return null;
  }

  cacheBiosSettings(): Promise<void> {
    return fakeSleep(this.#delay);
  }

  async executeStep(_task: DriverTask, { step }: DriverStep): Promise<string | null> {
    switch (step) {
      case 'apply_configuration':
        return this.applyConfiguration();
      case 'factory_reset':
        return this.factoryReset();
      case 'cache_bios_settings':
        await this.cacheBiosSettings();
        return null;
      default:
        throw new InvalidParameterError(`unknown step bios.${step}`);
    }
  }
}

export const fakeBios: Implementation<'bios'> = {
  kind: 'bios',
  name: 'fake',
  className: 'ironic.drivers.modules.fake.FakeBIOS',
  properties: {},
  create: (options) => new FakeBios(options.fake.bios),
};
