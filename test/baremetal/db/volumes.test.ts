/**
 * The volume connector and target store on the three backends: created and read by id and UUID,
 * listed by node and by the project of their node, paged, their unique constraints as Ironic's
 * errors (a connector's type and connector ID, a target's node and boot index, a UUID), saved,
 * destroyed, and gone with their node.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DuplicateError, NotFoundError } from '../../../src/baremetal/common/errors.ts';
import { VolumeConnector, VolumeTarget } from '../../../src/baremetal/objects/index.ts';
import { createNode, forEachStoreBackend, unique } from '../support/store-fixtures.ts';

forEachStoreBackend('volume store', (ctx) => {
  test('a connector is read by id and UUID, listed by node and project, and paged', async () => {
    const store = ctx.store();
    const owned = await createNode(store, { owner: unique('project') });
    const other = await createNode(store);
    const iqn = unique('iqn.2017-05.org.example');
    const first = await store.volumeConnectors.create(
      VolumeConnector.create({
        node_id: owned.get('id'),
        type: 'iqn',
        connector_id: iqn,
        extra: { a: 1 },
      }),
    );
    const second = await store.volumeConnectors.create(
      VolumeConnector.create({ node_id: owned.get('id'), type: 'ip', connector_id: iqn }),
    );
    await store.volumeConnectors.create(
      VolumeConnector.create({ node_id: other.get('id'), type: 'wwpn', connector_id: iqn }),
    );
    assert.equal(
      (await store.volumeConnectors.get(Number(first.get('id')))).get('uuid'),
      first.get('uuid'),
    );
    assert.deepEqual((await store.volumeConnectors.get(String(first.get('uuid')))).get('extra'), {
      a: 1,
    });
    const byNode = await store.volumeConnectors.list({ node_id: Number(owned.get('id')) });
    assert.deepEqual(
      byNode.map((c) => c.get('uuid')),
      [first.get('uuid'), second.get('uuid')],
    );
    const byProject = await store.volumeConnectors.list({ project: String(owned.get('owner')) });
    assert.equal(byProject.length, 2);
    const page = await store.volumeConnectors.list(
      { node_id: Number(owned.get('id')) },
      { limit: 1, marker: String(first.get('uuid')) },
    );
    assert.deepEqual(
      page.map((c) => c.get('uuid')),
      [second.get('uuid')],
    );
  });

  test('a connector type and ID, a target node and boot index, and UUIDs are unique', async () => {
    const store = ctx.store();
    const node = await createNode(store);
    const id = unique('wwpn');
    const connector = await store.volumeConnectors.create(
      VolumeConnector.create({ node_id: node.get('id'), type: 'wwpn', connector_id: id }),
    );
    await assert.rejects(
      store.volumeConnectors.create(
        VolumeConnector.create({ node_id: node.get('id'), type: 'wwpn', connector_id: id }),
      ),
      (error: unknown) =>
        error instanceof DuplicateError &&
        error.message ===
          `A volume connector with type wwpn and connector ID ${id} already exists.`,
    );
    await assert.rejects(
      store.volumeConnectors.create(
        VolumeConnector.create({
          uuid: String(connector.get('uuid')),
          node_id: node.get('id'),
          type: 'iqn',
          connector_id: id,
        }),
      ),
      (error: unknown) =>
        error instanceof DuplicateError &&
        error.message === `A volume connector with UUID ${connector.get('uuid')} already exists.`,
    );
    const target = await store.volumeTargets.create(
      VolumeTarget.create({
        node_id: node.get('id'),
        volume_type: 'iscsi',
        boot_index: 0,
        volume_id: unique('vol'),
        properties: { target_lun: 0 },
      }),
    );
    assert.deepEqual(target.get('properties'), { target_lun: 0 });
    const second = await store.volumeTargets.create(
      VolumeTarget.create({
        node_id: node.get('id'),
        volume_type: 'iscsi',
        boot_index: 1,
        volume_id: unique('vol'),
      }),
    );
    second.set('boot_index', 0);
    await assert.rejects(
      store.volumeTargets.save(second),
      (error: unknown) =>
        error instanceof DuplicateError &&
        error.message === "A volume target with boot index '0' for the same node already exists.",
    );
  });

  test('saved and destroyed; a node takes its volumes with it', async () => {
    const store = ctx.store();
    const node = await createNode(store);
    const connector = await store.volumeConnectors.create(
      VolumeConnector.create({ node_id: node.get('id'), type: 'iqn', connector_id: unique('iqn') }),
    );
    connector.set('extra', { b: 2 });
    const saved = await store.volumeConnectors.save(connector);
    assert.deepEqual(saved.get('extra'), { b: 2 });
    assert.ok(saved.get('updated_at'));
    await store.volumeConnectors.destroy(String(connector.get('uuid')));
    await assert.rejects(
      store.volumeConnectors.get(String(connector.get('uuid'))),
      (error: unknown) =>
        error instanceof NotFoundError &&
        error.message === `Volume connector ${connector.get('uuid')} could not be found.`,
    );
    const target = await store.volumeTargets.create(
      VolumeTarget.create({
        node_id: node.get('id'),
        volume_type: 'iscsi',
        boot_index: 0,
        volume_id: 'v',
      }),
    );
    await store.nodes.destroy(String(node.get('uuid')));
    await assert.rejects(store.volumeTargets.get(String(target.get('uuid'))), NotFoundError);
  });
});
