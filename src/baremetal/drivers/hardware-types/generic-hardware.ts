/**
 * What the real base classes give a hardware type that does not say otherwise, to build
 * declarations from: AbstractHardwareType's optional kinds (the no-op implementations only)
 * and GenericHardware's lists (iPXE/PXE boot, the agent deploys, inspector, flat/neutron
 * networking...). Both name implementations Baton does not have yet: a name without a module
 * cannot be enabled, so it never becomes a default.
 */
import type { SupportedInterfaces } from '../hardware-type.ts';

type Optional =
  | 'bios'
  | 'console'
  | 'inspect'
  | 'network'
  | 'raid'
  | 'rescue'
  | 'storage'
  | 'vendor';

/** AbstractHardwareType: the optional kinds, each its no-op implementation. */
export const ABSTRACT_OPTIONAL: Pick<SupportedInterfaces, Optional> = {
  bios: ['no-bios'],
  console: ['no-console'],
  inspect: ['no-inspect'],
  network: ['noop'],
  raid: ['no-raid'],
  rescue: ['no-rescue'],
  storage: ['noop'],
  vendor: ['no-vendor'],
};

/** GenericHardware: every kind but power and management, which each type names itself. */
export const GENERIC_HARDWARE: Omit<SupportedInterfaces, 'power' | 'management'> = {
  ...ABSTRACT_OPTIONAL,
  boot: ['ipxe', 'pxe'],
  deploy: ['direct', 'ansible', 'ramdisk', 'anaconda', 'custom-agent'],
  inspect: ['inspector', 'no-inspect'],
  network: ['flat', 'neutron', 'noop'],
  // The agent's RAID and rescue need ramdisk features not shipped by default: no-op first.
  raid: ['no-raid', 'agent'],
  rescue: ['no-rescue', 'agent'],
  storage: ['noop', 'cinder', 'external'],
};
