/**
 * The fake inspect interface (Ironic's `fake.FakeInspect`): inspection is over when it
 * returns (`manageable`); like the base interface, it cannot abort one.
 */
import { UnsupportedDriverExtensionError } from '../../common/errors.ts';
import type { DriverTask } from '../base-interface.ts';
import type { Implementation } from '../implementation.ts';
import type { InspectInterface } from '../interfaces/index.ts';
import { type DelayRange, fakeSleep } from './fake-delays.ts';

class FakeInspect implements InspectInterface {
  readonly kind = 'inspect' as const;
  readonly name = 'fake';
  readonly #delay: DelayRange;

  constructor(delay: DelayRange) {
    this.#delay = delay;
  }

  async validate(): Promise<void> {}

  async inspectHardware(): Promise<string> {
    await fakeSleep(this.#delay);
    return 'manageable';
  }

  async abort(task: DriverTask): Promise<void> {
    throw new UnsupportedDriverExtensionError(String(task.node.get('driver')), 'abort');
  }
}

export const fakeInspect: Implementation<'inspect'> = {
  kind: 'inspect',
  name: 'fake',
  className: 'ironic.drivers.modules.fake.FakeInspect',
  properties: {},
  create: (options) => new FakeInspect(options.fake.inspect),
};
