/** `no-vendor` (Ironic's `noop.NoVendor`): the node has no vendor methods. */
import type { DriverTask } from '../base-interface.ts';
import type { Implementation } from '../implementation.ts';
import type { VendorInterface } from '../interfaces/index.ts';
import { unsupported } from './unsupported.ts';

class NoVendor implements VendorInterface {
  readonly kind = 'vendor' as const;
  readonly name = 'no-vendor';

  async validate(task: DriverTask): Promise<void> {
    unsupported(task, 'vendor');
  }
}

export const noVendor: Implementation<'vendor'> = {
  kind: 'vendor',
  name: 'no-vendor',
  className: 'ironic.drivers.modules.noop.NoVendor',
  properties: {},
  create: () => new NoVendor(),
};
