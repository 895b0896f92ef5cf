/**
 * `no-bios` (Ironic's `noop.NoBIOS`): BIOS settings cannot be applied nor reset; reading them
 * back does nothing, since the conductor caches them after every clean.
 */
import type { DriverTask } from '../base-interface.ts';
import type { Implementation } from '../implementation.ts';
import type { BiosInterface } from '../interfaces/index.ts';
import { unsupported } from './unsupported.ts';

class NoBios implements BiosInterface {
  readonly kind = 'bios' as const;
  readonly name = 'no-bios';

  async validate(task: DriverTask): Promise<void> {
    unsupported(task, 'bios');
  }

  async applyConfiguration(task: DriverTask): Promise<never> {
    unsupported(task, 'bios');
  }

  async factoryReset(task: DriverTask): Promise<never> {
    unsupported(task, 'bios');
  }

  async cacheBiosSettings(): Promise<void> {}
}

export const noBios: Implementation<'bios'> = {
  kind: 'bios',
  name: 'no-bios',
  className: 'ironic.drivers.modules.noop.NoBIOS',
  properties: {},
  create: () => new NoBios(),
};
