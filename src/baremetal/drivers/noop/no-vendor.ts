/**
 * `no-vendor` (Ironic's `noop.NoVendor`): the node has no vendor methods (a call is the
 * conductor's `No handler for method`), validation fails, and driver validation fails naming
 * the class, as the real one does.
 */
import { UnsupportedDriverExtensionError } from '../../common/errors.ts';
import type { DriverTask } from '../base-interface.ts';
import type { Implementation } from '../implementation.ts';
import type { VendorInterface } from '../interfaces/index.ts';
import { unsupported } from './unsupported.ts';

class NoVendor implements VendorInterface {
  readonly kind = 'vendor' as const;
  readonly name = 'no-vendor';
  readonly vendorRoutes = {};
  readonly driverRoutes = {};

  async validate(task: DriverTask): Promise<void> {
    unsupported(task, 'vendor');
  }

  async driverValidate(): Promise<void> {
    throw new UnsupportedDriverExtensionError('NoVendor', 'vendor');
  }
}

export const noVendor: Implementation<'vendor'> = {
  kind: 'vendor',
  name: 'no-vendor',
  className: 'ironic.drivers.modules.noop.NoVendor',
  properties: {},
  create: () => new NoVendor(),
};
