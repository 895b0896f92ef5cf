/** A node's traits: set all, add one, remove one, list; at most 50; per node. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  InvalidParameterError,
  MAX_TRAITS_PER_NODE,
  NodeTraitNotFoundError,
  NotFoundError,
} from '../../../src/baremetal/db/index.ts';
import { Trait, traitNames } from '../../../src/baremetal/objects/index.ts';
import { createNode, forEachStoreBackend } from '../support/store-fixtures.ts';

forEachStoreBackend('bare metal node traits', (ctx) => {
  test("set replaces all of a node's traits (duplicates once); other nodes keep theirs", async () => {
    const store = ctx.store();
    const node = await createNode(store);
    const other = await createNode(store);
    await store.traits.set(other.get('id'), ['CUSTOM_OTHER']);
    const first = await store.traits.set(node.get('id'), ['CUSTOM_B', 'CUSTOM_A', 'CUSTOM_B']);
    assert.deepEqual(traitNames(first), ['CUSTOM_A', 'CUSTOM_B']);
    const second = await store.traits.set(node.get('id'), ['CUSTOM_C']);
    assert.deepEqual(traitNames(second), ['CUSTOM_C']);
    assert.deepEqual(traitNames(await store.traits.get(other.get('id'))), ['CUSTOM_OTHER']);
    const read = await store.nodes.get(node.get('id'));
    assert.deepEqual(traitNames(read.get('traits') as never), ['CUSTOM_C']);
    const [trait] = second.get('objects');
    assert.equal(trait?.get('node_id'), String(node.get('id')));
    assert.equal(trait?.version, Trait.version);
    await store.traits.unset(node.get('id'));
    assert.deepEqual(traitNames(await store.traits.get(node.get('id'))), []);
  });

  test('add is idempotent; remove of a trait the node lacks is NodeTraitNotFound', async () => {
    const store = ctx.store();
    const node = await createNode(store);
    const id = node.get('id');
    const added = await store.traits.add(id, 'CUSTOM_X');
    assert.equal(added.get('trait'), 'CUSTOM_X');
    await store.traits.add(id, 'CUSTOM_X');
    assert.deepEqual(traitNames(await store.traits.get(id)), ['CUSTOM_X']);
    assert.equal(await store.traits.exists(id, 'CUSTOM_X'), true);
    await store.traits.remove(id, 'CUSTOM_X');
    assert.equal(await store.traits.exists(id, 'CUSTOM_X'), false);
    await assert.rejects(
      store.traits.remove(id, 'CUSTOM_X'),
      (e: unknown) =>
        e instanceof NodeTraitNotFoundError &&
        e.trait === 'CUSTOM_X' &&
        e.message === `Node ${id} doesn't have a trait 'CUSTOM_X'`,
    );
    // Another node's trait is not this node's.
    const other = await createNode(store);
    await store.traits.add(other.get('id'), 'CUSTOM_Y');
    await assert.rejects(store.traits.remove(id, 'CUSTOM_Y'), NodeTraitNotFoundError);
  });

  test('more than 50 traits are refused, by set and by add, and nothing changes', async () => {
    const store = ctx.store();
    const node = await createNode(store);
    const id = node.get('id');
    const many = Array.from({ length: MAX_TRAITS_PER_NODE + 1 }, (_, i) => `CUSTOM_T${i}`);
    await assert.rejects(
      store.traits.set(id, many),
      (e: unknown) =>
        e instanceof InvalidParameterError &&
        e.message ===
          `Could not modify traits for node ${id} as it would exceed the maximum number of traits per node (51 vs. 50)`,
    );
    await store.traits.set(id, many.slice(0, MAX_TRAITS_PER_NODE));
    await assert.rejects(store.traits.add(id, 'CUSTOM_ONE_MORE'), InvalidParameterError);
    assert.equal((await store.traits.get(id)).get('objects').length, MAX_TRAITS_PER_NODE);
    assert.equal(await store.traits.exists(id, 'CUSTOM_ONE_MORE'), false);
  });

  test('traits of an unknown node are NodeNotFound', async () => {
    const store = ctx.store();
    for (const call of [
      () => store.traits.get(98_765_432),
      () => store.traits.set(98_765_432, ['CUSTOM_A']),
      () => store.traits.add(98_765_432, 'CUSTOM_A'),
      () => store.traits.remove(98_765_432, 'CUSTOM_A'),
      () => store.traits.unset(98_765_432),
    ]) {
      await assert.rejects(call(), (e: unknown) => e instanceof NotFoundError && e.kind === 'node');
    }
  });
});
