/**
 * Allocations (API 1.52, Allocation 1.1) and deploy templates (API 1.55, DeployTemplate 1.1)
 * with their steps, as Ironic 21.4's models have them: tables, columns, lengths, nullability,
 * unique constraints, indexes and foreign keys under Ironic's names. Baton's zed had neither;
 * the real one did, so a database upgraded from Baton's zed gets here what the real zed
 * already had. New tables only: the previous release's code runs on the result unchanged.
 *
 * The allocations table is `baremetal_allocations`, not Ironic's `allocations`: the services
 * share one database and Placement's table of that name came first.
 *
 * Left out on purpose: the foreign key from `nodes.allocation_id` to the allocation's `id`. Adding
 * it to the populated nodes table takes a lock (PostgreSQL), copies the table (MariaDB) or
 * rebuilds it (SQLite) while the previous release serves; the conductor's store writes
 * `allocation_id` only in the transaction that writes the allocation it names.
 */
import { type Column, exactCollationOnMariadb, type Migration } from '../../db/migrations/index.ts';

const id: Column = { name: 'id', type: 'integer', primaryKey: true, autoIncrement: true };
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
// JSON text, as Ironic's JsonEncodedDict/List (LONGTEXT on MariaDB).
const json = (name: string, nullable = true): Column => ({
  name,
  type: 'text',
  ...(nullable ? {} : { nullable: false }),
});
const reference = (column: string, table: string) => ({
  columns: [column],
  references: { table, columns: ['id'] },
});
const index = (name: string, column: string) => ({
  op: 'createIndex' as const,
  table: 'deploy_template_steps',
  name,
  columns: [column],
});

export const allocationsAndDeployTemplates: Migration = {
  id: '0004_allocations_and_deploy_templates',
  release: 'antelope',
  description:
    'Ironic 21.4: the allocations table (API 1.52) and deploy_templates with deploy_template_steps (API 1.55)',
  operations: [
    {
      op: 'createTable',
      table: 'baremetal_allocations',
      columns: [
        ...base,
        id,
        string('uuid', 36, false),
        string('name'),
        { name: 'node_id', type: 'integer' },
        string('state', 15, false),
        string('owner'),
        { name: 'last_error', type: 'text' },
        string('resource_class', 80),
        json('traits'),
        json('candidate_nodes'),
        json('extra'),
        { name: 'conductor_affinity', type: 'integer' },
      ],
      unique: [
        { name: 'uniq_allocations0name', columns: ['name'] },
        { name: 'uniq_allocations0uuid', columns: ['uuid'] },
      ],
      foreignKeys: [reference('node_id', 'nodes'), reference('conductor_affinity', 'conductors')],
    },
    // Allocation names compare byte for byte on MariaDB too, as node names do (0003).
    exactCollationOnMariadb(
      'baremetal_allocations',
      'name',
      255,
      true,
      'Collation of a column of a table this migration creates, on MariaDB only: allocation names compare byte for byte, as node names do since 0003.',
    ),
    {
      op: 'createTable',
      table: 'deploy_templates',
      columns: [...base, id, string('uuid', 36), string('name', 255, false), json('extra')],
      unique: [
        { name: 'uniq_deploytemplates0uuid', columns: ['uuid'] },
        { name: 'uniq_deploytemplates0name', columns: ['name'] },
      ],
    },
    {
      op: 'createTable',
      table: 'deploy_template_steps',
      columns: [
        ...base,
        id,
        { name: 'deploy_template_id', type: 'integer', nullable: false },
        string('interface', 255, false),
        string('step', 255, false),
        json('args', false),
        { name: 'priority', type: 'integer', nullable: false },
      ],
      foreignKeys: [reference('deploy_template_id', 'deploy_templates')],
    },
    index('deploy_template_id', 'deploy_template_id'),
    index('deploy_template_steps_interface_idx', 'interface'),
    index('deploy_template_steps_step_idx', 'step'),
  ],
};
