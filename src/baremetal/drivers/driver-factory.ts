/**
 * What a conductor offers and how a node's driver is put together (Ironic's
 * `common/driver_factory.py`): the enabled hardware types and implementations are loaded once
 * at start, from the catalogue and `[DEFAULT] enabled_hardware_types`,
 * `enabled_<kind>_interfaces` and `default_<kind>_interface`; a node's interfaces are checked
 * and defaulted by the real rules; a task's driver is composed from the node's hardware type
 * and interface fields. Nothing here knows one hardware type from another.
 */
import { interfaceEntrypoint } from '../common/driver-errors.ts';
import {
  DriverNotFoundError,
  DriverNotFoundInEntrypointError,
  IncompatibleInterfaceError,
  InterfaceNotFoundInEntrypointError,
  NoDriversLoadedError,
  NoValidDefaultForInterfaceError,
} from '../common/errors.ts';
import type { NodeObject } from '../objects/index.ts';
import type { HardwareInterface } from './base-interface.ts';
import { type DriverCatalog, findHardwareType, findImplementation } from './driver-catalog.ts';
import type { EnabledInterfaces, HardwareInterfaceRow } from './enabled-interfaces.ts';
import type { HardwareType } from './hardware-type.ts';
import type { AnyImplementation, DriverOptions } from './implementation.ts';
import { INTERFACE_KINDS, type InterfaceKind, interfaceField } from './interface-kinds.ts';
import type { InterfaceTypes } from './interfaces/index.ts';
import type { NodeDriver } from './node-driver.ts';

/** `[DEFAULT] default_<kind>_interface`, for the kinds that have one set. */
export type DefaultInterfaces = Readonly<Partial<Record<InterfaceKind, string>>>;

export interface DriverSettings {
  readonly enabledHardwareTypes: readonly string[];
  readonly enabledInterfaces: EnabledInterfaces;
  readonly defaultInterfaces: DefaultInterfaces;
}

/** An option's list without blanks and repeats (the real one warns about both). */
const cleaned = (names: readonly string[]) => [...new Set(names.filter((name) => name !== ''))];

/** An enabled implementation: its module and the object made from it. */
interface Loaded {
  readonly implementation: AnyImplementation;
  readonly instance: HardwareInterface;
}

export class DriverFactory {
  /** The enabled hardware types, in the option's order. */
  readonly hardwareTypes: readonly HardwareType[];
  readonly #loaded: ReadonlyMap<InterfaceKind, ReadonlyMap<string, Loaded>>;
  readonly #defaults: DefaultInterfaces;

  private constructor(
    hardwareTypes: readonly HardwareType[],
    loaded: ReadonlyMap<InterfaceKind, ReadonlyMap<string, Loaded>>,
    defaults: DefaultInterfaces,
  ) {
    this.hardwareTypes = hardwareTypes;
    this.#loaded = loaded;
    this.#defaults = defaults;
  }

  /**
   * Loads what the settings enable, as the real conductor does on start: an unknown hardware
   * type or implementation is DriverNotFoundInEntrypoint, no hardware type NoDriversLoaded. A
   * kind whose list is empty enables the first supported implementation of each enabled type.
   */
  static load(
    catalog: DriverCatalog,
    settings: DriverSettings,
    options: DriverOptions,
    host: string,
  ): DriverFactory {
    const typeNames = cleaned(settings.enabledHardwareTypes);
    const unknownTypes = typeNames.filter((name) => !findHardwareType(catalog, name));
    if (unknownTypes.length > 0) {
      throw new DriverNotFoundInEntrypointError(unknownTypes, 'ironic.hardware.types');
    }
    const types = typeNames.map((name) => findHardwareType(catalog, name) as HardwareType);
    if (types.length === 0) throw new NoDriversLoadedError(host);
    const loaded = new Map<InterfaceKind, Map<string, Loaded>>();
    for (const kind of INTERFACE_KINDS) {
      const configured = cleaned(settings.enabledInterfaces[kind]);
      const names =
        configured.length > 0
          ? configured
          : cleaned(types.map((type) => type.supported[kind][0] ?? ''));
      const missing = names.filter((name) => !findImplementation(catalog, kind, name));
      if (missing.length > 0) {
        throw new DriverNotFoundInEntrypointError(missing, interfaceEntrypoint(kind));
      }
      const instances = new Map<string, Loaded>();
      for (const name of names) {
        const implementation = findImplementation(catalog, kind, name) as AnyImplementation;
        instances.set(name, { implementation, instance: implementation.create(options) });
      }
      loaded.set(kind, instances);
    }
    return new DriverFactory(types, loaded, settings.defaultInterfaces);
  }

  /** The enabled implementations of a kind, in the option's order. */
  enabled(kind: InterfaceKind): string[] {
    return [...(this.#loaded.get(kind)?.keys() ?? [])];
  }

  /** An enabled hardware type (get_hardware_type): DriverNotFound otherwise. */
  hardwareType(name: string): HardwareType {
    const type = this.hardwareTypes.find((candidate) => candidate.name === name);
    if (type === undefined) throw new DriverNotFoundError(name);
    return type;
  }

  /**
   * The loaded implementation for a hardware type (get_interface): InterfaceNotFoundInEntrypoint
   * when it is not enabled, IncompatibleInterface when the type does not support it.
   */
  getInterface<K extends InterfaceKind>(
    type: HardwareType,
    kind: K,
    name: string,
  ): InterfaceTypes[K] {
    const loaded = this.#loaded.get(kind)?.get(name);
    if (loaded === undefined) {
      throw new InterfaceNotFoundInEntrypointError(kind, name, this.enabled(kind));
    }
    if (!type.acceptsAnyEnabled && !type.supported[kind].includes(name)) {
      throw new IncompatibleInterfaceError(kind, loaded.implementation.className, type.className);
    }
    return loaded.instance as InterfaceTypes[K];
  }

  /**
   * A kind's default for a hardware type (default_interface): `default_<kind>_interface` when
   * set (it must be enabled and supported), else the first supported implementation enabled.
   */
  defaultInterface(type: HardwareType, kind: InterfaceKind, node?: string): string {
    const configured = this.#defaults[kind];
    if (configured !== undefined) {
      try {
        this.getInterface(type, kind, configured);
      } catch (error) {
        if (error instanceof IncompatibleInterfaceError) {
          throw new NoValidDefaultForInterfaceError(kind, type.name, node);
        }
        throw error;
      }
      return configured;
    }
    const enabled = this.enabled(kind);
    const found = type.supported[kind].find((name) => enabled.includes(name));
    if (found === undefined) throw new NoValidDefaultForInterfaceError(kind, type.name, node);
    return found;
  }

  /**
   * check_and_update_node_interfaces, on create, on an interface or driver change and for each
   * task: every implementation the node names (in its fields or in instance_info) must be
   * usable, and an unnamed kind gets its default (set on the node, not saved). True when a
   * default was set.
   */
  checkAndUpdateNodeInterfaces(node: NodeObject): boolean {
    const type = this.hardwareType(String(node.peek('driver')));
    const uuid = node.peek('uuid') ?? undefined;
    let changed = false;
    for (const kind of INTERFACE_KINDS) {
      const field = interfaceField(kind);
      const override = instanceInfoInterface(node, kind);
      if (override !== undefined) this.getInterface(type, kind, override);
      const named = node.peek(field) ?? null;
      if (named !== null) this.getInterface(type, kind, named);
      if (override === undefined && named === null) {
        node.set(field, this.defaultInterface(type, kind, uuid));
        changed = true;
      }
    }
    return changed;
  }

  /** build_driver_for_task: the node's implementations, checked (and defaulted) first. */
  driverFor(node: NodeObject): NodeDriver {
    this.checkAndUpdateNodeInterfaces(node);
    const type = this.hardwareType(String(node.get('driver')));
    const driver: Record<string, unknown> = { hardwareType: type };
    for (const kind of INTERFACE_KINDS) {
      const name = instanceInfoInterface(node, kind) ?? String(node.get(interfaceField(kind)));
      driver[kind] = this.getInterface(type, kind, name);
    }
    return driver as NodeDriver;
  }

  /**
   * What a conductor registers for its hardware types
   * (`_register_and_validate_hardware_interfaces`): every enabled implementation each type
   * supports, the default flagged. A default that cannot be found is an error at start.
   */
  registrationRows(): HardwareInterfaceRow[] {
    return this.hardwareTypes.flatMap((type) =>
      INTERFACE_KINDS.flatMap((kind) => {
        const fallback = this.defaultInterface(type, kind);
        return this.enabled(kind)
          .filter((name) => type.supported[kind].includes(name))
          .map((name) => ({
            hardwareType: type.name,
            interfaceType: kind,
            interfaceName: name,
            default: name === fallback,
          }));
      }),
    );
  }
}

/** A per-instance choice in instance_info (`deploy_interface`), which wins over the field. */
function instanceInfoInterface(node: NodeObject, kind: InterfaceKind): string | undefined {
  const info = node.peek('instance_info') as Record<string, unknown> | null | undefined;
  const value = info?.[interfaceField(kind)];
  return value === undefined || value === null ? undefined : String(value);
}
