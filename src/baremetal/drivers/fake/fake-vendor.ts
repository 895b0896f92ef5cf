/**
 * The fake vendor interface (the `fake` entry point is Ironic's `fake.FakeVendorB`): it
 * validates, and documents the B1 and B2 driver properties the real one does. Its passthru
 * methods are not served (Baton has no vendor passthru yet).
 */
import type { Implementation } from '../implementation.ts';
import type { VendorInterface } from '../interfaces/index.ts';

class FakeVendor implements VendorInterface {
  readonly kind = 'vendor' as const;
  readonly name = 'fake';

  async validate(): Promise<void> {}
}

export const fakeVendor: Implementation<'vendor'> = {
  kind: 'vendor',
  name: 'fake',
  className: 'ironic.drivers.modules.fake.FakeVendorB',
  properties: { B1: 'B1 description. Required.', B2: 'B2 description. Required.' },
  create: () => new FakeVendor(),
};
