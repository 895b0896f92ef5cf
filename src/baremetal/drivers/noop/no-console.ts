/** `no-console` (Ironic's `noop.NoConsole`): the node has no console Ironic can reach. */
import type { DriverTask } from '../base-interface.ts';
import type { Implementation } from '../implementation.ts';
import type { ConsoleInterface } from '../interfaces/index.ts';
import { unsupported } from './unsupported.ts';

class NoConsole implements ConsoleInterface {
  readonly kind = 'console' as const;
  readonly name = 'no-console';

  async validate(task: DriverTask): Promise<void> {
    unsupported(task, 'console');
  }

  async startConsole(task: DriverTask): Promise<never> {
    unsupported(task, 'console');
  }

  async stopConsole(task: DriverTask): Promise<never> {
    unsupported(task, 'console');
  }

  async getConsole(task: DriverTask): Promise<never> {
    unsupported(task, 'console');
  }
}

export const noConsole: Implementation<'console'> = {
  kind: 'console',
  name: 'no-console',
  className: 'ironic.drivers.modules.noop.NoConsole',
  properties: {},
  create: () => new NoConsole(),
};
