/**
 * The bodies of /v1/drivers, /v1/drivers/{name} and /v1/drivers/{name}/properties, per
 * microversion, as the real Ironic 21.4.4 builds them (api/controllers/v1/driver.py):
 * `name`, `hosts` and `links` always; the `properties` links from 1.14; `type` (always
 * "dynamic": classic drivers are gone) from 1.30, with `default_<kind>_interface` and
 * `enabled_<kind>_interfaces` for every kind in the detailed forms (the list with
 * `detail=true`, and show); storage from 1.33, rescue from 1.38, bios from 1.40.
 *
 * The real service lists `hosts` and the enabled implementations in Python set order,
 * which changes from one API process start to the next; Baton lists hosts sorted and
 * implementations in configuration order.
 */

import type { KindInterfaces } from '../drivers/enabled-interfaces.ts';
import { INTERFACE_KINDS, type InterfaceKind } from '../drivers/interface-kinds.ts';
import type { BaremetalFeature, GateCheck } from './features.ts';

/** A hardware type as the live conductors register it. */
export interface HardwareTypeView {
  readonly name: string;
  readonly hosts: readonly string[];
  readonly interfaces: Readonly<Record<InterfaceKind, KindInterfaces>>;
}

export interface DriverViewContext {
  /** The public root, `http://host:port`, without a trailing slash. */
  readonly baseUrl: string;
  readonly allows: GateCheck;
}

/** Kinds shown in driver bodies only from a later gate than dynamic drivers. */
const KIND_GATES: Partial<Record<InterfaceKind, BaremetalFeature>> = {
  storage: 'storageInterface',
  rescue: 'rescue',
  bios: 'biosInterface',
};

function links(baseUrl: string, path: string) {
  return [
    { href: `${baseUrl}/v1/${path}`, rel: 'self' },
    { href: `${baseUrl}/${path}`, rel: 'bookmark' },
  ];
}

/** One driver's body; `detail` adds the interfaces (always on for show). */
export function driverBody(
  driver: HardwareTypeView,
  context: DriverViewContext,
  detail: boolean,
): Record<string, unknown> {
  const { allows, baseUrl } = context;
  const body: Record<string, unknown> = {
    name: driver.name,
    hosts: [...driver.hosts].sort(),
    links: links(baseUrl, `drivers/${driver.name}`),
  };
  if (allows('statesAndPropertiesLinks')) {
    body.properties = links(baseUrl, `drivers/${driver.name}/properties`);
  }
  if (!allows('dynamicDrivers')) return body;
  body.type = 'dynamic';
  if (!detail) return body;
  for (const kind of INTERFACE_KINDS) {
    const gate = KIND_GATES[kind];
    if (gate !== undefined && !allows(gate)) continue;
    body[`default_${kind}_interface`] = driver.interfaces[kind].default;
    body[`enabled_${kind}_interfaces`] = [...driver.interfaces[kind].enabled];
  }
  return body;
}

/** GET /v1/drivers: every hardware type some live conductor has. */
export function driverListBody(
  drivers: readonly HardwareTypeView[],
  context: DriverViewContext,
  detail: boolean,
): { drivers: Record<string, unknown>[] } {
  return { drivers: drivers.map((driver) => driverBody(driver, context, detail)) };
}

/** Every field a driver body can have: what `fields` may name (1.77). */
export const DRIVER_FIELDS: readonly string[] = [
  'name',
  'hosts',
  'links',
  'properties',
  'type',
  ...INTERFACE_KINDS.flatMap((kind) => [`default_${kind}_interface`, `enabled_${kind}_interfaces`]),
];
