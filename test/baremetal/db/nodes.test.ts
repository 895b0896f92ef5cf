/** Node reads and writes (Ironic's create_node, get_node_*, update_node, destroy_node). */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import {
  DuplicateError,
  InstanceAssociatedError,
  InvalidConductorGroupError,
  InvalidIdentityError,
  InvalidParameterError,
  NotFoundError,
} from '../../../src/baremetal/db/index.ts';
import { Node, Portgroup, traitNames } from '../../../src/baremetal/objects/index.ts';
import {
  createChassis,
  createNode,
  createPort,
  forEachStoreBackend,
  unique,
} from '../support/store-fixtures.ts';

forEachStoreBackend('bare metal nodes', (ctx) => {
  test('a new node gets a uuid, enroll, no power state, the column defaults and no traits', async () => {
    const node = await createNode(ctx.store());
    assert.match(node.get('uuid') ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(node.get('provision_state'), 'enroll');
    assert.equal(node.get('power_state'), null);
    assert.equal(node.get('maintenance'), false);
    assert.equal(node.get('console_enabled'), false);
    assert.equal(node.get('protected'), false);
    assert.equal(node.get('retired'), false);
    assert.equal(node.get('conductor_group'), '');
    assert.deepEqual(node.get('properties'), {});
    assert.equal(node.get('created_at')?.toDate().toISOString(), ctx.clock.now.toISOString());
    assert.equal(node.get('updated_at'), null);
    const traits = node.get('traits');
    assert.ok(traits);
    assert.deepEqual(traitNames(traits), []);
    assert.equal(node.version, Node.version);
    assert.equal(node.changedFields().size, 0);
  });

  test('values given are kept: dicts as written, key order included, datetimes, booleans', async () => {
    const properties = { memory_mb: 4096, cpus: 8, local_gb: 10, nested: { z: 1, a: [1, 'b'] } };
    const node = await createNode(ctx.store(), {
      properties,
      maintenance: true,
      maintenance_reason: 'fans',
      provision_updated_at: '2025-01-02T03:04:05Z' as never,
      conductor_group: 'Rack-1',
    });
    const read = await ctx.store().nodes.get(node.get('id'));
    assert.deepEqual(read.get('properties'), properties);
    assert.deepEqual(Object.keys(read.get('properties') ?? {}), Object.keys(properties));
    assert.equal(read.get('maintenance'), true);
    assert.equal(
      read.get('provision_updated_at')?.toDate().toISOString(),
      '2025-01-02T03:04:05.000Z',
    );
    // Lower-cased, as Ironic stores it.
    assert.equal(read.get('conductor_group'), 'rack-1');
  });

  test('a node is found by id, uuid, name and instance; otherwise the typed error names it', async () => {
    const instance = randomUUID();
    const node = await createNode(ctx.store(), { instance_uuid: instance });
    const uuid = node.get('uuid') as string;
    const nodes = ctx.store().nodes;
    assert.equal((await nodes.get(node.get('id'))).get('uuid'), uuid);
    assert.equal((await nodes.get(String(node.get('id')))).get('uuid'), uuid);
    assert.equal((await nodes.get(uuid)).get('id'), node.get('id'));
    assert.equal((await nodes.getByName(node.get('name') as string)).get('uuid'), uuid);
    assert.equal((await nodes.getByInstance(instance)).get('uuid'), uuid);
    await assert.rejects(nodes.get('not-an-id'), InvalidIdentityError);
    await assert.rejects(nodes.getByInstance('nope'), /Expected a UUID but received nope/);
    const missing = randomUUID();
    await assert.rejects(
      nodes.get(missing),
      (e: unknown) =>
        e instanceof NotFoundError &&
        e.kind === 'node' &&
        e.message === `Node ${missing} could not be found.`,
    );
    await assert.rejects(nodes.getByName('no-such-node'), NotFoundError);
    await assert.rejects(nodes.getByInstance(missing), /Instance .* could not be found/);
  });

  test('a taken name, uuid or instance is a typed duplicate naming the value', async () => {
    const store = ctx.store();
    const first = await createNode(store, { instance_uuid: randomUUID() });
    const name = first.get('name') as string;
    await assert.rejects(
      createNode(store, { name }),
      (e: unknown) =>
        e instanceof DuplicateError &&
        e.field === 'name' &&
        e.value === name &&
        e.message === `A node with name ${name} already exists.`,
    );
    const uuid = first.get('uuid') as string;
    await assert.rejects(
      createNode(store, { uuid }),
      (e: unknown) =>
        e instanceof DuplicateError &&
        e.field === 'uuid' &&
        e.message === `A node with UUID ${uuid} already exists.`,
    );
    const instance = first.get('instance_uuid') as string;
    await assert.rejects(createNode(store, { instance_uuid: instance }), InstanceAssociatedError);
    // A rename onto a taken name, through save.
    const second = await createNode(store);
    second.set('name', name);
    await assert.rejects(
      store.nodes.save(second),
      (e: unknown) => e instanceof DuplicateError && e.field === 'name',
    );
  });

  test('a node in an unknown chassis is refused with ChassisNotFound; a known one is kept', async () => {
    const store = ctx.store();
    await assert.rejects(
      createNode(store, { chassis_id: 987654 }),
      (e: unknown) => e instanceof NotFoundError && e.kind === 'chassis',
    );
    const chassis = await createChassis(store);
    const node = await createNode(store, { chassis_id: chassis.get('id') });
    assert.equal(node.get('chassis_id'), chassis.get('id'));
  });

  test('save writes the changes; a provision state change stamps provision_updated_at', async () => {
    const store = ctx.store();
    const node = await createNode(store);
    assert.equal(node.get('provision_updated_at'), null);
    ctx.clock.now = new Date('2026-03-01T12:05:00.000Z');
    node.set('description', 'renamed');
    const described = await store.nodes.save(node);
    assert.equal(described.get('description'), 'renamed');
    assert.equal(described.get('provision_updated_at'), null, 'no provision change, no stamp');
    assert.equal(described.get('updated_at')?.toDate().toISOString(), '2026-03-01T12:05:00.000Z');
    ctx.clock.now = new Date('2026-03-01T12:06:00.000Z');
    described.set('provision_state', 'manageable');
    const managed = await store.nodes.save(described);
    assert.equal(managed.get('provision_state'), 'manageable');
    assert.equal(
      managed.get('provision_updated_at')?.toDate().toISOString(),
      '2026-03-01T12:06:00.000Z',
    );
  });

  test('inspection times follow the provision state as in Ironic', async () => {
    const store = ctx.store();
    let node = await createNode(store, { provision_state: 'manageable' });
    ctx.clock.now = new Date('2026-03-01T13:00:00.000Z');
    node = await store.nodes.save(node.set('provision_state', 'inspecting'));
    assert.equal(
      node.get('inspection_started_at')?.toDate().toISOString(),
      '2026-03-01T13:00:00.000Z',
    );
    ctx.clock.now = new Date('2026-03-01T13:01:00.000Z');
    node = await store.nodes.save(node.set('provision_state', 'manageable'));
    assert.equal(
      node.get('inspection_finished_at')?.toDate().toISOString(),
      '2026-03-01T13:01:00.000Z',
    );
    assert.equal(node.get('inspection_started_at'), null);
  });

  test('save refuses a new uuid, bad integer properties and a bad conductor group, writing nothing', async () => {
    const store = ctx.store();
    const node = await createNode(store, { description: 'before' });
    const uuid = node.get('uuid');
    await assert.rejects(
      store.nodes.save(node.clone().set('uuid', randomUUID())),
      /Cannot overwrite UUID for an existing Node\./,
    );
    await assert.rejects(
      store.nodes.save(
        node.clone().set('properties', { cpus: 'eight', memory_mb: -1, local_gb: '20' }),
      ),
      (e: unknown) =>
        e instanceof InvalidParameterError &&
        e.message ===
          `The following properties for node ${uuid} should be non-negative integers, but provided values are: cpus=eight, memory_mb=-1`,
    );
    await assert.rejects(
      store.nodes.save(
        node.clone().set('conductor_group', 'bad group!').set('description', 'after'),
      ),
      InvalidConductorGroupError,
    );
    assert.equal((await store.nodes.get(uuid as string)).get('description'), 'before');
  });

  test('over-long last_error and maintenance_reason are cut to log_in_db_max_size', async () => {
    const store = ctx.storeWith({ logInDbMaxSize: 10 });
    const node = await createNode(store);
    const saved = await store.nodes.save(node.set('last_error', 'x'.repeat(50)));
    assert.equal(saved.get('last_error'), 'x'.repeat(10));
  });

  test('a saved node that was deleted meanwhile is NodeNotFound', async () => {
    const store = ctx.store();
    const node = await createNode(store);
    await store.nodes.destroy(node.get('uuid') as string);
    await assert.rejects(store.nodes.save(node.set('description', 'gone')), NotFoundError);
  });

  test('destroying a node removes its ports, portgroups, traits and tags', async () => {
    const store = ctx.store();
    const node = await createNode(store);
    const id = node.get('id');
    const portgroup = await store.portgroups.create(
      Portgroup.create({ node_id: id, name: unique('pg') }),
    );
    await createPort(store, id, { portgroup_id: portgroup.get('id') });
    await createPort(store, id);
    await store.traits.set(id, ['CUSTOM_A', 'CUSTOM_B']);
    await ctx
      .db()
      .kysely.insertInto('node_tags')
      .values({ node_id: id, tag: 'blue', created_at: null, updated_at: null, version: null })
      .execute();
    const other = await createNode(store);
    await createPort(store, other.get('id'));
    await store.nodes.destroy(id);
    const count = async (table: 'ports' | 'portgroups' | 'node_traits' | 'node_tags') =>
      (
        await ctx
          .db()
          .kysely.selectFrom(table)
          .select('node_id')
          .where('node_id', '=', id)
          .execute()
      ).length;
    for (const table of ['ports', 'portgroups', 'node_traits', 'node_tags'] as const)
      assert.equal(await count(table), 0, table);
    await assert.rejects(store.nodes.get(id), NotFoundError);
    assert.equal((await store.ports.list({ filters: { node_id: other.get('id') } })).length, 1);
    await assert.rejects(store.nodes.destroy(id), NotFoundError);
    await assert.rejects(store.nodes.destroy('bad ident'), InvalidIdentityError);
  });

  test('a node is found by the addresses of its ports', async () => {
    const store = ctx.store();
    const node = await createNode(store);
    const port = await createPort(store, node.get('id'));
    const found = await store.nodes.getByPortAddresses([
      port.get('address') as string,
      '00:00:00:00:00:01',
    ]);
    assert.equal(found.get('id'), node.get('id'));
    await assert.rejects(store.nodes.getByPortAddresses(['00:00:00:00:00:01']), NotFoundError);
  });

  test('touching the provisioning stamps provision_updated_at only', async () => {
    const store = ctx.store();
    const node = await createNode(store);
    ctx.clock.now = new Date('2026-03-02T00:00:00.000Z');
    await store.nodes.touchProvisioning(node.get('uuid') as string);
    const read = await store.nodes.get(node.get('id'));
    assert.equal(
      read.get('provision_updated_at')?.toDate().toISOString(),
      '2026-03-02T00:00:00.000Z',
    );
    await assert.rejects(store.nodes.touchProvisioning(randomUUID()), NotFoundError);
  });
});
