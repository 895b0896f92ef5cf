/**
 * The `ipmi` hardware type (Ironic 21.4.4's `ipmi.IPMIHardware`, a GenericHardware): power and
 * management through `ipmitool`. Each list is the real one in its order, keeping only what
 * Baton has a module for: boot `pxe` and deploy `ramdisk` (a node network-boots its instance's
 * kernel and ramdisk, no agent). Left out for now (docs/baremetal.md, "The ipmi hardware
 * type"): boot `ipxe`; deploy `direct`, `ansible`, `anaconda`, `custom-agent`; console
 * `ipmitool-socat`, `ipmitool-shellinabox`; inspect `inspector`; network `flat`, `neutron`;
 * raid and rescue `agent`; storage `cinder`, `external`; vendor `ipmitool`.
 */
import type { HardwareType } from '../hardware-type.ts';

export const IPMI_HARDWARE = 'ipmi';

export const IPMI_HARDWARE_TYPE: HardwareType = {
  name: IPMI_HARDWARE,
  className: 'IPMIHardware',
  supported: {
    bios: ['no-bios'],
    boot: ['pxe'],
    console: ['no-console'],
    deploy: ['ramdisk'],
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
