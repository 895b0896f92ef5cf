/**
 * Placement's schema as of Baton's first release: the tables of the
 * OpenStack Placement service (resource providers and their trees,
 * inventories, allocations, consumers with generations, projects, users,
 * resource classes, traits, aggregates, consumer types).
 */
import type { Column, Migration } from '../../db/migrations/index.ts';

const id: Column = { name: 'id', type: 'integer', primaryKey: true, autoIncrement: true };
const timestamps: Column[] = [
  { name: 'created_at', type: 'datetime' },
  { name: 'updated_at', type: 'datetime' },
];
const named = (table: string, length = 255) => ({
  op: 'createTable' as const,
  table,
  columns: [
    id,
    { name: 'name', type: `string(${length})` as const, nullable: false },
    ...timestamps,
  ],
  unique: [{ name: `uniq_${table}0name`, columns: ['name'] }],
});

export const initialSchema: Migration = {
  id: '0001_initial',
  release: '2026.1',
  description:
    'Placement tables: providers, inventories, allocations, consumers, traits, aggregates',
  operations: [
    named('resource_classes'),
    named('traits'),
    named('consumer_types'),
    {
      op: 'createTable',
      table: 'projects',
      columns: [id, { name: 'external_id', type: 'string(255)', nullable: false }, ...timestamps],
      unique: [{ name: 'uniq_projects0external_id', columns: ['external_id'] }],
    },
    {
      op: 'createTable',
      table: 'users',
      columns: [id, { name: 'external_id', type: 'string(255)', nullable: false }, ...timestamps],
      unique: [{ name: 'uniq_users0external_id', columns: ['external_id'] }],
    },
    {
      op: 'createTable',
      table: 'resource_providers',
      columns: [
        id,
        { name: 'uuid', type: 'string(36)', nullable: false },
        { name: 'name', type: 'string(200)' },
        { name: 'generation', type: 'integer', nullable: false, default: 0 },
        { name: 'root_provider_id', type: 'integer' },
        { name: 'parent_provider_id', type: 'integer' },
        ...timestamps,
      ],
      unique: [
        { name: 'uniq_resource_providers0uuid', columns: ['uuid'] },
        { name: 'uniq_resource_providers0name', columns: ['name'] },
      ],
      foreignKeys: [
        {
          columns: ['root_provider_id'],
          references: { table: 'resource_providers', columns: ['id'] },
        },
        {
          columns: ['parent_provider_id'],
          references: { table: 'resource_providers', columns: ['id'] },
        },
      ],
    },
    {
      op: 'createIndex',
      table: 'resource_providers',
      name: 'resource_providers_root_provider_id_idx',
      columns: ['root_provider_id'],
    },
    {
      op: 'createIndex',
      table: 'resource_providers',
      name: 'resource_providers_parent_provider_id_idx',
      columns: ['parent_provider_id'],
    },
    {
      op: 'createTable',
      table: 'inventories',
      columns: [
        id,
        { name: 'resource_provider_id', type: 'integer', nullable: false },
        { name: 'resource_class_id', type: 'integer', nullable: false },
        { name: 'total', type: 'integer', nullable: false },
        { name: 'reserved', type: 'integer', nullable: false },
        { name: 'min_unit', type: 'integer', nullable: false },
        { name: 'max_unit', type: 'integer', nullable: false },
        { name: 'step_size', type: 'integer', nullable: false },
        { name: 'allocation_ratio', type: 'float', nullable: false },
        ...timestamps,
      ],
      unique: [
        {
          name: 'uniq_inventories0resource_provider_resource_class',
          columns: ['resource_provider_id', 'resource_class_id'],
        },
      ],
    },
    {
      op: 'createIndex',
      table: 'inventories',
      name: 'inventories_resource_class_id_idx',
      columns: ['resource_class_id'],
    },
    {
      op: 'createTable',
      table: 'consumers',
      columns: [
        id,
        { name: 'uuid', type: 'string(36)', nullable: false },
        { name: 'project_id', type: 'integer', nullable: false },
        { name: 'user_id', type: 'integer', nullable: false },
        { name: 'generation', type: 'integer', nullable: false, default: 0 },
        { name: 'consumer_type_id', type: 'integer' },
        ...timestamps,
      ],
      unique: [{ name: 'uniq_consumers0uuid', columns: ['uuid'] }],
      foreignKeys: [
        { columns: ['consumer_type_id'], references: { table: 'consumer_types', columns: ['id'] } },
      ],
    },
    {
      op: 'createIndex',
      table: 'consumers',
      name: 'consumers_project_id_user_id_uuid_idx',
      columns: ['project_id', 'user_id', 'uuid'],
    },
    {
      op: 'createIndex',
      table: 'consumers',
      name: 'consumers_project_id_uuid_idx',
      columns: ['project_id', 'uuid'],
    },
    {
      op: 'createTable',
      table: 'allocations',
      columns: [
        id,
        { name: 'resource_provider_id', type: 'integer', nullable: false },
        { name: 'consumer_id', type: 'string(36)', nullable: false },
        { name: 'resource_class_id', type: 'integer', nullable: false },
        { name: 'used', type: 'integer', nullable: false },
        ...timestamps,
      ],
    },
    {
      op: 'createIndex',
      table: 'allocations',
      name: 'allocations_resource_provider_class_used_idx',
      columns: ['resource_provider_id', 'resource_class_id', 'used'],
    },
    {
      op: 'createIndex',
      table: 'allocations',
      name: 'allocations_consumer_id_idx',
      columns: ['consumer_id'],
    },
    {
      op: 'createIndex',
      table: 'allocations',
      name: 'allocations_resource_class_id_idx',
      columns: ['resource_class_id'],
    },
    {
      op: 'createTable',
      table: 'resource_provider_traits',
      columns: [
        { name: 'trait_id', type: 'integer', nullable: false },
        { name: 'resource_provider_id', type: 'integer', nullable: false },
        ...timestamps,
      ],
      primaryKey: ['trait_id', 'resource_provider_id'],
      foreignKeys: [
        { columns: ['trait_id'], references: { table: 'traits', columns: ['id'] } },
        {
          columns: ['resource_provider_id'],
          references: { table: 'resource_providers', columns: ['id'] },
        },
      ],
    },
    {
      op: 'createIndex',
      table: 'resource_provider_traits',
      name: 'resource_provider_traits_resource_provider_id_idx',
      columns: ['resource_provider_id'],
    },
    {
      op: 'createTable',
      table: 'placement_aggregates',
      columns: [id, { name: 'uuid', type: 'string(36)', nullable: false }, ...timestamps],
      unique: [{ name: 'uniq_placement_aggregates0uuid', columns: ['uuid'] }],
    },
    {
      op: 'createTable',
      table: 'resource_provider_aggregates',
      columns: [
        { name: 'resource_provider_id', type: 'integer', nullable: false },
        { name: 'aggregate_id', type: 'integer', nullable: false },
        ...timestamps,
      ],
      primaryKey: ['resource_provider_id', 'aggregate_id'],
    },
    {
      op: 'createIndex',
      table: 'resource_provider_aggregates',
      name: 'resource_provider_aggregates_aggregate_id_idx',
      columns: ['aggregate_id'],
    },
  ],
};
