/**
 * The `fake-hardware` hardware type of Ironic 21.4.4 (ironic/drivers/fake_hardware.py and
 * modules/fake.py): what it supports, what its fake interfaces report, and how they answer.
 * It pretends: power changes are recorded, deploys succeed at once, the only boot device is
 * PXE. The real service special-cases it to accept any enabled implementation of any kind;
 * the supported lists only decide the defaults.
 */
import type { InterfaceKind } from './interface-kinds.ts';

export const FAKE_HARDWARE = 'fake-hardware';

/**
 * Implementations by entry-point name, most preferred first (the real `supported_*`
 * lists; the first enabled one is a node's default).
 */
export const FAKE_HARDWARE_SUPPORTED: Readonly<Record<InterfaceKind, readonly string[]>> = {
  bios: ['fake', 'no-bios'],
  boot: ['fake', 'ipxe', 'pxe'],
  console: ['fake', 'no-console'],
  deploy: ['fake', 'direct', 'ansible', 'ramdisk', 'anaconda', 'custom-agent'],
  inspect: ['fake', 'inspector', 'no-inspect'],
  management: ['fake'],
  network: ['flat', 'neutron', 'noop'],
  power: ['fake'],
  raid: ['fake', 'no-raid', 'agent'],
  rescue: ['fake', 'no-rescue', 'agent'],
  storage: ['fake', 'noop', 'cinder', 'external'],
  vendor: ['fake', 'no-vendor'],
};

/**
 * Driver properties each implementation adds to `GET /v1/drivers/{name}/properties` (the
 * union over the hardware type's default interfaces); the ones not listed add none.
 */
export const IMPLEMENTATION_PROPERTIES: Readonly<
  Partial<Record<InterfaceKind, Readonly<Record<string, Readonly<Record<string, string>>>>>>
> = {
  vendor: {
    fake: { B1: 'B1 description. Required.', B2: 'B2 description. Required.' },
  },
};

/** What the fake management interface offers and reports, whatever was set. */
export const FAKE_SUPPORTED_BOOT_DEVICES: readonly string[] = ['pxe'];
export const FAKE_BOOT_DEVICE = { boot_device: 'pxe', persistent: false } as const;

/** Why the fake management interface refuses a boot device (the real 400 text). */
export function bootDeviceRefusal(device: string): string | undefined {
  return FAKE_SUPPORTED_BOOT_DEVICES.includes(device)
    ? undefined
    : `Invalid boot device ${device} specified.`;
}

/** The power states the fake power interface supports (`get_supported_power_states`). */
export const FAKE_SUPPORTED_POWER_STATES: readonly string[] = [
  'power on',
  'power off',
  'rebooting',
  'soft rebooting',
  'soft power off',
];

/** The power state a node is left in after a power request (observed on the real one). */
export function powerStateAfter(target: string): 'power on' | 'power off' | undefined {
  switch (target) {
    case 'power on':
    case 'rebooting':
    case 'soft rebooting':
      return 'power on';
    case 'power off':
    case 'soft power off':
      return 'power off';
    default:
      return undefined;
  }
}

/**
 * Whether an implementation passes `validate` on a fake-hardware node: the fake ones and the
 * `noop` network and storage do; the `no-*` ones fail with UnsupportedDriverExtension.
 */
export function passesValidation(implementation: string): boolean {
  return !implementation.startsWith('no-');
}

/** The real UnsupportedDriverExtension text. */
export function unsupportedExtensionMessage(driver: string, kind: InterfaceKind): string {
  return `Driver ${driver} does not support ${kind} (disabled or not implemented).`;
}
