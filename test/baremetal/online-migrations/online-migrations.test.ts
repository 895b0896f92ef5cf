/**
 * The service's online migrations (update_to_latest_versions over its object tables) and the
 * object tables the version check reads, on the three backends.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NEW_MODELS, OBJECT_TABLES, VERSIONED_TABLES } from '../../../src/baremetal/db/index.ts';
import {
  BAREMETAL_OBJECT_TYPES,
  NodeInventory,
  Port,
  Portgroup,
} from '../../../src/baremetal/objects/index.ts';
import { baremetalOnlineMigrations } from '../../../src/baremetal/online-migrations/index.ts';
import { BAREMETAL_RELEASES } from '../../../src/baremetal/releases.ts';
import {
  findIncompatibleObjectVersions,
  runOnlineMigrations,
  UPDATE_TO_LATEST_VERSIONS,
} from '../../../src/db/index.ts';
import type { VersionTargets } from '../../../src/objects/index.ts';
import { createNode, forEachStoreBackend, unique } from '../support/store-fixtures.ts';

const OLDER: VersionTargets = {
  objectVersion: (name, latest) =>
    ({ Node: '1.30', Port: '1.7', Portgroup: '1.2', Conductor: '1.2' })[name] ?? latest,
};

test('the registry ends with update_to_latest_versions, over every table of a stored type', () => {
  const registry = baremetalOnlineMigrations();
  assert.equal(registry.service, 'baremetal');
  assert.equal(registry.migrations.at(-1)?.name, UPDATE_TO_LATEST_VERSIONS);
  const stored = BAREMETAL_OBJECT_TYPES.filter((t) => t.name !== 'TraitList').map((t) => t.name);
  assert.deepEqual(VERSIONED_TABLES.map((t) => t.type.name).sort(), [...stored].sort());
  assert.deepEqual(OBJECT_TABLES.map((t) => t.objectName).sort(), [...stored].sort());
  // New in antelope: the previous release names no version of it.
  assert.deepEqual(NEW_MODELS, [
    'NodeInventory',
    'Allocation',
    'DeployTemplate',
    'BIOSSetting',
    'NodeHistory',
    'VolumeConnector',
    'VolumeTarget',
  ]);
  assert.equal(BAREMETAL_RELEASES.zed?.objects.NodeInventory, undefined);
  // Ironic's zed names them; Baton's zed had no tables for them.
  assert.equal(BAREMETAL_RELEASES.zed?.objects.Allocation, undefined);
  assert.deepEqual(BAREMETAL_RELEASES.antelope?.objects.DeployTemplate, ['1.1']);
  assert.equal(BAREMETAL_RELEASES.zed?.objects.BIOSSetting, undefined);
  assert.deepEqual(BAREMETAL_RELEASES.antelope?.objects.BIOSSetting, ['1.1']);
  assert.deepEqual(BAREMETAL_RELEASES.antelope?.objects.NodeHistory, ['1.0']);
  assert.equal(BAREMETAL_RELEASES.zed?.objects.VolumeConnector, undefined);
  assert.deepEqual(BAREMETAL_RELEASES.antelope?.objects.VolumeTarget, ['1.0']);
});

forEachStoreBackend('bare metal online migrations', (ctx) => {
  const compatibility = () => ({
    tables: OBJECT_TABLES,
    supported: BAREMETAL_RELEASES.antelope ?? { objects: {} },
    newModels: NEW_MODELS,
  });

  test('rows written at older versions are brought to the latest, data included, in batches', async () => {
    const old = ctx.storeWith({ targets: OLDER });
    const node = await createNode(old, { owner: 'p1' });
    const id = node.get('id');
    await old.traits.set(id, ['CUSTOM_A', 'CUSTOM_B']);
    await old.ports.create(Port.create({ node_id: id, address: '52:54:00:aa:bb:01' }));
    await old.portgroups.create(Portgroup.create({ node_id: id }));
    await old.conductors.register({
      hostname: unique('old-cond'),
      drivers: ['fake-hardware'],
      conductor_group: '',
    });
    const db = ctx.db().kysely;
    // A trait row from before versions were stamped.
    await db
      .updateTable('node_traits')
      .set({ version: null })
      .where('node_id', '=', id)
      .where('trait', '=', 'CUSTOM_A')
      .execute();
    const report = await runOnlineMigrations(ctx.db() as never, baremetalOnlineMigrations(), {
      batchSize: 2,
      batchPauseMs: 0,
      compatibility: undefined,
    });
    assert.equal(report.outcome, 'complete', JSON.stringify(report.migrations));
    assert.ok(report.migrated >= 5, `migrated ${report.migrated}`);
    assert.equal(report.exitStatus, 0);
    const versions = async (
      table: 'nodes' | 'ports' | 'portgroups' | 'conductors' | 'node_traits',
    ) =>
      [
        ...new Set((await db.selectFrom(table).select('version').execute()).map((r) => r.version)),
      ].sort();
    assert.deepEqual(await versions('nodes'), ['1.37']);
    assert.deepEqual(await versions('ports'), ['1.11']);
    assert.deepEqual(await versions('portgroups'), ['1.5']);
    assert.deepEqual(await versions('conductors'), ['1.3']);
    assert.deepEqual(await versions('node_traits'), ['1.0']);
    // The data moved with the version, and nothing else changed.
    const row = await db
      .selectFrom('nodes')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.equal(Number(row.retired), 0);
    assert.equal(row.owner, 'p1');
    const traits = await ctx.store().traits.get(id);
    assert.equal(traits.get('objects').length, 2);
    // Done: a second run finds nothing.
    const again = await runOnlineMigrations(ctx.db() as never, baremetalOnlineMigrations(), {
      batchPauseMs: 0,
    });
    assert.equal(again.migrated, 0);
    assert.equal(again.outcome, 'complete');
  });

  test("the object-version check leaves NodeInventory's table out while it is new", async () => {
    const node = await createNode(ctx.store());
    await ctx
      .store()
      .inventories.set(
        NodeInventory.create({ node_id: node.get('id'), inventory_data: {}, plugin_data: {} }),
      );
    // Checked against a release whose mapping does not name the type (antelope's versions
    // without it), as a previous release's `db upgrade` check would see the table.
    const { NodeInventory: _new, ...objects } = BAREMETAL_RELEASES.antelope?.objects ?? {};
    const previous = { tables: OBJECT_TABLES, supported: { objects } };
    assert.deepEqual(
      await findIncompatibleObjectVersions(ctx.db() as never, {
        ...previous,
        newModels: NEW_MODELS,
      }),
      [],
    );
    const unexcluded = await findIncompatibleObjectVersions(ctx.db() as never, previous);
    assert.deepEqual(
      unexcluded.map((found) => found.objectName),
      ['NodeInventory'],
    );
    await ctx.store().nodes.destroy(String(node.get('uuid')));
  });

  test('the object-version check passes rows this release supports and reports others', async () => {
    assert.deepEqual(await findIncompatibleObjectVersions(ctx.db() as never, compatibility()), []);
    const node = await createNode(ctx.store());
    await ctx
      .db()
      .kysely.updateTable('nodes')
      .set({ version: '1.99' })
      .where('id', '=', node.get('id'))
      .execute();
    const found = await findIncompatibleObjectVersions(ctx.db() as never, compatibility());
    assert.deepEqual(found, [{ table: 'nodes', objectName: 'Node', version: '1.99', count: 1 }]);
    const report = await runOnlineMigrations(ctx.db() as never, baremetalOnlineMigrations(), {
      compatibility: compatibility(),
    });
    assert.equal(report.outcome, 'incompatible');
    assert.equal(report.exitStatus, 2);
    await ctx.db().kysely.deleteFrom('nodes').where('id', '=', node.get('id')).execute();
  });
});
