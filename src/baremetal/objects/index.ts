/** The bare metal service's versioned objects (Ironic's, at the versions of Ironic 21.4). */
export { Allocation, type AllocationObject, AllocationState } from './allocation.ts';
export { BIOS_REGISTRY_FIELDS, BIOSSetting, type BIOSSettingObject } from './bios-setting.ts';
export { Chassis, type ChassisObject } from './chassis.ts';
export { Conductor, type ConductorObject } from './conductor.ts';
export { DeployTemplate, type DeployTemplateObject } from './deploy-template.ts';
export { IRONIC_NAMESPACE } from './namespace.ts';
export { Node, type NodeObject } from './node.ts';
export { NodeHistory, type NodeHistoryObject } from './node-history.ts';
export { NodeInventory, type NodeInventoryObject } from './node-inventory.ts';
export { Port, type PortObject } from './port.ts';
export { Portgroup, type PortgroupObject } from './portgroup.ts';
export { BAREMETAL_OBJECT_TYPES, BAREMETAL_OBJECTS, latestObjectVersions } from './registry.ts';
export { Trait, TraitList, type TraitListObject, type TraitObject, traitNames } from './trait.ts';
export { VolumeConnector, type VolumeConnectorObject } from './volume-connector.ts';
export { VolumeTarget, type VolumeTargetObject } from './volume-target.ts';
