/** Chassis: created, read, listed, updated and destroyed by the API process. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import {
  DuplicateError,
  InvalidIdentityError,
  InvalidParameterError,
  NotEmptyError,
  NotFoundError,
} from '../../../src/baremetal/db/index.ts';
import { Chassis } from '../../../src/baremetal/objects/index.ts';
import { createChassis, createNode, forEachStoreBackend } from '../support/store-fixtures.ts';

forEachStoreBackend('bare metal chassis', (ctx) => {
  test('create, get by id and uuid, save, list', async () => {
    const store = ctx.store();
    const chassis = await store.chassis.create(
      Chassis.create({ description: 'rack 1', extra: { row: 4 } }),
    );
    const uuid = chassis.get('uuid') as string;
    assert.match(uuid, /^[0-9a-f-]{36}$/);
    assert.deepEqual(chassis.get('extra'), { row: 4 });
    assert.equal((await store.chassis.get(chassis.get('id'))).get('uuid'), uuid);
    chassis.set('description', 'rack 2');
    const saved = await store.chassis.save(chassis);
    assert.equal(saved.get('description'), 'rack 2');
    assert.equal(saved.get('updated_at')?.toDate().toISOString(), ctx.clock.now.toISOString());
    const listed = await store.chassis.list({ sortKey: 'description', sortDir: 'desc' });
    assert.ok(listed.some((c) => c.get('uuid') === uuid));
    await assert.rejects(store.chassis.get(randomUUID()), NotFoundError);
    await assert.rejects(store.chassis.get('rack'), InvalidIdentityError);
    await assert.rejects(store.chassis.list({ sortKey: 'nodes' }), InvalidParameterError);
  });

  test('a taken uuid is ChassisAlreadyExists; a changed uuid is refused on save', async () => {
    const store = ctx.store();
    const chassis = await createChassis(store);
    const uuid = chassis.get('uuid') as string;
    await assert.rejects(
      store.chassis.create(Chassis.create({ uuid })),
      (e: unknown) =>
        e instanceof DuplicateError && e.message === `A chassis with UUID ${uuid} already exists.`,
    );
    await assert.rejects(
      store.chassis.save(chassis.set('uuid', randomUUID())),
      InvalidParameterError,
    );
  });

  test('a chassis with nodes cannot be destroyed; without, it can', async () => {
    const store = ctx.store();
    const chassis = await createChassis(store);
    const node = await createNode(store, { chassis_id: chassis.get('id') });
    const uuid = chassis.get('uuid') as string;
    await assert.rejects(
      store.chassis.destroy(uuid),
      (e: unknown) =>
        e instanceof NotEmptyError &&
        e.message ===
          `Cannot complete the requested action because chassis ${uuid} contains nodes.`,
    );
    await store.nodes.destroy(node.get('id'));
    await store.chassis.destroy(uuid);
    await assert.rejects(store.chassis.get(uuid), NotFoundError);
    await assert.rejects(store.chassis.destroy(uuid), NotFoundError);
  });
});
