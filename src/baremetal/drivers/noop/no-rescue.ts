/**
 * `no-rescue` (Ironic's `noop.NoRescue`): the node cannot be rescued; cleaning up a rescue
 * (after a tear-down from a rescue state) has nothing to do, as the real base class's.
 */
import type { DriverTask } from '../base-interface.ts';
import type { Implementation } from '../implementation.ts';
import type { RescueInterface } from '../interfaces/index.ts';
import { unsupported } from './unsupported.ts';

class NoRescue implements RescueInterface {
  readonly kind = 'rescue' as const;
  readonly name = 'no-rescue';

  async validate(task: DriverTask): Promise<void> {
    unsupported(task, 'rescue');
  }

  async rescue(task: DriverTask): Promise<never> {
    unsupported(task, 'rescue');
  }

  async unrescue(task: DriverTask): Promise<never> {
    unsupported(task, 'rescue');
  }

  async cleanUp(): Promise<void> {}
}

export const noRescue: Implementation<'rescue'> = {
  kind: 'rescue',
  name: 'no-rescue',
  className: 'ironic.drivers.modules.noop.NoRescue',
  properties: {},
  create: () => new NoRescue(),
};
