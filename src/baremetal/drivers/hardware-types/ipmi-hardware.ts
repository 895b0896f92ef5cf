/**
 * The `ipmi` hardware type (Ironic 21.4.4's `ipmi.IPMIHardware`, a GenericHardware): power and
 * management through `ipmitool`. Each list is the real one in its order, keeping only what
 * Baton has a module for; left out for now (docs/baremetal.md, "The ipmi hardware type"):
 * boot `ipxe`, `pxe`; deploy `direct`, `ansible`, `ramdisk`, `anaconda`, `custom-agent`;
 * console `ipmitool-socat`, `ipmitool-shellinabox`; inspect `inspector`; network `flat`,
 * `neutron`; raid and rescue `agent`; storage `cinder`, `external`; vendor `ipmitool`.
 *
 * Until pxe boot and ramdisk deploy exist, boot and deploy offer `fake` (which the real type
 * does not), so that a node can be enrolled, powered and walked through its states; a node
 * with `fake` boot and deploy boots nothing.
 */
import type { HardwareType } from '../hardware-type.ts';

export const IPMI_HARDWARE = 'ipmi';

export const IPMI_HARDWARE_TYPE: HardwareType = {
  name: IPMI_HARDWARE,
  className: 'IPMIHardware',
  supported: {
    bios: ['no-bios'],
    boot: ['fake'],
    console: ['no-console'],
    deploy: ['fake'],
    inspect: ['no-inspect'],
    management: ['ipmitool', 'noop'],
    network: ['noop'],
    power: ['ipmitool'],
    raid: ['no-raid'],
    rescue: ['no-rescue'],
    storage: ['noop'],
    vendor: ['no-vendor'],
  },
};
