/**
 * Ironic 21.4 (antelope)'s two expansions, as its alembic scripts 0ac0f39bc5aa and
 * 4dbec778866e make them: the `node_inventory` table (API 1.81; NodeInventory 1.0, one row per
 * inspected node) and the nullable, indexed `nodes.shard` (API 1.82; Node 1.37). Both only
 * add, so zed's code runs on the result (the rolling-upgrade doc's step 0). The index is built concurrently
 * where the backend can (PostgreSQL), so writes to a populated nodes table go on meanwhile.
 */
import type { Migration } from '../../db/migrations/index.ts';

export const inventoryAndShards: Migration = {
  id: '0002_node_inventory_and_shard',
  release: 'antelope',
  description:
    'Ironic 21.4: the node_inventory table (API 1.81) and the nullable indexed nodes.shard (API 1.82)',
  operations: [
    // ADD COLUMN first: on PostgreSQL it takes nodes' strongest lock at once. After the new
    // table's foreign key (a weaker lock on nodes) it had to upgrade that lock, and a zed
    // writer holding a node FOR UPDATE then deadlocked with it (test/baremetal/migrations/
    // live-upgrade-locks.test.ts).
    { op: 'addColumn', table: 'nodes', column: { name: 'shard', type: 'string(255)' } },
    {
      op: 'createTable',
      table: 'node_inventory',
      columns: [
        { name: 'created_at', type: 'datetime' },
        { name: 'updated_at', type: 'datetime' },
        { name: 'version', type: 'string(15)' },
        { name: 'id', type: 'integer', primaryKey: true, autoIncrement: true },
        // JSON text, LONGTEXT on MariaDB (Ironic's JsonEncodedDict(mysql_as_long=True)).
        { name: 'inventory_data', type: 'text' },
        { name: 'plugin_data', type: 'text' },
        { name: 'node_id', type: 'integer' },
      ],
      foreignKeys: [{ columns: ['node_id'], references: { table: 'nodes', columns: ['id'] } }],
    },
    {
      op: 'createIndex',
      table: 'node_inventory',
      name: 'inventory_node_id_idx',
      columns: ['node_id'],
    },
    {
      op: 'createIndex',
      table: 'nodes',
      name: 'shard_idx',
      columns: ['shard'],
      concurrently: true,
    },
  ],
};
