/**
 * What a conductor is given to deploy an ipmi node with pxe boot and the ramdisk deploy, next to
 * the fake ones: Baton's conductor settings, and the real Ironic's [DEFAULT] options enabling
 * the same, so that the side-by-side tests configure both sides alike.
 */
import { STANDALONE_ENABLED_INTERFACES } from '../../../../src/baremetal/drivers/enabled-interfaces.ts';

/** The standalone interfaces, with pxe, ramdisk and ipmitool beside the fake ones. */
export const IPMI_PXE_INTERFACES = {
  ...STANDALONE_ENABLED_INTERFACES,
  boot: ['fake', 'pxe'],
  deploy: ['fake', 'ramdisk'],
  power: ['fake', 'ipmitool'],
  management: ['fake', 'ipmitool'],
};

/** Baton's conductor settings enabling them and the ipmi hardware type. */
export const IPMI_PXE_ENABLED = {
  enabledHardwareTypes: ['fake-hardware', 'ipmi'],
  enabledInterfaces: IPMI_PXE_INTERFACES,
};

/** The real Ironic's [DEFAULT] options enabling the same. */
export const IPMI_PXE_ENABLED_OPTIONS = {
  enabled_hardware_types: IPMI_PXE_ENABLED.enabledHardwareTypes.join(','),
  enabled_boot_interfaces: IPMI_PXE_INTERFACES.boot.join(','),
  enabled_deploy_interfaces: IPMI_PXE_INTERFACES.deploy.join(','),
  enabled_power_interfaces: IPMI_PXE_INTERFACES.power.join(','),
  enabled_management_interfaces: IPMI_PXE_INTERFACES.management.join(','),
};
