/** Ports: written by the conductor; unique MAC address and name; lookups and lists. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import {
  DuplicateError,
  InvalidIdentityError,
  InvalidParameterError,
  NotFoundError,
} from '../../../src/baremetal/db/index.ts';
import { Port, Portgroup } from '../../../src/baremetal/objects/index.ts';
import {
  createNode,
  createPort,
  forEachStoreBackend,
  unique,
  uniqueMac,
} from '../support/store-fixtures.ts';

forEachStoreBackend('bare metal ports', (ctx) => {
  test('a new port gets a uuid and the column defaults; its address is stored normalized', async () => {
    const store = ctx.store();
    const node = await createNode(store);
    const mac = uniqueMac();
    const port = await store.ports.create(
      Port.create({ node_id: node.get('id'), address: mac.toUpperCase().replaceAll(':', '-') }),
    );
    assert.match(port.get('uuid') ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(port.get('address'), mac);
    assert.equal(port.get('pxe_enabled'), true);
    assert.equal(port.get('is_smartnic'), false);
    assert.deepEqual(port.get('local_link_connection'), {});
    assert.equal(port.version, Port.version);
  });

  test('found by id, uuid, address (any case) and name; otherwise PortNotFound', async () => {
    const store = ctx.store();
    const node = await createNode(store);
    const name = unique('port');
    const port = await createPort(store, node.get('id'), { name });
    const uuid = port.get('uuid') as string;
    const address = port.get('address') as string;
    assert.equal((await store.ports.get(port.get('id'))).get('uuid'), uuid);
    assert.equal((await store.ports.get(uuid)).get('id'), port.get('id'));
    assert.equal((await store.ports.get(address.toUpperCase())).get('uuid'), uuid);
    assert.equal((await store.ports.getByAddress(address)).get('uuid'), uuid);
    assert.equal((await store.ports.getByName(name)).get('uuid'), uuid);
    await assert.rejects(
      store.ports.get(randomUUID()),
      (e: unknown) =>
        e instanceof NotFoundError &&
        e.kind === 'port' &&
        /^Port .* could not be found\.$/.test(e.message),
    );
    await assert.rejects(store.ports.get('not a port'), InvalidIdentityError);
  });

  test('a taken address, name or uuid is a typed duplicate naming the value', async () => {
    const store = ctx.store();
    const node = await createNode(store);
    const name = unique('port');
    const port = await createPort(store, node.get('id'), { name });
    const address = port.get('address') as string;
    await assert.rejects(
      createPort(store, node.get('id'), { address }),
      (e: unknown) =>
        e instanceof DuplicateError &&
        e.kind === 'port' &&
        e.field === 'address' &&
        e.value === address &&
        e.message === `A port with MAC address ${address} already exists.`,
    );
    await assert.rejects(
      createPort(store, node.get('id'), { name }),
      (e: unknown) =>
        e instanceof DuplicateError &&
        e.field === 'name' &&
        e.message === `A port with name ${name} already exists.`,
    );
    const uuid = port.get('uuid') as string;
    await assert.rejects(
      createPort(store, node.get('id'), { uuid }),
      (e: unknown) => e instanceof DuplicateError && e.field === 'uuid',
    );
    const second = await createPort(store, node.get('id'));
    await assert.rejects(
      store.ports.save(second.set('address', address)),
      (e: unknown) => e instanceof DuplicateError && e.field === 'address' && e.value === address,
    );
  });

  test('a port of an unknown node or portgroup is refused with its NotFound', async () => {
    const store = ctx.store();
    await assert.rejects(
      createPort(store, 97_654_321),
      (e: unknown) => e instanceof NotFoundError && e.kind === 'node',
    );
    const node = await createNode(store);
    await assert.rejects(
      createPort(store, node.get('id'), { portgroup_id: 97_654_321 }),
      (e: unknown) => e instanceof NotFoundError && e.kind === 'portgroup',
    );
  });

  test('lists by node, portgroup, address, owner and project, paged', async () => {
    const store = ctx.store();
    const owner = unique('owner');
    const node = await createNode(store, { owner, lessee: `${owner}-lessee` });
    const other = await createNode(store);
    const portgroup = await store.portgroups.create(Portgroup.create({ node_id: node.get('id') }));
    const p1 = await createPort(store, node.get('id'), { portgroup_id: portgroup.get('id') });
    const p2 = await createPort(store, node.get('id'));
    await createPort(store, other.get('id'));
    const uuids = async (filters: object) =>
      (await store.ports.list({ filters })).map((p) => p.get('uuid'));
    const mine = [p1.get('uuid'), p2.get('uuid')];
    assert.deepEqual(await uuids({ node_id: node.get('id') }), mine);
    assert.deepEqual(await uuids({ portgroup_id: portgroup.get('id') }), [p1.get('uuid')]);
    assert.deepEqual(await uuids({ address: p2.get('address') }), [p2.get('uuid')]);
    assert.deepEqual(await uuids({ owner }), mine);
    assert.deepEqual(await uuids({ owner: `${owner}-lessee` }), []);
    assert.deepEqual(await uuids({ project: `${owner}-lessee` }), mine);
    const page = await store.ports.list({
      filters: { node_id: node.get('id') },
      limit: 1,
      marker: p1.get('uuid') as string,
    });
    assert.deepEqual(
      page.map((p) => p.get('uuid')),
      [p2.get('uuid')],
    );
    await assert.rejects(store.ports.list({ sortKey: 'node_uuid' }), InvalidParameterError);
  });

  test('save writes changes; destroy by uuid or address; then PortNotFound', async () => {
    const store = ctx.store();
    const node = await createNode(store);
    const port = await createPort(store, node.get('id'));
    const saved = await store.ports.save(
      port.set('extra', { vif_port_id: 'v1' }).set('pxe_enabled', false),
    );
    assert.deepEqual(saved.get('extra'), { vif_port_id: 'v1' });
    assert.equal(saved.get('pxe_enabled'), false);
    await store.ports.destroy(port.get('address') as string);
    await assert.rejects(store.ports.get(port.get('uuid') as string), NotFoundError);
    await assert.rejects(store.ports.destroy(port.get('uuid') as string), NotFoundError);
    await assert.rejects(store.ports.save(port.set('name', 'x')), NotFoundError);
  });
});
