/**
 * A hardware type (Ironic's AbstractHardwareType): a family of machines and, for each
 * interface kind, the implementations that work with it, most preferred first. The first one
 * enabled is a node's default for the kind (unless `[DEFAULT] default_<kind>_interface` names
 * another); a node may use any of them that is enabled, and no other.
 *
 * A declaration is data. A new hardware type is a declaration here plus the implementation
 * modules it names that Baton does not have yet (docs/baremetal.md, "Adding a hardware type").
 */
import type { InterfaceKind } from './interface-kinds.ts';

/** Implementation names by kind, most preferred first (the real `supported_<kind>_interfaces`). */
export type SupportedInterfaces = Readonly<Record<InterfaceKind, readonly string[]>>;

export interface HardwareType {
  /** The entry-point name: a node's `driver`, `enabled_hardware_types`. */
  readonly name: string;
  /** The real class name, which IncompatibleInterface prints: `IPMIHardware`. */
  readonly className: string;
  readonly supported: SupportedInterfaces;
  /**
   * Accept any enabled implementation of every kind, the lists above only choosing defaults:
   * the real service lets `fake-hardware` (and only it) be combined with anything, for tests.
   */
  readonly acceptsAnyEnabled?: boolean;
}
