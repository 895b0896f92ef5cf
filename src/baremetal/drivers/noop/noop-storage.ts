/** `noop` storage (Ironic's `storage.noop.NoopStorage`): the node boots from its own disk. */
import type { Implementation } from '../implementation.ts';
import type { StorageInterface } from '../interfaces/index.ts';

class NoopStorage implements StorageInterface {
  readonly kind = 'storage' as const;
  readonly name = 'noop';

  async validate(): Promise<void> {}
  async attachVolumes(): Promise<void> {}
  async detachVolumes(): Promise<void> {}

  shouldWriteImage(): boolean {
    return true;
  }
}

export const noopStorage: Implementation<'storage'> = {
  kind: 'storage',
  name: 'noop',
  className: 'ironic.drivers.modules.storage.noop.NoopStorage',
  properties: {},
  create: () => new NoopStorage(),
};
