/**
 * antelope's online migration `move_inventory_to_node_inventory` and the contract step it
 * enables, on the three backends: inventories move out of `extra` in batches, only once every
 * live bare metal process runs antelope; a later release's schema migration blocked on it
 * refuses to run until the move is done.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BAREMETAL_MIGRATIONS } from '../../../src/baremetal/migrations/index.ts';
import { NodeInventory } from '../../../src/baremetal/objects/index.ts';
import {
  baremetalOnlineMigrations,
  INVENTORY_MOVED,
  MOVE_INVENTORY,
  nodesHoldingInventory,
} from '../../../src/baremetal/online-migrations/index.ts';
import {
  BAREMETAL_API_BINARY,
  BAREMETAL_CONDUCTOR_BINARY,
} from '../../../src/baremetal/service-version.ts';
import {
  type Database,
  MigrationBlockedError,
  type MigrationSet,
  migrateToLatest,
  registerService,
  runOnlineMigrations,
  UPDATE_TO_LATEST_VERSIONS,
} from '../../../src/db/index.ts';
import { createNode, forEachStoreBackend, unique } from '../support/store-fixtures.ts';

/** The next release's contract step, as it would be written: blocked on the move. */
const NEXT_RELEASE: MigrationSet = {
  ...BAREMETAL_MIGRATIONS,
  releases: [...BAREMETAL_MIGRATIONS.releases, 'bobcat'],
  migrations: [
    ...BAREMETAL_MIGRATIONS.migrations,
    {
      id: '0003_one_inventory_per_node',
      release: 'bobcat',
      description: 'One node_inventory row per node, once no inventory is left to move',
      operations: [
        {
          op: 'createIndex',
          table: 'node_inventory',
          name: 'uniq_node_inventory0node_id',
          columns: ['node_id'],
          unique: true,
          concurrently: true,
        },
      ],
      blockedBy: INVENTORY_MOVED,
    },
  ],
};

test('the registry runs the move before update_to_latest_versions, gated on antelope everywhere', () => {
  const registry = baremetalOnlineMigrations();
  assert.deepEqual(
    registry.migrations.map((m) => m.name),
    [MOVE_INVENTORY, UPDATE_TO_LATEST_VERSIONS],
  );
  assert.deepEqual(registry.migrations[0]?.requires, [
    { binary: BAREMETAL_API_BINARY, minServiceVersion: 2 },
    { binary: BAREMETAL_CONDUCTOR_BINARY, minServiceVersion: 2 },
  ]);
});

forEachStoreBackend('move_inventory_to_node_inventory', (ctx) => {
  test('waits for zed processes, then moves in batches; the contract step waits for it', async () => {
    const db = ctx.db();
    const shared = db as unknown as Database;
    const store = ctx.store();
    const inventory = (n: number) => ({ cpu: { count: n }, memory: { physical_mb: 1024 * n } });
    const moving = [];
    for (let n = 1; n <= 5; n++) {
      moving.push(
        await createNode(store, {
          extra: { inventory: inventory(n), plugin_data: { root_disk: n }, rack: `r${n}` },
        }),
      );
    }
    // "inventory" deeper in extra is not the old place: left alone.
    const nested = await createNode(store, { extra: { notes: { inventory: 'asset 7' } } });
    // A node inspected by antelope already: its newer inventory wins, extra is still cleaned.
    const inspected = await createNode(store, { extra: { inventory: inventory(9) } });
    await store.inventories.set(
      NodeInventory.create({
        node_id: inspected.get('id'),
        inventory_data: { newer: true },
        plugin_data: {},
      }),
    );
    assert.equal(await nodesHoldingInventory(db.kysely), 6);

    // A zed conductor is live: the move waits, nothing is touched.
    const host = unique('conductor');
    const zed = await registerService(shared, {
      binary: BAREMETAL_CONDUCTOR_BINARY,
      host,
      version: 1,
    });
    const waiting = await runOnlineMigrations(shared, baremetalOnlineMigrations(), {
      batchPauseMs: 0,
    });
    assert.equal(waiting.outcome, 'waiting');
    assert.equal(waiting.exitStatus, 1);
    assert.equal(waiting.migrations[0]?.status, 'waiting');
    assert.equal(await nodesHoldingInventory(db.kysely), 6);

    // The contract step of the next release refuses while inventories remain.
    const blocked = await migrateToLatest(shared, NEXT_RELEASE);
    assert.ok(blocked.error instanceof MigrationBlockedError, String(blocked.error));
    assert.match(blocked.error.message, new RegExp(MOVE_INVENTORY));

    // The conductor restarts on antelope (same host, service version 2): the move runs.
    await zed.deregister();
    const antelope = await registerService(shared, {
      binary: BAREMETAL_CONDUCTOR_BINARY,
      host,
      version: 2,
    });
    const batches: number[] = [];
    const done = await runOnlineMigrations(shared, baremetalOnlineMigrations(), {
      batchSize: 2,
      batchPauseMs: 0,
      onBatch: (progress) => {
        if (progress.migration === MOVE_INVENTORY) batches.push(progress.migrated);
      },
    });
    assert.deepEqual(batches.slice(0, 3), [2, 2, 2]);
    assert.equal(done.outcome, 'complete', JSON.stringify(done.migrations));
    const move = done.migrations[0];
    assert.equal(move?.migrated, 6);
    assert.ok((move?.batches ?? 0) >= 3, `in batches of 2: ${move?.batches}`);
    assert.equal(await nodesHoldingInventory(db.kysely), 0);

    for (const [i, node] of moving.entries()) {
      const read = await store.nodes.get(node.get('id'));
      assert.deepEqual(read.get('extra'), { rack: `r${i + 1}` });
      const moved = await store.inventories.get(node.get('id'));
      assert.deepEqual(moved.get('inventory_data'), inventory(i + 1));
      assert.deepEqual(moved.get('plugin_data'), { root_disk: i + 1 });
      assert.equal(moved.version, NodeInventory.version);
    }
    assert.deepEqual((await store.nodes.get(nested.get('id'))).get('extra'), {
      notes: { inventory: 'asset 7' },
    });
    await assert.rejects(store.inventories.get(nested.get('id')), /Node inventory record/);
    assert.deepEqual((await store.nodes.get(inspected.get('id'))).get('extra'), {});
    assert.deepEqual((await store.inventories.get(inspected.get('id'))).get('inventory_data'), {
      newer: true,
    });

    // Now the contract step applies.
    const applied = await migrateToLatest(shared, NEXT_RELEASE);
    assert.equal(applied.error, undefined);
    assert.deepEqual(
      applied.applied.map((m) => m.id),
      ['0003_one_inventory_per_node'],
    );
    await antelope.deregister();
  });
});
