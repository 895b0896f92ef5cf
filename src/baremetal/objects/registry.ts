/**
 * The object types of the bare metal service and its one registry. A process reads
 * primitives through this registry; an older release's process is a registry built from that
 * release's types.
 */
import { ObjectRegistry, type ObjectType } from '../../objects/index.ts';
import { Allocation } from './allocation.ts';
import { BIOSSetting } from './bios-setting.ts';
import { Chassis } from './chassis.ts';
import { Conductor } from './conductor.ts';
import { DeployTemplate } from './deploy-template.ts';
import { IRONIC_NAMESPACE } from './namespace.ts';
import { Node } from './node.ts';
import { NodeHistory } from './node-history.ts';
import { NodeInventory } from './node-inventory.ts';
import { Port } from './port.ts';
import { Portgroup } from './portgroup.ts';
import { Trait, TraitList } from './trait.ts';
import { VolumeConnector } from './volume-connector.ts';
import { VolumeTarget } from './volume-target.ts';

export const BAREMETAL_OBJECT_TYPES: readonly ObjectType[] = [
  Node,
  Port,
  Portgroup,
  Chassis,
  Conductor,
  Trait,
  TraitList,
  NodeInventory,
  Allocation,
  DeployTemplate,
  BIOSSetting,
  NodeHistory,
  VolumeConnector,
  VolumeTarget,
];

export const BAREMETAL_OBJECTS = new ObjectRegistry(IRONIC_NAMESPACE, BAREMETAL_OBJECT_TYPES);

/** Each type's current version, by name (what the release mapping's `master` lists). */
export function latestObjectVersions(
  types: readonly ObjectType[] = BAREMETAL_OBJECT_TYPES,
): Record<string, string> {
  return Object.fromEntries(types.map((type) => [type.name, type.version]));
}
