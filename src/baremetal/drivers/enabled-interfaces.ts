/**
 * Which interface implementations a deployment enables (`[DEFAULT] enabled_*_interfaces`),
 * the default a node gets for each kind, and the real refusals of an implementation that is
 * not enabled.
 *
 * `STANDALONE_ENABLED_INTERFACES` is the setup Baton runs by default and the one the real
 * Ironic is started with for comparisons (test/support/real-ironic.ts uses this very table):
 * every kind `fake`, with network and storage `noop` and console `no-console` instead, and
 * the `no-*` variants enabled beside the fake ones.
 */
import { INTERFACE_KINDS, type InterfaceKind } from './interface-kinds.ts';

export type EnabledInterfaces = Readonly<Record<InterfaceKind, readonly string[]>>;

export const STANDALONE_ENABLED_INTERFACES: EnabledInterfaces = {
  boot: ['fake'],
  deploy: ['fake'],
  management: ['fake'],
  network: ['noop'],
  power: ['fake'],
  bios: ['fake', 'no-bios'],
  console: ['no-console'],
  inspect: ['fake', 'no-inspect'],
  raid: ['fake', 'no-raid'],
  rescue: ['fake', 'no-rescue'],
  storage: ['noop'],
  vendor: ['fake', 'no-vendor'],
};

/**
 * A kind's default: the operator's `default_<kind>_interface` when set, else the hardware
 * type's most preferred implementation that is enabled; undefined when none is.
 */
export function defaultImplementation(
  supported: readonly string[],
  enabled: readonly string[],
  configured?: string,
): string | undefined {
  if (configured !== undefined) return configured;
  return supported.find((name) => enabled.includes(name));
}

/** The defaults of every kind for a hardware type. */
export function defaultImplementations(
  supported: Readonly<Record<InterfaceKind, readonly string[]>>,
  enabled: EnabledInterfaces,
): Partial<Record<InterfaceKind, string>> {
  const defaults: Partial<Record<InterfaceKind, string>> = {};
  for (const kind of INTERFACE_KINDS) {
    const name = defaultImplementation(supported[kind], enabled[kind]);
    if (name !== undefined) defaults[kind] = name;
  }
  return defaults;
}

/** Python's repr of a list of strings, as the real messages print it: `['fake', 'no-bios']`. */
export function pythonListRepr(items: readonly string[]): string {
  const quote = (text: string) =>
    text.includes("'") && !text.includes('"')
      ? `"${text}"`
      : `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
  return `[${items.map(quote).join(', ')}]`;
}

/** The real InterfaceNotFoundInEntrypoint text (400 on node create and update). */
export function interfaceNotFoundMessage(
  kind: InterfaceKind,
  name: string,
  enabled: readonly string[],
): string {
  return `Could not find the following interface in the 'ironic.hardware.interfaces.${kind}' entrypoint: ${name}. Valid interfaces are ${pythonListRepr(enabled)}.`;
}

/** The real NoValidDefaultForInterface text. */
export function noDefaultMessage(driver: string, kind: InterfaceKind, node?: string): string {
  const nodeInfo = node === undefined ? '' : ` node ${node} with`;
  return `For${nodeInfo} hardware type '${driver}', no default value found for ${kind} interface could be determined. Please ensure the interfaces are enabled.`;
}

export type NodeInterfaces = Record<`${InterfaceKind}_interface`, string>;

/**
 * A node's implementations on create or driver change (the real
 * `check_and_update_node_interfaces` for a hardware type that accepts any enabled
 * implementation): each requested one must be enabled, the others get their default.
 */
export function resolveNodeInterfaces(
  driver: string,
  requested: Partial<Record<`${InterfaceKind}_interface`, string | null>>,
  supported: Readonly<Record<InterfaceKind, readonly string[]>>,
  enabled: EnabledInterfaces,
  node?: string,
): { interfaces: NodeInterfaces } | { error: string } {
  const interfaces: Partial<NodeInterfaces> = {};
  for (const kind of INTERFACE_KINDS) {
    const field = `${kind}_interface` as const;
    const wanted = requested[field];
    if (wanted !== undefined && wanted !== null) {
      if (!enabled[kind].includes(wanted)) {
        return { error: interfaceNotFoundMessage(kind, wanted, enabled[kind]) };
      }
      interfaces[field] = wanted;
      continue;
    }
    const fallback = defaultImplementation(supported[kind], enabled[kind]);
    if (fallback === undefined) return { error: noDefaultMessage(driver, kind, node) };
    interfaces[field] = fallback;
  }
  return { interfaces: interfaces as NodeInterfaces };
}

/** One row of the conductor_hardware_interfaces table, as a conductor registers it. */
export interface HardwareInterfaceRow {
  readonly hardwareType: string;
  readonly interfaceType: InterfaceKind;
  readonly interfaceName: string;
  readonly default: boolean;
}

/**
 * What a conductor registers for a hardware type at start: every enabled implementation the
 * type supports, the kind's default flagged (the real
 * `_register_and_validate_hardware_interfaces`).
 */
export function hardwareInterfaceRows(
  hardwareType: string,
  supported: Readonly<Record<InterfaceKind, readonly string[]>>,
  enabled: EnabledInterfaces,
): HardwareInterfaceRow[] {
  return INTERFACE_KINDS.flatMap((interfaceType) => {
    const fallback = defaultImplementation(supported[interfaceType], enabled[interfaceType]);
    return enabled[interfaceType]
      .filter((name) => supported[interfaceType].includes(name))
      .map((interfaceName) => ({
        hardwareType,
        interfaceType,
        interfaceName,
        default: interfaceName === fallback,
      }));
  });
}

export interface KindInterfaces {
  readonly default: string | null;
  readonly enabled: readonly string[];
}

/** A hardware type's interfaces as the API reads them back from the registered rows. */
export function interfacesFromRows(
  hardwareType: string,
  rows: readonly HardwareInterfaceRow[],
): Record<InterfaceKind, KindInterfaces> {
  const out = {} as Record<InterfaceKind, { default: string | null; enabled: string[] }>;
  for (const kind of INTERFACE_KINDS) out[kind] = { default: null, enabled: [] };
  for (const row of rows) {
    if (row.hardwareType !== hardwareType) continue;
    const kind = out[row.interfaceType];
    if (!kind.enabled.includes(row.interfaceName)) kind.enabled.push(row.interfaceName);
    if (row.default) kind.default = row.interfaceName;
  }
  return out;
}
