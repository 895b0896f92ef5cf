/**
 * The allocation store on the three backends: created in `allocating`, found by id, UUID and
 * name, listed with the real filters and pages, a node taken for an allocation in the same
 * write (its instance_uuid, allocation_id and instance_info.traits), refused when it has
 * another instance, freed when the allocation goes, and gone with its node.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import {
  DuplicateError,
  InstanceAssociatedError,
  NodeAssociatedError,
  NotFoundError,
} from '../../../src/baremetal/common/errors.ts';
import { Allocation } from '../../../src/baremetal/objects/index.ts';
import { createNode, forEachStoreBackend, unique } from '../support/store-fixtures.ts';

forEachStoreBackend('allocation store', (ctx) => {
  const newAllocation = (fields: Parameters<typeof Allocation.create>[0] = {}) =>
    ctx
      .store()
      .allocations.create(
        Allocation.create({ resource_class: 'rc-a', name: unique('alloc'), ...fields }),
      );

  test('a new allocation gets a UUID and the allocating state, and is found every way', async () => {
    const created = await newAllocation({ traits: ['CUSTOM_A'], extra: { k: 'v' } });
    const uuid = String(created.get('uuid'));
    assert.match(uuid, /^[0-9a-f-]{36}$/);
    assert.equal(created.get('state'), 'allocating');
    assert.deepEqual(created.get('traits'), ['CUSTOM_A']);
    assert.equal(created.get('candidate_nodes'), null);
    assert.deepEqual(created.get('extra'), { k: 'v' });
    assert.equal(created.version, '1.1');
    const store = ctx.store().allocations;
    assert.equal((await store.get(uuid)).get('id'), created.get('id'));
    assert.equal((await store.get(Number(created.get('id')))).get('uuid'), uuid);
    assert.equal((await store.getByName(String(created.get('name')))).get('uuid'), uuid);
    await assert.rejects(store.get(randomUUID()), NotFoundError);
    await assert.rejects(store.getByName('no-such'), /Allocation no-such could not be found\./);
  });

  test('a taken name or UUID is the real conflict', async () => {
    const first = await newAllocation();
    await assert.rejects(
      newAllocation({ name: String(first.get('name')) }),
      (error: unknown) =>
        error instanceof DuplicateError &&
        error.message === `An allocation with name ${first.get('name')} already exists.`,
    );
    await assert.rejects(
      newAllocation({ uuid: String(first.get('uuid')) }),
      (error: unknown) =>
        error instanceof DuplicateError &&
        error.message === `An allocation with UUID ${first.get('uuid')} already exists.`,
    );
  });

  test('saving a node into it takes the node in the same write; destroying frees it', async () => {
    const node = await createNode(ctx.store(), { instance_info: { image_source: 'x' } });
    const allocation = await newAllocation({ traits: ['CUSTOM_GPU'] });
    allocation.set('node_id', node.get('id'));
    allocation.set('state', 'active');
    const saved = await ctx.store().allocations.save(allocation);
    assert.equal(saved.get('node_id'), node.get('id'));
    const taken = await ctx.store().nodes.get(Number(node.get('id')));
    assert.equal(taken.get('allocation_id'), saved.get('id'));
    assert.equal(taken.get('instance_uuid'), saved.get('uuid'));
    assert.deepEqual(taken.get('instance_info'), {
      image_source: 'x',
      traits: ['CUSTOM_GPU'],
    });
    await ctx.store().allocations.destroy(String(saved.get('uuid')));
    const freed = await ctx.store().nodes.get(Number(node.get('id')));
    assert.equal(freed.get('allocation_id'), null);
    assert.equal(freed.get('instance_uuid'), null);
    // As Ironic's destroy_allocation: the traits it wrote stay in instance_info.
    assert.deepEqual(freed.get('instance_info'), { image_source: 'x', traits: ['CUSTOM_GPU'] });
    await assert.rejects(ctx.store().allocations.get(String(saved.get('uuid'))), NotFoundError);
  });

  test('a node with another instance is NodeAssociated; an allocation UUID used as an instance elsewhere is InstanceAssociated', async () => {
    const busy = await createNode(ctx.store(), { instance_uuid: randomUUID() });
    const allocation = await newAllocation();
    allocation.set('node_id', busy.get('id'));
    await assert.rejects(ctx.store().allocations.save(allocation), NodeAssociatedError);
    // Nothing of the refused write stayed.
    const again = await ctx.store().allocations.get(String(allocation.get('uuid')));
    assert.equal(again.get('node_id'), null);
    const uuid = randomUUID();
    await createNode(ctx.store(), { instance_uuid: uuid });
    const free = await createNode(ctx.store());
    const clash = await newAllocation({ uuid });
    clash.set('node_id', free.get('id'));
    await assert.rejects(
      ctx.store().allocations.save(clash),
      (error: unknown) =>
        error instanceof InstanceAssociatedError &&
        error.message ===
          `Instance ${uuid} is already associated with a node, it cannot be associated with this other node ${free.get('uuid')}`,
    );
  });

  test('lists filter by node, state, resource class and owner, and page by UUID', async () => {
    const rc = unique('rc');
    const a = await newAllocation({ resource_class: rc, owner: 'p1' });
    const b = await newAllocation({ resource_class: rc, owner: 'p2' });
    const c = await newAllocation({ resource_class: rc, owner: 'p1' });
    const list = ctx.store().allocations.list;
    const uuids = (items: { get(f: 'uuid'): string | null }[]) => items.map((i) => i.get('uuid'));
    assert.deepEqual(uuids(await list({ resource_class: rc })), uuids([a, b, c]));
    assert.deepEqual(uuids(await list({ resource_class: rc, owner: 'p1' })), uuids([a, c]));
    assert.deepEqual(
      uuids(await list({ resource_class: rc }, { limit: 1, marker: String(a.get('uuid')) })),
      uuids([b]),
    );
    assert.deepEqual(
      uuids(await list({ resource_class: rc }, { sortKey: 'owner', sortDir: 'desc' })),
      uuids([b, c, a]),
    );
    assert.deepEqual(await list({ resource_class: rc, state: 'active' }), []);
    const node = await createNode(ctx.store());
    b.set('node_id', node.get('id'));
    await ctx.store().allocations.save(b);
    assert.deepEqual(uuids(await list({ node_id: Number(node.get('id')) })), uuids([b]));
    await assert.rejects(list({}, { marker: randomUUID() }), NotFoundError);
  });

  test("a node's allocations go with it", async () => {
    const node = await createNode(ctx.store(), { maintenance: true });
    const allocation = await newAllocation();
    allocation.set('node_id', node.get('id'));
    await ctx.store().allocations.save(allocation);
    await ctx.store().nodes.destroy(String(node.get('uuid')));
    await assert.rejects(
      ctx.store().allocations.get(String(allocation.get('uuid'))),
      NotFoundError,
    );
  });

  test('a take-over succeeds for one conductor only', async () => {
    const register = (hostname: string) =>
      ctx
        .store()
        .conductors.register({ hostname, drivers: ['fake-hardware'], conductor_group: '' });
    const [gone, one, two] = await Promise.all([
      register(unique('gone')),
      register(unique('one')),
      register(unique('two')),
    ]);
    const allocation = await newAllocation({ conductor_affinity: Number(gone.get('id')) });
    const id = Number(allocation.get('id'));
    const outcomes = await Promise.all([
      ctx.store().allocations.takeOver(id, Number(gone.get('id')), Number(one.get('id'))),
      ctx.store().allocations.takeOver(id, Number(gone.get('id')), Number(two.get('id'))),
    ]);
    assert.deepEqual(outcomes.sort(), [false, true]);
  });
});
