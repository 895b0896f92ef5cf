/**
 * Every hardware type and interface implementation a Baton process knows (what the real
 * service finds through its `ironic.hardware.*` entry points), listed explicitly: adding one
 * is adding its module to a list here. Which of them a conductor offers is the configuration's
 * choice (driver-factory.ts).
 */
import { FAKE_IMPLEMENTATIONS } from './fake/index.ts';
import type { HardwareType } from './hardware-type.ts';
import { FAKE_HARDWARE_TYPE } from './hardware-types/fake-hardware.ts';
import { IPMI_HARDWARE_TYPE } from './hardware-types/ipmi-hardware.ts';
import type { AnyImplementation, Implementation } from './implementation.ts';
import { INTERFACE_KINDS, type InterfaceKind } from './interface-kinds.ts';
import { IPMITOOL_IMPLEMENTATIONS } from './ipmitool/index.ts';
import { NOOP_IMPLEMENTATIONS } from './noop/index.ts';
import { pxeBoot } from './pxe/pxe-boot.ts';
import { ramdiskDeploy } from './ramdisk/ramdisk-deploy.ts';

export interface DriverCatalog {
  readonly hardwareTypes: readonly HardwareType[];
  readonly implementations: readonly AnyImplementation[];
}

export const BUILTIN_DRIVERS: DriverCatalog = {
  hardwareTypes: [FAKE_HARDWARE_TYPE, IPMI_HARDWARE_TYPE],
  implementations: [
    ...FAKE_IMPLEMENTATIONS,
    ...NOOP_IMPLEMENTATIONS,
    ...IPMITOOL_IMPLEMENTATIONS,
    pxeBoot,
    ramdiskDeploy,
  ],
};

export function findHardwareType(catalog: DriverCatalog, name: string): HardwareType | undefined {
  return catalog.hardwareTypes.find((type) => type.name === name);
}

export function findImplementation<K extends InterfaceKind>(
  catalog: DriverCatalog,
  kind: K,
  name: string,
): Implementation<K> | undefined {
  const found = catalog.implementations.find((i) => i.kind === kind && i.name === name);
  return found as Implementation<K> | undefined;
}

/** The names of a kind's implementations, in catalogue order. */
export function implementationNames(catalog: DriverCatalog, kind: InterfaceKind): string[] {
  return catalog.implementations.filter((i) => i.kind === kind).map((i) => i.name);
}

/**
 * GET /v1/drivers/{name}/properties: the union of what the hardware type's default
 * implementations document (the real `AbstractHardwareType.get_properties`).
 */
export function defaultImplementationProperties(
  catalog: DriverCatalog,
  defaults: Partial<Record<InterfaceKind, string | null>>,
): Record<string, string> {
  const properties: Record<string, string> = {};
  for (const kind of INTERFACE_KINDS) {
    const name = defaults[kind];
    if (name === undefined || name === null) continue;
    Object.assign(properties, findImplementation(catalog, kind, name)?.properties ?? {});
  }
  return properties;
}

/** Checks a catalogue has no two hardware types or implementations of a kind by one name. */
export function catalogDuplicates(catalog: DriverCatalog): string[] {
  const seen = new Set<string>();
  const duplicates: string[] = [];
  const names = [
    ...catalog.hardwareTypes.map((type) => `hardware type ${type.name}`),
    ...catalog.implementations.map((i) => `${i.kind} interface ${i.name}`),
  ];
  for (const name of names) {
    if (seen.has(name)) duplicates.push(name);
    seen.add(name);
  }
  return duplicates;
}
