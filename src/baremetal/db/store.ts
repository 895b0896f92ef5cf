/**
 * The bare metal store: every read and write of the bare metal tables, grouped by what they
 * concern, bound to one database and one set of write targets (the caps in force). The API
 * tier and the conductor each build one in their composition root.
 */
import type { Database } from '../../db/index.ts';
import * as allocations from './allocation-store.ts';
import * as bios from './bios-store.ts';
import * as chassis from './chassis-store.ts';
import * as conductors from './conductor-store.ts';
import { type StoreContext, type StoreOptions, storeContext } from './context.ts';
import * as templates from './deploy-template-store.ts';
import * as hardware from './hardware-interfaces.ts';
import * as history from './history-store.ts';
import * as inventories from './inventory-store.ts';
import * as nodeReads from './node-reads.ts';
import * as nodeWrites from './node-writes.ts';
import * as ports from './port-store.ts';
import * as portgroups from './portgroup-store.ts';
import * as reservations from './reservations.ts';
import type { BaremetalTables } from './tables.ts';
import * as traits from './trait-store.ts';
import * as volumes from './volume-store.ts';

/** Binds each function's leading StoreContext argument. */
function bind<A extends unknown[], R>(ctx: StoreContext, fn: (ctx: StoreContext, ...args: A) => R) {
  return (...args: A): R => fn(ctx, ...args);
}

export function createBaremetalStore(database: Database<BaremetalTables>, options: StoreOptions) {
  const ctx = storeContext(database, options);
  return {
    context: ctx,
    nodes: {
      create: bind(ctx, nodeWrites.createNode),
      /** By integer id or UUID. */
      get: bind(ctx, nodeReads.getNode),
      getByName: (name: string) => nodeReads.getNodeWhere(ctx, 'name', name),
      getByInstance: bind(ctx, nodeReads.getNodeByInstance),
      getByPortAddresses: bind(ctx, nodeReads.getNodeByPortAddresses),
      list: bind(ctx, nodeReads.listNodes),
      save: bind(ctx, nodeWrites.saveNode),
      destroy: bind(ctx, nodeWrites.destroyNode),
      touchProvisioning: bind(ctx, nodeWrites.touchNodeProvisioning),
      countByProvisionState: bind(ctx, nodeReads.countNodesByProvisionState),
      countForDashboard: bind(ctx, nodeReads.countNodesByStateForDashboard),
      countByShard: bind(ctx, nodeReads.countNodesByShard),
    },
    inventories: {
      get: bind(ctx, inventories.getNodeInventory),
      set: bind(ctx, inventories.setNodeInventory),
    },
    biosSettings: {
      list: bind(ctx, bios.listBiosSettings),
      get: bind(ctx, bios.getBiosSetting),
      create: bind(ctx, bios.createBiosSettings),
      update: bind(ctx, bios.updateBiosSettings),
      delete: bind(ctx, bios.deleteBiosSettings),
    },
    nodeHistory: {
      create: bind(ctx, history.createNodeHistory),
      getByUuid: bind(ctx, history.getNodeHistoryByUuid),
      list: bind(ctx, history.listNodeHistory),
      delete: bind(ctx, history.deleteNodeHistory),
      excessForConductor: bind(ctx, history.excessNodeHistoryForConductor),
    },
    reservations: {
      reserve: bind(ctx, reservations.reserveNode),
      release: bind(ctx, reservations.releaseNode),
      clearForHosts: bind(ctx, reservations.clearNodeReservations),
      clearTargetPowerState: bind(ctx, reservations.clearNodeTargetPowerState),
    },
    traits: {
      get: bind(ctx, traits.getNodeTraits),
      set: bind(ctx, traits.setNodeTraits),
      unset: bind(ctx, traits.unsetNodeTraits),
      add: bind(ctx, traits.addNodeTrait),
      remove: bind(ctx, traits.removeNodeTrait),
      exists: bind(ctx, traits.nodeTraitExists),
    },
    chassis: {
      create: bind(ctx, chassis.createChassis),
      get: bind(ctx, chassis.getChassis),
      list: bind(ctx, chassis.listChassis),
      save: bind(ctx, chassis.saveChassis),
      destroy: bind(ctx, chassis.destroyChassis),
    },
    ports: {
      create: bind(ctx, ports.createPort),
      /** By integer id, UUID or MAC address. */
      get: bind(ctx, ports.getPort),
      getByAddress: bind(ctx, ports.getPortByAddress),
      getByName: bind(ctx, ports.getPortByName),
      list: bind(ctx, ports.listPorts),
      save: bind(ctx, ports.savePort),
      destroy: bind(ctx, ports.destroyPort),
    },
    portgroups: {
      create: bind(ctx, portgroups.createPortgroup),
      /** By integer id, UUID, MAC address or name. */
      get: bind(ctx, portgroups.getPortgroup),
      getByAddress: bind(ctx, portgroups.getPortgroupByAddress),
      getByName: bind(ctx, portgroups.getPortgroupByName),
      list: bind(ctx, portgroups.listPortgroups),
      save: bind(ctx, portgroups.savePortgroup),
      destroy: bind(ctx, portgroups.destroyPortgroup),
    },
    allocations: {
      /** By integer id or UUID. */
      get: bind(ctx, allocations.getAllocation),
      getByName: bind(ctx, allocations.getAllocationByName),
      list: bind(ctx, allocations.listAllocations),
      create: bind(ctx, allocations.createAllocation),
      save: bind(ctx, allocations.saveAllocation),
      destroy: bind(ctx, allocations.destroyAllocation),
      takeOver: bind(ctx, allocations.takeOverAllocation),
    },
    deployTemplates: {
      getById: bind(ctx, templates.getDeployTemplateById),
      getByUuid: bind(ctx, templates.getDeployTemplateByUuid),
      getByName: bind(ctx, templates.getDeployTemplateByName),
      list: bind(ctx, templates.listDeployTemplates),
      listByNames: bind(ctx, templates.listDeployTemplatesByNames),
      create: bind(ctx, templates.createDeployTemplate),
      save: bind(ctx, templates.saveDeployTemplate),
      destroy: bind(ctx, templates.destroyDeployTemplate),
    },
    volumeConnectors: {
      /** By integer id or UUID. */
      get: bind(ctx, volumes.getVolumeConnector),
      list: bind(ctx, volumes.listVolumeConnectors),
      create: bind(ctx, volumes.createVolumeConnector),
      save: bind(ctx, volumes.saveVolumeConnector),
      destroy: bind(ctx, volumes.destroyVolumeConnector),
    },
    volumeTargets: {
      /** By integer id or UUID. */
      get: bind(ctx, volumes.getVolumeTarget),
      list: bind(ctx, volumes.listVolumeTargets),
      create: bind(ctx, volumes.createVolumeTarget),
      save: bind(ctx, volumes.saveVolumeTarget),
      destroy: bind(ctx, volumes.destroyVolumeTarget),
    },
    conductors: {
      register: bind(ctx, conductors.registerConductor),
      get: bind(ctx, conductors.getConductor),
      list: bind(ctx, conductors.listConductors),
      touch: bind(ctx, conductors.touchConductor),
      unregister: bind(ctx, conductors.unregisterConductor),
      active: bind(ctx, conductors.activeConductors),
      offline: bind(ctx, conductors.offlineConductors),
      registerHardwareInterfaces: bind(ctx, hardware.registerHardwareInterfaces),
      unregisterHardwareInterfaces: bind(ctx, hardware.unregisterHardwareInterfaces),
      listHardwareInterfaces: bind(ctx, hardware.listConductorHardwareInterfaces),
      listHardwareTypeInterfaces: bind(ctx, hardware.listHardwareTypeInterfaces),
      activeHardwareTypes: bind(ctx, hardware.activeHardwareTypes),
    },
  };
}

export type BaremetalStore = ReturnType<typeof createBaremetalStore>;
