/**
 * The bare metal tables of Ironic 21.1 (zed), as `ironic/db/sqlalchemy/models.py` has them:
 * names, columns, types and lengths, nullability, unique constraints and indexes (Ironic's
 * names), and the `created_at`, `updated_at` and `version` columns every Ironic table has.
 *
 * Where Baton differs, on purpose:
 * - Ironic's JSON columns (JsonEncodedDict/List) are TEXT holding JSON; Baton keeps TEXT
 *   (`text`, LONGTEXT on MariaDB as Ironic's instance_info), not jsonb, which would reorder
 *   the keys users wrote.
 * - Defaults Ironic applies in SQLAlchemy (maintenance, console_enabled, online, pxe_enabled,
 *   is_smartnic, standalone_ports_supported, "default") are column defaults here, so every
 *   writer gets them; Ironic's server defaults (conductor_group, protected, retired) are kept.
 * - `nodes.allocation_id` has no foreign key: allocations were not in this release, and the
 *   migration that brought them (0004) leaves it out too (its comment says why).
 */
import type { Column, Migration } from '../../db/migrations/index.ts';

const id: Column = { name: 'id', type: 'integer', primaryKey: true, autoIncrement: true };

/** IronicBase's columns, first in every table as in Ironic's schema. */
const base: Column[] = [
  { name: 'created_at', type: 'datetime' },
  { name: 'updated_at', type: 'datetime' },
  { name: 'version', type: 'string(15)' },
];

const uuid: Column = { name: 'uuid', type: 'string(36)' };
const json = (name: string): Column => ({ name, type: 'text' });
const string = (name: string, length = 255): Column => ({
  name,
  type: `string(${length})` as const,
});
const text = (name: string): Column => ({ name, type: 'text' });
const flag = (name: string, value?: boolean): Column =>
  value === undefined ? { name, type: 'boolean' } : { name, type: 'boolean', default: value };
const reference = (table: string, columns: string[], name?: string) => ({
  ...(name === undefined ? {} : { name }),
  columns,
  references: { table, columns: ['id'] },
});
const index = (table: string, name: string, column: string) => ({
  op: 'createIndex' as const,
  table,
  name,
  columns: [column],
});

const interfaces = [
  'bios',
  'boot',
  'console',
  'deploy',
  'inspect',
  'management',
  'network',
  'raid',
  'rescue',
].map((kind) => string(`${kind}_interface`));

export const initialSchema: Migration = {
  id: '0001_initial',
  release: 'zed',
  description:
    'Bare metal tables of Ironic 21.1: chassis, conductors and their hardware interfaces, nodes, node traits and tags, portgroups, ports',
  operations: [
    {
      op: 'createTable',
      table: 'chassis',
      columns: [...base, id, uuid, json('extra'), string('description')],
      unique: [{ name: 'uniq_chassis0uuid', columns: ['uuid'] }],
    },
    {
      op: 'createTable',
      table: 'conductors',
      columns: [
        ...base,
        id,
        { name: 'hostname', type: 'string(255)', nullable: false },
        json('drivers'),
        flag('online', true),
        { name: 'conductor_group', type: 'string(255)', nullable: false, default: '' },
      ],
      unique: [{ name: 'uniq_conductors0hostname', columns: ['hostname'] }],
    },
    {
      op: 'createTable',
      table: 'conductor_hardware_interfaces',
      columns: [
        ...base,
        id,
        { name: 'conductor_id', type: 'integer', nullable: false },
        { name: 'hardware_type', type: 'string(255)', nullable: false },
        { name: 'interface_type', type: 'string(16)', nullable: false },
        { name: 'interface_name', type: 'string(255)', nullable: false },
        { name: 'default', type: 'boolean', nullable: false, default: false },
      ],
      unique: [
        {
          name: 'uniq_conductorhardwareinterfaces0',
          columns: ['conductor_id', 'hardware_type', 'interface_type', 'interface_name'],
        },
      ],
      foreignKeys: [reference('conductors', ['conductor_id'])],
    },
    {
      op: 'createTable',
      table: 'nodes',
      columns: [
        ...base,
        id,
        uuid,
        string('instance_uuid', 36),
        string('name'),
        { name: 'chassis_id', type: 'integer' },
        string('power_state', 15),
        string('target_power_state', 15),
        string('provision_state', 15),
        string('target_provision_state', 15),
        { name: 'provision_updated_at', type: 'datetime' },
        text('last_error'),
        json('instance_info'),
        json('properties'),
        string('driver'),
        json('driver_info'),
        json('driver_internal_info'),
        json('clean_step'),
        json('deploy_step'),
        string('resource_class', 80),
        json('raid_config'),
        json('target_raid_config'),
        string('reservation'),
        { name: 'conductor_affinity', type: 'integer' },
        { name: 'conductor_group', type: 'string(255)', nullable: false, default: '' },
        flag('maintenance', false),
        text('maintenance_reason'),
        string('fault'),
        flag('console_enabled', false),
        { name: 'inspection_finished_at', type: 'datetime' },
        { name: 'inspection_started_at', type: 'datetime' },
        json('extra'),
        flag('automated_clean'),
        { name: 'protected', type: 'boolean', nullable: false, default: false },
        text('protected_reason'),
        string('owner'),
        string('lessee'),
        { name: 'allocation_id', type: 'integer' },
        text('description'),
        ...interfaces,
        flag('retired', false),
        text('retired_reason'),
        json('network_data'),
        string('storage_interface'),
        string('power_interface'),
        string('vendor_interface'),
        string('boot_mode', 16),
        flag('secure_boot'),
      ],
      unique: [
        { name: 'uniq_nodes0uuid', columns: ['uuid'] },
        { name: 'uniq_nodes0instance_uuid', columns: ['instance_uuid'] },
        { name: 'uniq_nodes0name', columns: ['name'] },
      ],
      foreignKeys: [
        reference('chassis', ['chassis_id']),
        reference('conductors', ['conductor_affinity'], 'nodes_conductor_affinity_fk'),
      ],
    },
    index('nodes', 'owner_idx', 'owner'),
    index('nodes', 'lessee_idx', 'lessee'),
    index('nodes', 'driver_idx', 'driver'),
    index('nodes', 'provision_state_idx', 'provision_state'),
    index('nodes', 'reservation_idx', 'reservation'),
    index('nodes', 'conductor_group_idx', 'conductor_group'),
    index('nodes', 'resource_class_idx', 'resource_class'),
    {
      op: 'createTable',
      table: 'node_traits',
      columns: [
        ...base,
        { name: 'node_id', type: 'integer', nullable: false },
        { name: 'trait', type: 'string(255)', nullable: false },
      ],
      primaryKey: ['node_id', 'trait'],
      foreignKeys: [reference('nodes', ['node_id'])],
    },
    index('node_traits', 'node_traits_idx', 'trait'),
    {
      op: 'createTable',
      table: 'node_tags',
      columns: [
        ...base,
        { name: 'node_id', type: 'integer', nullable: false },
        { name: 'tag', type: 'string(255)', nullable: false },
      ],
      primaryKey: ['node_id', 'tag'],
      foreignKeys: [reference('nodes', ['node_id'])],
    },
    index('node_tags', 'node_tags_idx', 'tag'),
    {
      op: 'createTable',
      table: 'portgroups',
      columns: [
        ...base,
        id,
        uuid,
        string('name'),
        { name: 'node_id', type: 'integer' },
        string('address', 18),
        json('extra'),
        json('internal_info'),
        flag('standalone_ports_supported', true),
        string('mode'),
        json('properties'),
      ],
      unique: [
        { name: 'uniq_portgroups0uuid', columns: ['uuid'] },
        { name: 'uniq_portgroups0address', columns: ['address'] },
        { name: 'uniq_portgroups0name', columns: ['name'] },
      ],
      foreignKeys: [reference('nodes', ['node_id'])],
    },
    {
      op: 'createTable',
      table: 'ports',
      columns: [
        ...base,
        id,
        uuid,
        string('address', 18),
        { name: 'node_id', type: 'integer' },
        json('extra'),
        json('local_link_connection'),
        { name: 'portgroup_id', type: 'integer' },
        flag('pxe_enabled', true),
        json('internal_info'),
        string('physical_network', 64),
        flag('is_smartnic', false),
        string('name'),
      ],
      unique: [
        { name: 'uniq_ports0address', columns: ['address'] },
        { name: 'uniq_ports0uuid', columns: ['uuid'] },
        { name: 'uniq_ports0name', columns: ['name'] },
      ],
      foreignKeys: [reference('nodes', ['node_id']), reference('portgroups', ['portgroup_id'])],
    },
  ],
};
