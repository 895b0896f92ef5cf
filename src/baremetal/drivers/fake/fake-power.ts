/**
 * The fake power interface (Ironic's `fake.FakePower`): the node's recorded power state is
 * the hardware's; a change is only written on the node.
 */
import { InvalidParameterError } from '../../common/errors.ts';
import type { DriverTask } from '../base-interface.ts';
import type { Implementation } from '../implementation.ts';
import type { PowerInterface } from '../interfaces/index.ts';
import { type DelayRange, fakeSleep } from './fake-delays.ts';

/** What a user may ask for (from 1.27 for the soft ones). */
export const FAKE_SUPPORTED_POWER_STATES: readonly string[] = [
  'power on',
  'power off',
  'rebooting',
  'soft rebooting',
  'soft power off',
];

/** What set_power_state takes (a reboot goes through `reboot`). */
const SETTABLE = ['power on', 'power off', 'soft rebooting', 'soft power off'];

class FakePower implements PowerInterface {
  readonly kind = 'power' as const;
  readonly name = 'fake';
  readonly #delay: DelayRange;

  constructor(delay: DelayRange) {
    this.#delay = delay;
  }

  async validate(): Promise<void> {}

  async getPowerState(task: DriverTask): Promise<string | null> {
    await fakeSleep(this.#delay);
    return task.node.get('power_state');
  }

  async setPowerState(task: DriverTask, state: string): Promise<void> {
    await fakeSleep(this.#delay);
    if (!SETTABLE.includes(state)) {
      throw new InvalidParameterError(
        `set_power_state called with an invalid power state: ${state}.`,
      );
    }
    task.node.set('power_state', state);
  }

  async reboot(): Promise<void> {
    await fakeSleep(this.#delay);
  }

  supportedPowerStates(): readonly string[] {
    return FAKE_SUPPORTED_POWER_STATES;
  }
}

export const fakePower: Implementation<'power'> = {
  kind: 'power',
  name: 'fake',
  className: 'ironic.drivers.modules.fake.FakePower',
  properties: {},
  create: (options) => new FakePower(options.fake.power),
};
