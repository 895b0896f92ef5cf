/**
 * BIOS settings (API 1.40 and 1.74, BIOSSetting 1.1) and node history (API 1.78, NodeHistory
 * 1.0), as Ironic 21.4's models have them: tables, columns, lengths, nullability, keys, the
 * unique constraint, indexes and foreign keys under Ironic's names. Baton's zed had neither; the
 * real one did. New tables only: the previous release's code runs on the result unchanged.
 */
import type { Column, Migration } from '../../db/migrations/index.ts';

const base: Column[] = [
  { name: 'created_at', type: 'datetime' },
  { name: 'updated_at', type: 'datetime' },
  { name: 'version', type: 'string(15)' },
];
const string = (name: string, length = 255, nullable = true): Column => ({
  name,
  type: `string(${length})` as const,
  ...(nullable ? {} : { nullable: false }),
});
const nodeReference = { columns: ['node_id'], references: { table: 'nodes', columns: ['id'] } };
const historyIndex = (name: string, column: string) => ({
  op: 'createIndex' as const,
  table: 'node_history',
  name,
  columns: [column],
});

export const biosSettingsAndNodeHistory: Migration = {
  id: '0005_bios_settings_and_node_history',
  release: 'antelope',
  description:
    'Ironic 21.4: the bios_settings table (API 1.40, registry fields 1.74) and node_history (API 1.78)',
  operations: [
    {
      op: 'createTable',
      table: 'bios_settings',
      columns: [
        ...base,
        { name: 'node_id', type: 'integer', nullable: false },
        string('name', 255, false),
        { name: 'value', type: 'text' },
        string('attribute_type'),
        // JSON text, as Ironic's JsonEncodedList.
        { name: 'allowable_values', type: 'text' },
        { name: 'lower_bound', type: 'integer' },
        { name: 'max_length', type: 'integer' },
        { name: 'min_length', type: 'integer' },
        { name: 'read_only', type: 'boolean' },
        { name: 'reset_required', type: 'boolean' },
        { name: 'unique', type: 'boolean' },
        { name: 'upper_bound', type: 'integer' },
      ],
      primaryKey: ['node_id', 'name'],
      foreignKeys: [nodeReference],
    },
    {
      op: 'createTable',
      table: 'node_history',
      columns: [
        ...base,
        { name: 'id', type: 'integer', primaryKey: true, autoIncrement: true },
        string('uuid', 36, false),
        string('conductor'),
        string('event_type'),
        string('severity'),
        { name: 'event', type: 'text' },
        string('user', 32),
        { name: 'node_id', type: 'integer' },
      ],
      unique: [{ name: 'uniq_history0uuid', columns: ['uuid'] }],
      foreignKeys: [nodeReference],
    },
    historyIndex('history_node_id_idx', 'node_id'),
    historyIndex('history_uuid_idx', 'uuid'),
    historyIndex('history_conductor_idx', 'conductor'),
  ],
};
