/**
 * The conductor's allocation process on SQLite, PostgreSQL and MariaDB, where the API cannot
 * reach: a locked candidate tried again in the next round (and given up on with the real
 * text), a node named as the allocation preferred over the others, an allocation left
 * `allocating` by a conductor that stopped heartbeating taken over and processed, the
 * deletion refused for a node busy outside maintenance, and a node's allocation deleted by a
 * tear-down and by an update removing its instance (refused outside the allowed states).
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { InvalidStateError } from '../../../src/baremetal/common/errors.ts';
import { doAllocate } from '../../../src/baremetal/conductor/allocations.ts';
import {
  checkOrphanAllocations,
  createAllocation,
  destroyAllocation,
} from '../../../src/baremetal/conductor/manager-allocations.ts';
import { updateNode } from '../../../src/baremetal/conductor/manager-nodes.ts';
import { doNodeTearDown } from '../../../src/baremetal/conductor/manager-provision.ts';
import { Allocation, type AllocationObject, Node } from '../../../src/baremetal/objects/index.ts';
import {
  forEachConductorBackend,
  localTransports,
  settled,
  startTestConductor,
  type TestConductor,
} from './support/conductor-harness.ts';

let serial = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${++serial}`;

forEachConductorBackend('the allocation process', (backend) => {
  let conductor: TestConductor;
  const ctx = () => conductor.conductor.context;

  before(async () => {
    conductor = await startTestConductor({
      url: backend.url(),
      transport: localTransports().transport(),
      settings: { nodeLockedRetryAttempts: 2, nodeLockedRetryInterval: 0.05 },
    });
    backend.onCleanup(() => conductor.stop());
  });

  const availableNode = (rc: string, fields: Record<string, unknown> = {}) =>
    conductor.store.nodes.create(
      Node.create({
        driver: 'fake-hardware',
        name: unique('node'),
        resource_class: rc,
        provision_state: 'available',
        power_state: 'power on',
        ...fields,
      } as never),
    );
  const stored = (rc: string, fields: Parameters<typeof Allocation.create>[0] = {}) =>
    conductor.store.allocations.create(
      Allocation.create({ name: unique('alloc'), resource_class: rc, ...fields }),
    );
  const reread = (allocation: AllocationObject) =>
    conductor.store.allocations.get(String(allocation.get('uuid')));

  it('a locked candidate is tried again next round, then given up with the real text', async () => {
    const rc = unique('rc');
    const node = await availableNode(rc);
    await conductor.store.reservations.reserve('another-host', Number(node.get('id')));
    const first = await stored(rc);
    await doAllocate(ctx(), first);
    const failed = await reread(first);
    assert.equal(failed.get('state'), 'error');
    assert.equal(
      failed.get('last_error'),
      `Failed to process allocation ${first.get('uuid')}: could not reserve any of 1 suitable nodes.`,
    );
    // Freed between the rounds: the second round takes it.
    const second = await stored(rc);
    const release = setTimeout(
      () => void conductor.store.reservations.release('another-host', Number(node.get('id'))),
      20,
    );
    await doAllocate(ctx(), second);
    clearTimeout(release);
    const done = await reread(second);
    assert.equal(done.get('state'), 'active');
    assert.equal(done.get('node_id'), node.get('id'));
  });

  it('a node named as the allocation is preferred over the other candidates', async () => {
    const rc = unique('rc');
    const nodes = await Promise.all([availableNode(rc), availableNode(rc), availableNode(rc)]);
    const wanted = nodes[2] as (typeof nodes)[number];
    const allocation = await stored(rc, { name: String(wanted.get('name')) });
    await doAllocate(ctx(), allocation);
    assert.equal((await reread(allocation)).get('node_id'), wanted.get('id'));
  });

  it('create_allocation records this conductor and processes it in the background', async () => {
    const rc = unique('rc');
    const node = await availableNode(rc);
    const created = await createAllocation(ctx(), Allocation.create({ resource_class: rc }));
    assert.equal(created.get('state'), 'allocating');
    assert.equal(created.get('conductor_affinity'), ctx().conductorId);
    for (let i = 0; i < 200 && (await reread(created)).get('state') === 'allocating'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.equal((await reread(created)).get('node_id'), node.get('id'));
  });

  it('an allocation left allocating by a dead conductor is taken over, once', async () => {
    const rc = unique('rc');
    const node = await availableNode(rc);
    const dead = await conductor.store.conductors.register({
      hostname: unique('dead'),
      drivers: ['fake-hardware'],
      conductor_group: '',
    });
    await conductor.database.kysely
      .updateTable('conductors')
      .set({ updated_at: new Date(Date.now() - 3_600_000) })
      .where('id', '=', Number(dead.get('id')))
      .execute();
    const orphan = await stored(rc, { conductor_affinity: Number(dead.get('id')) });
    await checkOrphanAllocations(ctx());
    const taken = await reread(orphan);
    assert.equal(taken.get('state'), 'active');
    assert.equal(taken.get('node_id'), node.get('id'));
    assert.equal(taken.get('conductor_affinity'), ctx().conductorId);
  });

  it('deleting is refused for a node deploying outside maintenance; a tear-down deletes it', async () => {
    const rc = unique('rc');
    const node = await availableNode(rc, {
      provision_state: 'deploying',
      target_provision_state: 'active',
    });
    const allocation = await stored(rc);
    allocation.set('node_id', node.get('id'));
    const held = await conductor.store.allocations.save(allocation);
    await assert.rejects(
      destroyAllocation(ctx(), held),
      (error: unknown) =>
        error instanceof InvalidStateError &&
        error.message ===
          `Cannot remove allocation ${held.get('uuid')} for node ${node.get('uuid')}, because the node is in state deploying where updates are not allowed (and maintenance mode is off)`,
    );
    node.set('provision_state', 'active');
    node.set('target_provision_state', null);
    await conductor.store.nodes.save(node);
    await doNodeTearDown(ctx(), String(node.get('uuid')));
    const after = await settled(conductor.store, String(node.get('uuid')));
    assert.equal(after.get('allocation_id'), null);
    assert.equal(after.get('instance_uuid'), null);
    await assert.rejects(reread(held), /could not be found/);
  });

  it('an update removing the instance deletes the allocation, where updates are allowed', async () => {
    const rc = unique('rc');
    const node = await availableNode(rc, { provision_state: 'active' });
    const allocation = await stored(rc);
    allocation.set('node_id', node.get('id'));
    await conductor.store.allocations.save(allocation);
    const removing = await conductor.store.nodes.get(String(node.get('uuid')));
    removing.set('instance_uuid', null);
    await assert.rejects(
      updateNode(ctx(), removing),
      /with an allocation can not have instance_uuid removed unless it is in one of allowed \(enroll, inspecting, inspect wait, manageable, available\) states or in maintenance mode\./,
    );
    const inMaintenance = await conductor.store.nodes.get(String(node.get('uuid')));
    inMaintenance.set('maintenance', true);
    await conductor.store.nodes.save(inMaintenance);
    const again = await conductor.store.nodes.get(String(node.get('uuid')));
    again.set('instance_uuid', null);
    const saved = await updateNode(ctx(), again);
    assert.equal(saved.get('allocation_id'), null);
    await assert.rejects(reread(allocation), /could not be found/);
  });
});
