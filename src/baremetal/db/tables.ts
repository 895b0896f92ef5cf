/**
 * The bare metal tables as the query builder sees them (see migrations/). JSON
 * columns hold JSON text; booleans come back as booleans (PostgreSQL) or 0/1 (SQLite,
 * MariaDB); datetimes as Date objects, or ISO text on SQLite.
 */
import type { Generated } from 'kysely';

type Bool = boolean | number;
type Timestamp = Date | string | null;
type Json = string | null;

export interface BaseColumns {
  created_at: Timestamp;
  updated_at: Timestamp;
  version: string | null;
}

export interface ChassisTable extends BaseColumns {
  id: Generated<number>;
  uuid: string | null;
  extra: Json;
  description: string | null;
}

export interface ConductorsTable extends BaseColumns {
  id: Generated<number>;
  hostname: string;
  drivers: Json;
  online: Bool | null;
  conductor_group: string;
}

export interface ConductorHardwareInterfacesTable extends BaseColumns {
  id: Generated<number>;
  conductor_id: number;
  hardware_type: string;
  interface_type: string;
  interface_name: string;
  default: Bool;
}

export interface NodesTable extends BaseColumns {
  id: Generated<number>;
  uuid: string | null;
  instance_uuid: string | null;
  name: string | null;
  chassis_id: number | null;
  power_state: string | null;
  target_power_state: string | null;
  provision_state: string | null;
  target_provision_state: string | null;
  provision_updated_at: Timestamp;
  last_error: string | null;
  instance_info: Json;
  properties: Json;
  driver: string | null;
  driver_info: Json;
  driver_internal_info: Json;
  clean_step: Json;
  deploy_step: Json;
  resource_class: string | null;
  raid_config: Json;
  target_raid_config: Json;
  reservation: string | null;
  conductor_affinity: number | null;
  conductor_group: string;
  maintenance: Bool | null;
  maintenance_reason: string | null;
  fault: string | null;
  console_enabled: Bool | null;
  inspection_finished_at: Timestamp;
  inspection_started_at: Timestamp;
  extra: Json;
  automated_clean: Bool | null;
  protected: Bool;
  protected_reason: string | null;
  owner: string | null;
  lessee: string | null;
  allocation_id: number | null;
  description: string | null;
  bios_interface: string | null;
  boot_interface: string | null;
  console_interface: string | null;
  deploy_interface: string | null;
  inspect_interface: string | null;
  management_interface: string | null;
  network_interface: string | null;
  raid_interface: string | null;
  rescue_interface: string | null;
  retired: Bool | null;
  retired_reason: string | null;
  network_data: Json;
  storage_interface: string | null;
  power_interface: string | null;
  vendor_interface: string | null;
  boot_mode: string | null;
  secure_boot: Bool | null;
  shard: string | null;
}

export interface NodeInventoryTable extends BaseColumns {
  id: Generated<number>;
  node_id: number | null;
  inventory_data: Json;
  plugin_data: Json;
}

export interface NodeTraitsTable extends BaseColumns {
  node_id: number;
  trait: string;
}

export interface NodeTagsTable extends BaseColumns {
  node_id: number;
  tag: string;
}

export interface PortgroupsTable extends BaseColumns {
  id: Generated<number>;
  uuid: string | null;
  name: string | null;
  node_id: number | null;
  address: string | null;
  extra: Json;
  internal_info: Json;
  standalone_ports_supported: Bool | null;
  mode: string | null;
  properties: Json;
}

export interface PortsTable extends BaseColumns {
  id: Generated<number>;
  uuid: string | null;
  address: string | null;
  node_id: number | null;
  extra: Json;
  local_link_connection: Json;
  portgroup_id: number | null;
  pxe_enabled: Bool | null;
  internal_info: Json;
  physical_network: string | null;
  is_smartnic: Bool | null;
  name: string | null;
}

export interface AllocationsTable extends BaseColumns {
  id: Generated<number>;
  uuid: string;
  name: string | null;
  node_id: number | null;
  state: string;
  owner: string | null;
  last_error: string | null;
  resource_class: string | null;
  traits: Json;
  candidate_nodes: Json;
  extra: Json;
  conductor_affinity: number | null;
}

export interface DeployTemplatesTable extends BaseColumns {
  id: Generated<number>;
  uuid: string | null;
  name: string;
  extra: Json;
}

export interface DeployTemplateStepsTable extends BaseColumns {
  id: Generated<number>;
  deploy_template_id: number;
  interface: string;
  step: string;
  args: string;
  priority: number;
}

export interface BiosSettingsTable extends BaseColumns {
  node_id: number;
  name: string;
  value: string | null;
  attribute_type: string | null;
  allowable_values: Json;
  lower_bound: number | null;
  max_length: number | null;
  min_length: number | null;
  read_only: Bool | null;
  reset_required: Bool | null;
  unique: Bool | null;
  upper_bound: number | null;
}

export interface NodeHistoryTable extends BaseColumns {
  id: Generated<number>;
  uuid: string;
  conductor: string | null;
  event_type: string | null;
  severity: string | null;
  event: string | null;
  user: string | null;
  node_id: number | null;
}

export interface VolumeConnectorsTable extends BaseColumns {
  id: Generated<number>;
  uuid: string | null;
  node_id: number | null;
  type: string | null;
  connector_id: string | null;
  extra: Json;
}

export interface VolumeTargetsTable extends BaseColumns {
  id: Generated<number>;
  uuid: string | null;
  node_id: number | null;
  volume_type: string | null;
  properties: Json;
  boot_index: number | null;
  volume_id: string | null;
  extra: Json;
}

export interface BaremetalTables {
  bios_settings: BiosSettingsTable;
  node_history: NodeHistoryTable;
  baremetal_allocations: AllocationsTable;
  deploy_templates: DeployTemplatesTable;
  deploy_template_steps: DeployTemplateStepsTable;
  chassis: ChassisTable;
  conductors: ConductorsTable;
  conductor_hardware_interfaces: ConductorHardwareInterfacesTable;
  nodes: NodesTable;
  node_traits: NodeTraitsTable;
  node_inventory: NodeInventoryTable;
  node_tags: NodeTagsTable;
  portgroups: PortgroupsTable;
  ports: PortsTable;
  volume_connectors: VolumeConnectorsTable;
  volume_targets: VolumeTargetsTable;
}

/** A row as read: column name to value. */
export type Row = Record<string, unknown>;
