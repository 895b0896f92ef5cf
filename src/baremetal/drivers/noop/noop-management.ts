/**
 * `noop` management (Ironic's `noop_mgmt.NoopManagement`): the operator has set the boot
 * order (PXE, then disk) by hand; a boot device request is accepted and changes nothing. The
 * base class's optional methods (inject NMI, boot mode, indicators) are refused.
 */
import { InvalidParameterError } from '../../common/errors.ts';
import type { Implementation } from '../implementation.ts';
import type { BootDevice, ManagementInterface } from '../interfaces/index.ts';
import { ManagementBase } from '../management-base.ts';

const SUPPORTED: readonly string[] = ['pxe', 'disk'];

class NoopManagement extends ManagementBase implements ManagementInterface {
  readonly kind = 'management' as const;
  readonly name = 'noop';

  async validate(): Promise<void> {}

  supportedBootDevices(): readonly string[] {
    return SUPPORTED;
  }

  async setBootDevice(_task: unknown, device: string): Promise<void> {
    if (!SUPPORTED.includes(device)) {
      throw new InvalidParameterError(
        `Invalid boot device ${device} specified, supported are ${SUPPORTED.join(', ')}.`,
      );
    }
  }

  async getBootDevice(): Promise<BootDevice> {
    return { boot_device: 'pxe', persistent: true };
  }
}

export const noopManagement: Implementation<'management'> = {
  kind: 'management',
  name: 'noop',
  className: 'ironic.drivers.modules.noop_mgmt.NoopManagement',
  properties: {},
  create: () => new NoopManagement(),
};
