/**
 * The object ⇄ row boundary: rows are written at the version the caller's targets give (a
 * pinned process writes its pinned versions and leaves the columns of the fields those lack
 * alone) and read back at the latest version, the conversion's changes kept.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NewerRowError } from '../../../src/baremetal/db/errors.ts';
import { Node, NodeInventory, Port, Portgroup } from '../../../src/baremetal/objects/index.ts';
import { BAREMETAL_SERVICE } from '../../../src/baremetal/service.ts';
import { IncompatibleObjectVersionError, type VersionTargets } from '../../../src/objects/index.ts';
import { ReleasePin } from '../../../src/releases/index.ts';
import { createNode, forEachStoreBackend } from '../support/store-fixtures.ts';

/** Older versions than any release of this code names, to see the conversions at work. */
const OLDER: VersionTargets = {
  objectVersion: (name, latest) =>
    ({ Node: '1.30', Port: '1.7', Portgroup: '1.2', Conductor: '1.2' })[name] ?? latest,
};

forEachStoreBackend('bare metal object versions in rows', (ctx) => {
  const versionOf = async (
    table: 'nodes' | 'ports' | 'portgroups' | 'node_inventory',
    id: number,
  ) =>
    (
      await ctx
        .db()
        .kysely.selectFrom(table)
        .select('version')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).version;

  test('a node saved by a store pinned to zed has version 1.36 and reads back at the latest', async () => {
    const pin = ReleasePin.resolve(BAREMETAL_SERVICE.releases, 'zed');
    const pinned = ctx.storeWith({ targets: pin });
    const node = await createNode(pinned);
    assert.equal(await versionOf('nodes', node.get('id')), '1.36');
    const saved = await pinned.nodes.save(node.set('description', 'pinned'));
    assert.equal(await versionOf('nodes', saved.get('id')), '1.36');
    const read = await ctx.store().nodes.get(node.get('id'));
    assert.equal(read.version, Node.version);
    assert.equal(read.get('description'), 'pinned');
  });

  test('a node created at an older version leaves its later columns to their defaults', async () => {
    const old = ctx.storeWith({ targets: OLDER });
    const node = await createNode(old, {
      owner: 'p1',
      lessee: 'p2',
      description: 'newer field',
      retired: true,
      network_data: { links: [] },
      boot_mode: 'uefi',
    });
    const id = node.get('id');
    assert.equal(await versionOf('nodes', id), '1.30');
    const row = await ctx
      .db()
      .kysely.selectFrom('nodes')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.equal(row.owner, 'p1', 'owner came with 1.30');
    assert.equal(row.lessee, null);
    assert.equal(row.description, null);
    assert.equal(Number(row.retired), 0, 'the column default');
    assert.equal(row.boot_mode, null);
    assert.equal(row.network_data, null);
    // Read back: the latest version; the NULL columns are filled and marked for the next save.
    const read = await ctx.store().nodes.get(id);
    assert.equal(read.version, '1.37');
    assert.equal(read.get('lessee'), null);
    assert.equal(read.get('retired'), false);
    assert.deepEqual(read.get('network_data'), {});
    for (const field of [
      'lessee',
      'description',
      'network_data',
      'boot_mode',
      'secure_boot',
      'shard',
    ])
      assert.ok(read.changedFields().has(field as never), field);
    // Columns that hold a value are read as they are, not as changes.
    for (const field of ['owner', 'retired'] as const)
      assert.equal(read.changedFields().has(field), false, field);
    // Saved by an unpinned store, the row moves to the latest version.
    await ctx.store().nodes.save(read);
    assert.equal(await versionOf('nodes', id), '1.37');
  });

  test('ports, portgroups and conductors are written at their target versions too', async () => {
    const old = ctx.storeWith({ targets: OLDER });
    const node = await createNode(old);
    const port = await old.ports.create(
      Port.create({ node_id: node.get('id'), name: 'later', is_smartnic: true }),
    );
    assert.equal(await versionOf('ports', port.get('id')), '1.7');
    assert.equal(port.version, Port.version);
    assert.equal(port.get('name'), null);
    assert.equal(port.get('is_smartnic'), false, 'the column default');
    const pg = await old.portgroups.create(
      Portgroup.create({ node_id: node.get('id'), mode: '802.3ad' }),
    );
    assert.equal(await versionOf('portgroups', pg.get('id')), '1.2');
    // mode came with 1.3: a write at 1.2 leaves the column to its default, read as it is.
    assert.equal(pg.get('mode'), 'active-backup');
    assert.equal(pg.changedFields().has('mode'), false);
    const conductor = await old.conductors.register({
      hostname: `old-${node.get('id')}`,
      drivers: [],
      conductor_group: '',
    });
    const row = await ctx
      .db()
      .kysely.selectFrom('conductors')
      .select('version')
      .where('id', '=', conductor.get('id'))
      .executeTakeFirstOrThrow();
    assert.equal(row.version, '1.2');
  });

  test("pinned to zed, antelope's fields are left as they are and rows carry zed's versions", async () => {
    const pinned = ctx.storeWith({
      targets: ReleasePin.resolve(BAREMETAL_SERVICE.releases, 'zed'),
    });
    const node = await createNode(pinned, { shard: 'shard-a' });
    assert.equal(await versionOf('nodes', node.get('id')), '1.36');
    const shardOf = async (id: number) =>
      (
        await ctx
          .db()
          .kysely.selectFrom('nodes')
          .select('shard')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).shard;
    assert.equal(await shardOf(node.get('id')), null, 'zed cannot write a shard');
    // An unpinned save of a shard, then a pinned save of something else: the shard stays.
    const unpinned = await ctx.store().nodes.save(node.set('shard', 'shard-b'));
    assert.equal(await versionOf('nodes', unpinned.get('id')), '1.37');
    assert.equal(unpinned.get('shard'), 'shard-b');
    const again = await pinned.nodes.get(node.get('id'));
    assert.equal(again.get('shard'), 'shard-b', 'a pinned process reads the latest version');
    await pinned.nodes.save(again.set('description', 'saved by zed'));
    assert.equal(await versionOf('nodes', node.get('id')), '1.36');
    assert.equal(await shardOf(node.get('id')), 'shard-b');
    const read = await ctx.store().nodes.get(node.get('id'));
    assert.equal(read.get('shard'), 'shard-b');
    assert.equal(read.get('description'), 'saved by zed');
    const port = await pinned.ports.create(
      Port.create({ node_id: node.get('id'), pxe_enabled: true }),
    );
    assert.equal(await versionOf('ports', port.get('id')), '1.10');
    // node_uuid is no column: it is read from the node, whatever version the row has.
    assert.equal(port.get('node_uuid'), node.get('uuid'));
    const pg = await pinned.portgroups.create(Portgroup.create({ node_id: node.get('id') }));
    assert.equal(await versionOf('portgroups', pg.get('id')), '1.4');
    assert.equal(pg.get('node_uuid'), node.get('uuid'));
    // NodeInventory is new: zed names no version of it, so it is written at its own 1.0.
    await pinned.inventories.set(
      NodeInventory.create({
        node_id: node.get('id'),
        inventory_data: { cpu: {} },
        plugin_data: {},
      }),
    );
    const inventory = await ctx.store().inventories.get(node.get('id'));
    assert.deepEqual(inventory.get('inventory_data'), { cpu: {} });
    assert.equal(await versionOf('node_inventory', inventory.get('id')), '1.0');
    await ctx.store().nodes.destroy(node.get('uuid') as string);
    await assert.rejects(ctx.store().inventories.get(node.get('id')), /Node inventory record/);
  });

  test('a row at a version this code does not know is refused when read', async () => {
    const node = await createNode(ctx.store());
    await ctx
      .db()
      .kysely.updateTable('nodes')
      .set({ version: '1.99' })
      .where('id', '=', node.get('id'))
      .execute();
    await assert.rejects(ctx.store().nodes.get(node.get('id')), (error: Error) => {
      assert.ok(error instanceof NewerRowError, String(error));
      assert.equal(error.code, 503);
      assert.match(error.message, /written by a newer release of the service \(Node 1\.99\)/);
      return true;
    });
    // A version no release ever had below this code's is the toolkit's refusal, as it was.
    await ctx
      .db()
      .kysely.updateTable('nodes')
      .set({ version: '1.x' })
      .where('id', '=', node.get('id'))
      .execute();
    await assert.rejects(ctx.store().nodes.get(node.get('id')), IncompatibleObjectVersionError);
    await ctx.db().kysely.deleteFrom('nodes').where('id', '=', node.get('id')).execute();
  });
});
