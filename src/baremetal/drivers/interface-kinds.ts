/**
 * The kinds of hardware interface a bare metal node has, as Ironic 21.4.4 names them
 * (ironic/drivers/base.py). `firmware` came after 21.x and is not one of them.
 */

/** Interfaces a hardware type must implement for real. */
export const CORE_INTERFACES = ['boot', 'deploy', 'management', 'network', 'power'] as const;
/** Interfaces that may be a no-op (`no-*`) implementation. */
export const OPTIONAL_INTERFACES = [
  'bios',
  'console',
  'inspect',
  'raid',
  'rescue',
  'storage',
] as const;

/** Every kind but vendor, in the order node validation reports them. */
export const VALIDATED_INTERFACES = [...CORE_INTERFACES, ...OPTIONAL_INTERFACES] as const;

/** Every kind, in the real `all_interfaces` order. */
export const INTERFACE_KINDS = [...VALIDATED_INTERFACES, 'vendor'] as const;
export type InterfaceKind = (typeof INTERFACE_KINDS)[number];

export function isInterfaceKind(value: string): value is InterfaceKind {
  return (INTERFACE_KINDS as readonly string[]).includes(value);
}

/** The node field holding a kind's implementation: `boot_interface`. */
export function interfaceField(kind: InterfaceKind): `${InterfaceKind}_interface` {
  return `${kind}_interface`;
}
