/**
 * The tables holding versioned objects, as the toolkit's version machinery needs them:
 * - `OBJECT_TABLES` for the object-version check of `db upgrade` and `upgrade-check`
 *   (every row at a version the release supports);
 * - `VERSIONED_TABLES` for `update_to_latest_versions` (rows brought to the latest version,
 *   read and written through the same codec as the store);
 * - `NEW_MODELS`, the object types new in this release, which the check leaves out (Ironic's
 *   `NEW_MODELS`): the check runs before the schema upgrade, when their tables may not exist.
 *   NodeInventory is new in antelope (the previous release's mapping does not name it, so its
 *   rows could not pass); Allocation, DeployTemplate, BIOSSetting, NodeHistory, VolumeConnector
 *   and VolumeTarget are new to Baton in antelope (Baton's zed had no tables for them, though
 *   Ironic's mapping names them from pike, stein, rocky and yoga on). Empty it in the release after.
 *
 * Ironic checks and updates tables by model class name, so its `node_traits` (model NodeTrait,
 * object Trait) is in neither; Baton writes Trait versions there and includes it.
 */
import type { ObjectTable, VersionedTable } from '../../db/index.ts';
import {
  Allocation,
  BIOSSetting,
  Chassis,
  Conductor,
  DeployTemplate,
  Node,
  NodeHistory,
  NodeInventory,
  Port,
  Portgroup,
  Trait,
  VolumeConnector,
  VolumeTarget,
} from '../objects/index.ts';
import { ALLOCATION_LIST_COLUMNS } from './allocation-rows.ts';
import { parseJsonColumns, toColumns } from './codec.ts';
import { nodeValuesToWrite } from './node-rules.ts';
import { NODE_UUID_FIELD } from './object-rows.ts';
import type { Row } from './tables.ts';

export const OBJECT_TABLES: readonly ObjectTable[] = [
  { table: 'nodes', objectName: 'Node' },
  { table: 'ports', objectName: 'Port' },
  { table: 'portgroups', objectName: 'Portgroup' },
  { table: 'chassis', objectName: 'Chassis' },
  { table: 'conductors', objectName: 'Conductor' },
  { table: 'node_traits', objectName: 'Trait' },
  { table: 'node_inventory', objectName: 'NodeInventory' },
  { table: 'baremetal_allocations', objectName: 'Allocation' },
  { table: 'deploy_templates', objectName: 'DeployTemplate' },
  { table: 'bios_settings', objectName: 'BIOSSetting' },
  { table: 'node_history', objectName: 'NodeHistory' },
  { table: 'volume_connectors', objectName: 'VolumeConnector' },
  { table: 'volume_targets', objectName: 'VolumeTarget' },
];

export const NEW_MODELS: readonly string[] = [
  'NodeInventory',
  'Allocation',
  'DeployTemplate',
  'BIOSSetting',
  'NodeHistory',
  'VolumeConnector',
  'VolumeTarget',
];

const plain = (changes: Readonly<Row>) => toColumns(changes);
const withoutNodeUuid = (changes: Readonly<Row>) => toColumns(changes, new Set([NODE_UUID_FIELD]));

export const VERSIONED_TABLES: readonly VersionedTable[] = [
  {
    table: 'nodes',
    type: Node,
    // A node's traits are rows of node_traits, never a column.
    toColumns: (changes) => toColumns(nodeValuesToWrite(changes, Number.MAX_SAFE_INTEGER, null)),
  },
  { table: 'ports', type: Port, toColumns: withoutNodeUuid },
  { table: 'portgroups', type: Portgroup, toColumns: withoutNodeUuid },
  { table: 'chassis', type: Chassis, toColumns: plain },
  {
    table: 'conductors',
    type: Conductor,
    fromRow: (row) => parseJsonColumns(row, ['drivers']),
    toColumns: plain,
  },
  {
    table: 'node_traits',
    type: Trait,
    // No id column: rows are taken by node, and only the version is written (Trait has one
    // version, so there is no data to move; give the table a per-row key before a Trait
    // version that moves data).
    idColumn: 'node_id',
    fromRow: (row) => ({ ...row, node_id: String(row.node_id) }),
    toColumns: (changes) => ({ version: changes.version }),
  },
  { table: 'node_inventory', type: NodeInventory, toColumns: plain },
  {
    table: 'baremetal_allocations',
    type: Allocation,
    fromRow: (row) => parseJsonColumns(row, ALLOCATION_LIST_COLUMNS),
    toColumns: plain,
  },
  // The steps are rows of deploy_template_steps, not a column: only the template row moves.
  {
    table: 'deploy_templates',
    type: DeployTemplate,
    toColumns: (changes) => toColumns(changes, new Set(['steps'])),
  },
  {
    table: 'bios_settings',
    type: BIOSSetting,
    // No id column: a setting is its node and name (only the version is written: BIOSSetting
    // 1.1's registry fields are left as they are, as Ironic's conversion for the database does).
    idColumn: 'node_id',
    fromRow: (row) => ({
      ...parseJsonColumns(row, ['allowable_values']),
      node_id: String(row.node_id),
    }),
    toColumns: (changes) => ({ version: changes.version }),
  },
  { table: 'node_history', type: NodeHistory, toColumns: plain },
  { table: 'volume_connectors', type: VolumeConnector, toColumns: plain },
  { table: 'volume_targets', type: VolumeTarget, toColumns: plain },
];
