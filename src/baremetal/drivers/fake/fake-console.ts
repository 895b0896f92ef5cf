/** The fake console interface (Ironic's `fake.FakeConsole`): starts and stops, reaches nothing. */
import type { Implementation } from '../implementation.ts';
import type { ConsoleInterface } from '../interfaces/index.ts';

class FakeConsole implements ConsoleInterface {
  readonly kind = 'console' as const;
  readonly name = 'fake';

  async validate(): Promise<void> {}
  async startConsole(): Promise<void> {}
  async stopConsole(): Promise<void> {}

  async getConsole(): Promise<Record<string, unknown>> {
    return {};
  }
}

export const fakeConsole: Implementation<'console'> = {
  kind: 'console',
  name: 'fake',
  className: 'ironic.drivers.modules.fake.FakeConsole',
  properties: {},
  create: () => new FakeConsole(),
};
