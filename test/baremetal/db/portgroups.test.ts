/** Portgroups: written by the API process; unique address and name; not destroyed with ports. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { DuplicateError, NotEmptyError, NotFoundError } from '../../../src/baremetal/db/index.ts';
import { Portgroup } from '../../../src/baremetal/objects/index.ts';
import {
  createNode,
  createPort,
  forEachStoreBackend,
  unique,
  uniqueMac,
} from '../support/store-fixtures.ts';

forEachStoreBackend('bare metal portgroups', (ctx) => {
  test('a new portgroup gets a uuid, the default mode and standalone ports', async () => {
    const store = ctx.store();
    const node = await createNode(store);
    const pg = await store.portgroups.create(Portgroup.create({ node_id: node.get('id') }));
    assert.match(pg.get('uuid') ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(pg.get('mode'), 'active-backup');
    assert.equal(pg.get('standalone_ports_supported'), true);
    const configured = ctx.storeWith({ defaultPortgroupMode: '802.3ad' });
    const other = await configured.portgroups.create(Portgroup.create({ node_id: node.get('id') }));
    assert.equal(other.get('mode'), '802.3ad');
    const given = await store.portgroups.create(
      Portgroup.create({ node_id: node.get('id'), mode: 'balance-rr' }),
    );
    assert.equal(given.get('mode'), 'balance-rr');
  });

  test('found by id, uuid, address and name; a taken name or address is a typed duplicate', async () => {
    const store = ctx.store();
    const node = await createNode(store);
    const name = unique('bond');
    const address = uniqueMac();
    const pg = await store.portgroups.create(
      Portgroup.create({ node_id: node.get('id'), name, address }),
    );
    const uuid = pg.get('uuid') as string;
    for (const ident of [pg.get('id'), uuid, address, name])
      assert.equal((await store.portgroups.get(ident)).get('uuid'), uuid);
    assert.equal((await store.portgroups.getByAddress(address.toUpperCase())).get('uuid'), uuid);
    await assert.rejects(
      store.portgroups.get(randomUUID()),
      (e: unknown) =>
        e instanceof NotFoundError &&
        e.kind === 'portgroup' &&
        /^Portgroup .* could not be found\.$/.test(e.message),
    );
    await assert.rejects(
      store.portgroups.create(Portgroup.create({ node_id: node.get('id'), name })),
      (e: unknown) =>
        e instanceof DuplicateError &&
        e.field === 'name' &&
        e.message === `A portgroup with name ${name} already exists.`,
    );
    await assert.rejects(
      store.portgroups.create(Portgroup.create({ node_id: node.get('id'), address })),
      (e: unknown) =>
        e instanceof DuplicateError &&
        e.field === 'address' &&
        e.message === `A portgroup with MAC address ${address} already exists.`,
    );
    const second = await store.portgroups.create(Portgroup.create({ node_id: node.get('id') }));
    await assert.rejects(
      store.portgroups.save(second.set('name', name)),
      (e: unknown) => e instanceof DuplicateError && e.field === 'name',
    );
  });

  test('lists by node, address and project', async () => {
    const store = ctx.store();
    const owner = unique('owner');
    const node = await createNode(store, { owner });
    await createNode(store);
    const a = await store.portgroups.create(
      Portgroup.create({ node_id: node.get('id'), address: uniqueMac() }),
    );
    const b = await store.portgroups.create(Portgroup.create({ node_id: node.get('id') }));
    const uuids = async (filters: object) =>
      (await store.portgroups.list({ filters })).map((p) => p.get('uuid'));
    assert.deepEqual(await uuids({ node_id: node.get('id') }), [a.get('uuid'), b.get('uuid')]);
    assert.deepEqual(await uuids({ address: a.get('address') }), [a.get('uuid')]);
    assert.deepEqual(await uuids({ project: owner }), [a.get('uuid'), b.get('uuid')]);
    assert.deepEqual(await uuids({ project: `${owner}-nobody` }), []);
  });

  test('a portgroup with ports cannot be destroyed; without, it can', async () => {
    const store = ctx.store();
    const node = await createNode(store);
    const pg = await store.portgroups.create(Portgroup.create({ node_id: node.get('id') }));
    const port = await createPort(store, node.get('id'), { portgroup_id: pg.get('id') });
    const uuid = pg.get('uuid') as string;
    await assert.rejects(
      store.portgroups.destroy(uuid),
      (e: unknown) =>
        e instanceof NotEmptyError &&
        e.message ===
          `Cannot complete the requested action because portgroup ${uuid} contains ports.`,
    );
    await store.ports.destroy(port.get('uuid') as string);
    await store.portgroups.destroy(uuid);
    await assert.rejects(store.portgroups.destroy(uuid), NotFoundError);
  });
});
