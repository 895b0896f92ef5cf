/**
 * The bare metal API's features table: every behaviour a microversion brought, by name, with
 * the version that introduced it (the real service's `MINOR_*` constants and `allow_*` checks
 * in ironic/api/controllers/v1/versions.py and utils.py). Handlers name a gate, never a
 * version literal.
 *
 * Written as a plain table of names to versions so that it plugs into the toolkit's
 * `defineFeatures(BAREMETAL_VERSIONS, BAREMETAL_FEATURE_VERSIONS)` (src/microversion) as it
 * is; `satisfies` makes a gate naming an unlisted version a type error already.
 */
import { defineFeatures, type Version } from '../../microversion/index.ts';
import { BAREMETAL_VERSIONS, type BaremetalVersion } from './versions.ts';

export const BAREMETAL_FEATURE_VERSIONS = {
  /** An `available` node shows `available` (null below: the old NOSTATE). */
  availableState: '1.2',
  /** Node `driver_internal_info`. */
  driverInternalInfo: '1.3',
  /** The `manageable` state; the `manage` and `provide` verbs. */
  manageableState: '1.4',
  /** Node `name`; nodes addressed by name. */
  nodeNames: '1.5',
  /** The `inspect` verb; node `inspection_started_at` and `inspection_finished_at`. */
  inspectState: '1.6',
  /** Node `clean_step`. */
  nodeCleanStep: '1.7',
  /** The `fields` query parameter (nodes, ports, port groups, chassis, conductors). */
  fieldsSelector: '1.8',
  /** `provision_state` filter on the node list. */
  provisionStateFilter: '1.9',
  /** Node names may hold every RFC 3986 unreserved character (a host name before). */
  unrestrictedNodeNames: '1.10',
  /** New nodes start in `enroll` (`available` before). */
  enrollState: '1.11',
  /** Node `raid_config` and `target_raid_config`; driver RAID logical disk properties. */
  raidConfig: '1.12',
  /** The `abort` verb. */
  abortVerb: '1.13',
  /** `states` link on nodes, `properties` link on drivers. */
  statesAndPropertiesLinks: '1.14',
  /** The `clean` verb (manual cleaning, with `clean_steps`). */
  manualClean: '1.15',
  /** `driver` filter on the node list. */
  driverFilter: '1.16',
  /** The `adopt` verb. */
  adoptVerb: '1.17',
  /** Port `internal_info`. */
  portInternalInfo: '1.18',
  /** Port `local_link_connection` and `pxe_enabled`. */
  portAdvancedNetFields: '1.19',
  /** Node `network_interface`. */
  networkInterface: '1.20',
  /** Node `resource_class` and its filter. */
  resourceClass: '1.21',
  /** Ramdisk `lookup` and `heartbeat` endpoints. */
  ramdiskEndpoints: '1.22',
  /** /v1/portgroups. */
  portgroups: '1.23',
  /** /nodes/{node}/portgroups, /portgroups/{pg}/ports, port `portgroup_uuid`. */
  portgroupSubresources: '1.24',
  /** A node's `chassis_uuid` may be removed by PATCH. */
  removeChassisUuid: '1.25',
  /** Port group `mode` and `properties`. */
  portgroupModeProperties: '1.26',
  /** Power targets `soft rebooting` and `soft power off`; the power `timeout`. */
  softPowerOff: '1.27',
  /** /nodes/{node}/vifs. */
  vifs: '1.28',
  /** PUT /nodes/{node}/management/inject_nmi. */
  injectNmi: '1.29',
  /** Driver `type`, the `detail` and `type` parameters, default_* and enabled_* interfaces. */
  dynamicDrivers: '1.30',
  /** Node boot, console, deploy, inspect, management, power, raid and vendor interfaces. */
  dynamicInterfaces: '1.31',
  /** Volume connectors and targets. */
  volume: '1.32',
  /** Node `storage_interface`; driver storage interfaces. */
  storageInterface: '1.33',
  /** Port `physical_network`. */
  portPhysicalNetwork: '1.34',
  /** `configdrive` with the `rebuild` verb. */
  rebuildConfigDrive: '1.35',
  /** `agent_version` in the heartbeat. */
  agentVersionHeartbeat: '1.36',
  /** Node `traits` and /nodes/{node}/traits. */
  nodeTraits: '1.37',
  /** The `rescue` and `unrescue` verbs and states; node and driver rescue interfaces. */
  rescue: '1.38',
  /** `inspect wait` is shown as itself (as `inspecting` below). */
  inspectWaitState: '1.39',
  /** Node `bios_interface`, driver bios interfaces, /nodes/{node}/bios. */
  biosInterface: '1.40',
  /** `abort` accepted in `inspect wait`. */
  inspectAbort: '1.41',
  /** Node `fault` and its filter. */
  nodeFault: '1.42',
  /** The `detail` query parameter on list endpoints. */
  detailQuery: '1.43',
  /** Node `deploy_step`. */
  nodeDeployStep: '1.44',
  /** `reset_interfaces` on node PATCH. */
  resetInterfaces: '1.45',
  /** Node `conductor_group` and its filter. */
  conductorGroup: '1.46',
  /** Node `automated_clean`. */
  nodeAutomatedClean: '1.47',
  /** Node `protected` and `protected_reason`. */
  nodeProtected: '1.48',
  /** /v1/conductors; node `conductor` and its filter. */
  conductors: '1.49',
  /** Node `owner` and its filter. */
  nodeOwner: '1.50',
  /** Node `description` (the `description_contains` filter has no gate: the real one has none). */
  nodeDescription: '1.51',
  /** Allocations; node `allocation_uuid`. */
  allocations: '1.52',
  /** Port `is_smartnic`. */
  portSmartNic: '1.53',
  /** /v1/events. */
  events: '1.54',
  /** Deploy templates. */
  deployTemplates: '1.55',
  /** Config drives built from `meta_data`, `network_data` and `user_data`. */
  buildConfigDrive: '1.56',
  /** PATCH /v1/allocations/{allocation}. */
  allocationUpdate: '1.57',
  /** Allocations backfilled for deployed nodes. */
  allocationBackfill: '1.58',
  /** `vendor_data` in config drives. */
  configDriveVendorData: '1.59',
  /** Allocation `owner`. */
  allocationOwner: '1.60',
  /** Node `retired` and `retired_reason`. */
  nodeRetired: '1.61',
  /** Agent token (a signifier). */
  agentToken: '1.62',
  /** Indicators under /nodes/{node}/management. */
  indicators: '1.63',
  /** `network_type` in a port's `local_link_connection`. */
  localLinkNetworkType: '1.64',
  /** Node `lessee` and its filter. */
  nodeLessee: '1.65',
  /** Node `network_data`. */
  nodeNetworkData: '1.66',
  /** `port_uuid` and `portgroup_uuid` in a VIF attach. */
  vifAttachPort: '1.67',
  /** `agent_verify_ca` in the heartbeat. */
  heartbeatVerifyCa: '1.68',
  /** `deploy_steps` with the `active`/`rebuild` verbs. */
  deploySteps: '1.69',
  /** `disable_ramdisk` with the `clean` verb. */
  cleanDisableRamdisk: '1.70',
  /** Keystone system scope (a signifier). */
  rbacScopes: '1.71',
  /** `agent_status` in the heartbeat. */
  heartbeatStatus: '1.72',
  /** The `deploy` verb (alias of `active`) and, as the real service checks it, not `undeploy`. */
  deployUndeployVerbs: '1.73',
  /** BIOS registry fields; `detail` and `fields` on the BIOS list. */
  biosRegistry: '1.74',
  /** Node `boot_mode` and `secure_boot`. */
  nodeBootMode: '1.75',
  /** PUT /nodes/{node}/states/boot_mode and /secure_boot. */
  changeBootMode: '1.76',
  /** `fields` on the drivers list and driver show. */
  driverFieldsSelector: '1.77',
  /** /nodes/{node}/history. */
  nodeHistory: '1.78',
  /** Allocations prefer the node whose name matches. */
  allocationNodeName: '1.79',
  /** Project-scoped admins may create and delete nodes (a signifier). */
  projectCreateDeleteNode: '1.80',
  /** /nodes/{node}/inventory. */
  nodeInventory: '1.81',
  /** Node `shard`, /v1/shards, the `shard` and `sharded` filters, ports by shard. */
  nodeShard: '1.82',
} as const satisfies Record<string, BaremetalVersion>;

export type BaremetalFeature = keyof typeof BAREMETAL_FEATURE_VERSIONS;

/**
 * The table as the toolkit's gates (`defineFeatures` checks every gate names a listed
 * version): `request.microversion.atLeast(FEATURES.nodeOwner)`.
 */
export const FEATURES = defineFeatures(BAREMETAL_VERSIONS, BAREMETAL_FEATURE_VERSIONS);

/** Answers whether the request's version has a gate on; what pure view code is handed. */
export type GateCheck = (gate: BaremetalFeature) => boolean;

/** The GateCheck of one version (one closure per request). */
export function gatesAt(version: { atLeast(other: Version): boolean }): GateCheck {
  return (gate) => version.atLeast(FEATURES[gate]);
}

/**
 * Node fields that appear only from some version, with the gate that shows them (the real
 * `VERSIONED_FIELDS`): below it the field is left out of bodies, and asking for it in
 * `fields`, or filtering or sorting by it, is refused with 406.
 */
export const NODE_FIELD_FEATURES = {
  driver_internal_info: 'driverInternalInfo',
  name: 'nodeNames',
  inspection_finished_at: 'inspectState',
  inspection_started_at: 'inspectState',
  clean_step: 'nodeCleanStep',
  raid_config: 'raidConfig',
  target_raid_config: 'raidConfig',
  network_interface: 'networkInterface',
  resource_class: 'resourceClass',
  boot_interface: 'dynamicInterfaces',
  console_interface: 'dynamicInterfaces',
  deploy_interface: 'dynamicInterfaces',
  inspect_interface: 'dynamicInterfaces',
  management_interface: 'dynamicInterfaces',
  power_interface: 'dynamicInterfaces',
  raid_interface: 'dynamicInterfaces',
  vendor_interface: 'dynamicInterfaces',
  storage_interface: 'storageInterface',
  traits: 'nodeTraits',
  rescue_interface: 'rescue',
  bios_interface: 'biosInterface',
  fault: 'nodeFault',
  deploy_step: 'nodeDeployStep',
  conductor_group: 'conductorGroup',
  automated_clean: 'nodeAutomatedClean',
  protected: 'nodeProtected',
  protected_reason: 'nodeProtected',
  conductor: 'conductors',
  owner: 'nodeOwner',
  description: 'nodeDescription',
  allocation_uuid: 'allocations',
  events: 'events',
  retired: 'nodeRetired',
  retired_reason: 'nodeRetired',
  lessee: 'nodeLessee',
  network_data: 'nodeNetworkData',
  boot_mode: 'nodeBootMode',
  secure_boot: 'nodeBootMode',
  shard: 'nodeShard',
} as const satisfies Record<string, BaremetalFeature>;

/** Port fields that appear only from some version (the real `hide_fields_in_newer_versions`). */
export const PORT_FIELD_FEATURES = {
  internal_info: 'portInternalInfo',
  local_link_connection: 'portAdvancedNetFields',
  pxe_enabled: 'portAdvancedNetFields',
  portgroup_uuid: 'portgroupSubresources',
  physical_network: 'portPhysicalNetwork',
  is_smartnic: 'portSmartNic',
} as const satisfies Record<string, BaremetalFeature>;

/** Port group fields that appear only from some version. */
export const PORTGROUP_FIELD_FEATURES = {
  mode: 'portgroupModeProperties',
  properties: 'portgroupModeProperties',
} as const satisfies Record<string, BaremetalFeature>;
