/**
 * One object of each bare metal type with every field set to a value unlike its default, as
 * JSON field values (what both Baton and Ironic accept as input), for conversion and interop
 * tests. `traits` of a Node is given as trait names.
 */

import { Trait, TraitList } from '../../../src/baremetal/objects/index.ts';
import type { ObjectType, VersionedObject } from '../../../src/objects/index.ts';

const stamp = (day: number) => `2024-0${day}-0${day}T0${day}:1${day}:2${day}Z`;

export const SAMPLE_FIELDS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  Node: {
    id: 7,
    uuid: '1be26c0b-03f2-4d2e-ae87-c02d7f33c123',
    name: 'node-7',
    chassis_id: 3,
    instance_uuid: '9f5e3a1c-7a85-4b8e-9d0a-1e2f3a4b5c6d',
    driver: 'fake-hardware',
    driver_info: { ipmi_address: '10.0.0.7', nested: { list: [1, 'two', null] } },
    driver_internal_info: { agent_url: 'http://10.0.0.7:9999', clean_steps: [] },
    clean_step: { step: 'erase_devices', priority: 10, interface: 'deploy' },
    deploy_step: { step: 'deploy', priority: 100, interface: 'deploy', argsinfo: null },
    raid_config: { logical_disks: [{ size_gb: 100, raid_level: '1' }] },
    target_raid_config: { logical_disks: [{ size_gb: 'MAX', raid_level: '0' }] },
    instance_info: { image_source: 'http://images/one.qcow2', root_gb: 10 },
    properties: { cpus: 8, memory_mb: 4096, local_gb: 100, cpu_arch: 'x86_64' },
    reservation: 'conductor-1',
    conductor_affinity: 2,
    conductor_group: 'rack1',
    power_state: 'power on',
    target_power_state: 'power off',
    provision_state: 'active',
    provision_updated_at: stamp(1),
    target_provision_state: 'deleted',
    maintenance: true,
    maintenance_reason: 'checking the fans',
    fault: 'power failure',
    console_enabled: true,
    last_error: 'boom',
    resource_class: 'baremetal-large',
    inspection_finished_at: stamp(2),
    inspection_started_at: stamp(3),
    extra: { rack: 'R12', slot: 4, tags: ['gpu'] },
    automated_clean: true,
    protected: true,
    protected_reason: 'keep it',
    allocation_id: 5,
    bios_interface: 'fake',
    boot_interface: 'fake',
    console_interface: 'fake',
    deploy_interface: 'fake',
    inspect_interface: 'fake',
    management_interface: 'fake',
    network_interface: 'noop',
    power_interface: 'fake',
    raid_interface: 'fake',
    rescue_interface: 'fake',
    storage_interface: 'noop',
    vendor_interface: 'fake',
    traits: ['CUSTOM_GPU', 'HW_CPU_X86_VMX'],
    owner: 'project-a',
    lessee: 'project-b',
    description: 'a node with everything set',
    retired: true,
    retired_reason: 'old',
    network_data: { links: [{ id: 'eth0' }], networks: [], services: [] },
    boot_mode: 'uefi',
    secure_boot: true,
    shard: 'shard-1',
    created_at: stamp(4),
    updated_at: stamp(5),
  },
  Port: {
    id: 11,
    uuid: '6d85703a-565d-469a-96ce-30b6de53079d',
    node_id: 7,
    node_uuid: '1be26c0b-03f2-4d2e-ae87-c02d7f33c123',
    address: '52:54:00:12:34:56',
    extra: { vif_port_id: 'a-vif' },
    local_link_connection: { switch_id: '0a:1b:2c:3d:4e:5f', port_id: 'Ethernet3/1' },
    portgroup_id: 4,
    pxe_enabled: false,
    internal_info: { tenant_vif_port_id: 'a-vif' },
    physical_network: 'physnet1',
    is_smartnic: true,
    name: 'port-11',
    created_at: stamp(4),
    updated_at: stamp(5),
  },
  Portgroup: {
    id: 4,
    uuid: '8a2f7c3e-1b4d-4e6f-9a0b-2c3d4e5f6a7b',
    name: 'bond0',
    node_id: 7,
    node_uuid: '1be26c0b-03f2-4d2e-ae87-c02d7f33c123',
    address: '52:54:00:ab:cd:ef',
    extra: { note: 'bonded' },
    internal_info: { tenant_vif_port_id: 'pg-vif' },
    standalone_ports_supported: false,
    mode: '802.3ad',
    properties: { miimon: '100' },
    created_at: stamp(4),
    updated_at: stamp(5),
  },
  Chassis: {
    id: 3,
    uuid: 'e74c40e0-d825-11e2-a28f-0800200c9a66',
    extra: { location: 'row 4' },
    description: 'rack 4 chassis',
    created_at: stamp(4),
    updated_at: stamp(5),
  },
  Conductor: {
    id: 2,
    drivers: ['fake-hardware', 'ipmi'],
    hostname: 'conductor-1',
    conductor_group: 'rack1',
    created_at: stamp(4),
    updated_at: stamp(5),
  },
  Trait: { node_id: '7', trait: 'CUSTOM_GPU', created_at: stamp(4), updated_at: stamp(5) },
  TraitList: {
    objects: [{ trait: 'CUSTOM_A' }, { trait: 'CUSTOM_B', node_id: '7' }],
    created_at: stamp(4),
    updated_at: stamp(5),
  },
  NodeInventory: {
    id: 5,
    node_id: 7,
    inventory_data: { cpu: { count: 4, architecture: 'x86_64' }, memory: { physical_mb: 8192 } },
    plugin_data: { root_disk: { name: '/dev/sda' } },
    created_at: stamp(4),
    updated_at: stamp(5),
  },
  Allocation: {
    id: 9,
    uuid: '5344a3e2-978a-444e-990a-cbf47c62ef88',
    name: 'alloc-9',
    node_id: 7,
    state: 'active',
    last_error: 'an earlier failure',
    resource_class: 'baremetal-large',
    traits: ['CUSTOM_GPU', 'HW_CPU_X86_VMX'],
    candidate_nodes: ['1be26c0b-03f2-4d2e-ae87-c02d7f33c123'],
    extra: { flavor: 'large' },
    conductor_affinity: 2,
    owner: 'project-a',
    created_at: stamp(4),
    updated_at: stamp(5),
  },
  DeployTemplate: {
    id: 6,
    uuid: 'bbb45f41-d4bc-4307-8d1d-32f95ce1e920',
    name: 'CUSTOM_HYPERTHREADING_ON',
    steps: [
      {
        interface: 'bios',
        step: 'apply_configuration',
        args: { settings: [{ name: 'LogicalProc', value: 'Enabled' }] },
        priority: 150,
      },
    ],
    extra: { owner: 'ops' },
    created_at: stamp(4),
    updated_at: stamp(5),
  },
  BIOSSetting: {
    node_id: '7',
    name: 'BootMode',
    value: 'Uefi',
    attribute_type: 'Enumeration',
    allowable_values: ['Bios', 'Uefi'],
    lower_bound: 1,
    max_length: 16,
    min_length: 2,
    read_only: false,
    reset_required: true,
    unique: false,
    upper_bound: 9,
    created_at: stamp(4),
    updated_at: stamp(5),
  },
  NodeHistory: {
    id: 11,
    uuid: '7e2f1a9c-4b3d-4e8f-9a1b-2c3d4e5f6a7b',
    conductor: 'conductor-1',
    event: 'Failed to deploy. Something broke',
    user: 'a-user',
    node_id: 7,
    event_type: 'deploying',
    severity: 'ERROR',
    created_at: stamp(4),
    updated_at: stamp(5),
  },
  VolumeConnector: {
    id: 12,
    uuid: '3b0a5c1e-8f2d-4c6a-9e7b-1d2c3b4a5f60',
    node_id: 7,
    type: 'iqn',
    connector_id: 'iqn.2017-05.org.openstack:01:d9a51732c3f',
    extra: { rack: 'r1' },
    created_at: stamp(4),
    updated_at: stamp(5),
  },
  VolumeTarget: {
    id: 13,
    uuid: '5c1e3b0a-2d8f-4a6c-7b9e-2c3b1d4a5f61',
    node_id: 7,
    volume_type: 'iscsi',
    properties: { target_lun: 0, target_iqn: 'iqn.2010-10.org.openstack:volume-00000001' },
    boot_index: 0,
    volume_id: '04452bed-5367-4202-8bf5-de4335ac56d2',
    extra: {},
    created_at: stamp(4),
    updated_at: stamp(5),
  },
};

function traitList(items: readonly Record<string, unknown>[]): VersionedObject {
  return TraitList.create({ objects: items.map((item) => Trait.create(item as never)) });
}

/** The sample of a type as a Baton object at the latest version, every field changed. */
export function sampleObject(type: ObjectType): VersionedObject {
  const obj = type.create();
  for (const [field, value] of Object.entries(SAMPLE_FIELDS[type.name] ?? {})) {
    if (type.name === 'Node' && field === 'traits') {
      obj.assign(field, traitList((value as string[]).map((trait) => ({ trait }))));
    } else if (type.name === 'TraitList' && field === 'objects') {
      obj.assign(field, traitList(value as Record<string, unknown>[]).get('objects'));
    } else {
      obj.assign(field, value);
    }
  }
  return obj;
}
