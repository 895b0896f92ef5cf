/** The bare metal store: the public surface of src/baremetal/db. */
export type { ConductorRegistration } from './conductor-store.ts';
export type { StoreContext, StoreOptions } from './context.ts';
export * from './errors.ts';
export type { ConductorHardwareInterface, HardwareInterface } from './hardware-interfaces.ts';
export { isIntLike, isUuidLike, isValidMac, normalizeMac } from './identity.ts';
export type { NodeFilters } from './node-filters.ts';
export { NODE_COLUMNS, type NodeListOptions } from './node-reads.ts';
export { LATEST_VERSIONS } from './object-rows.ts';
export { NEW_MODELS, OBJECT_TABLES, VERSIONED_TABLES } from './object-tables.ts';
export type { PageOptions, SortDir } from './pagination.ts';
export type { PortFilters, PortListOptions } from './port-store.ts';
export type { PortgroupFilters, PortgroupListOptions } from './portgroup-store.ts';
export { type PrepareOptions, prepareBaremetalDatabase } from './prepare-database.ts';
export { ABORTED_POWER_OPERATION } from './reservations.ts';
export { type BaremetalStore, createBaremetalStore } from './store.ts';
export type { BaremetalTables } from './tables.ts';
export { MAX_TRAITS_PER_NODE } from './trait-store.ts';
