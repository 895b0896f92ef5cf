/** `no-inspect` (Ironic's `noop.NoInspect`): the node cannot be inspected. */
import type { DriverTask } from '../base-interface.ts';
import type { Implementation } from '../implementation.ts';
import type { InspectInterface } from '../interfaces/index.ts';
import { unsupported } from './unsupported.ts';

class NoInspect implements InspectInterface {
  readonly kind = 'inspect' as const;
  readonly name = 'no-inspect';

  async validate(task: DriverTask): Promise<void> {
    unsupported(task, 'inspect');
  }

  async inspectHardware(task: DriverTask): Promise<never> {
    unsupported(task, 'inspect');
  }

  async abort(task: DriverTask): Promise<never> {
    unsupported(task, 'abort');
  }
}

export const noInspect: Implementation<'inspect'> = {
  kind: 'inspect',
  name: 'no-inspect',
  className: 'ironic.drivers.modules.noop.NoInspect',
  properties: {},
  create: () => new NoInspect(),
};
