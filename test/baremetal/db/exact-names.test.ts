/**
 * Node, port and portgroup names mean the same on every database: compared byte for byte, so
 * names that differ only by case are two names (MariaDB's default collation made them one:
 * migration 0003) and a lookup finds only its exact name.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NotFoundError } from '../../../src/baremetal/db/index.ts';
import { Portgroup } from '../../../src/baremetal/objects/index.ts';
import { createNode, createPort, forEachStoreBackend, unique } from '../support/store-fixtures.ts';

forEachStoreBackend('bare metal names, byte for byte', (ctx) => {
  test('nodes named alike but for case are two nodes, each found by its own name only', async () => {
    const store = ctx.store();
    const name = unique('Node-A');
    const upper = await createNode(store, { name });
    const lower = await createNode(store, { name: name.toLowerCase() });
    assert.notEqual(upper.get('id'), lower.get('id'));
    assert.equal((await store.nodes.getByName(name)).get('id'), upper.get('id'));
    assert.equal((await store.nodes.getByName(name.toLowerCase())).get('id'), lower.get('id'));
    await assert.rejects(store.nodes.getByName(name.toUpperCase()), NotFoundError);
  });

  test('ports and portgroups too', async () => {
    const store = ctx.store();
    const node = await createNode(store);
    const name = unique('Bond-A');
    for (const each of [name, name.toLowerCase()]) {
      await store.portgroups.create(Portgroup.create({ node_id: node.get('id'), name: each }));
      await createPort(store, node.get('id') as number, { name: `port-${each}` });
    }
    assert.equal((await store.portgroups.getByName(name)).get('name'), name);
    await assert.rejects(store.portgroups.getByName(name.toUpperCase()), NotFoundError);
  });
});
