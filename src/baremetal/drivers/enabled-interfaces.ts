/**
 * Which interface implementations a deployment enables (`[DEFAULT] enabled_*_interfaces`), and
 * the rows a conductor registers from them (conductor_hardware_interfaces), as the API reads
 * them back for the driver bodies.
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

/** One row of the conductor_hardware_interfaces table, as a conductor registers it. */
export interface HardwareInterfaceRow {
  readonly hardwareType: string;
  readonly interfaceType: InterfaceKind;
  readonly interfaceName: string;
  readonly default: boolean;
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
