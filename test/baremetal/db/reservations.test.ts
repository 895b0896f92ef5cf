/** Node reservations: taken atomically, released by the holder only, cleared for dead hosts. */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import {
  ABORTED_POWER_OPERATION,
  type BaremetalTables,
  createBaremetalStore,
  InvalidIdentityError,
  LATEST_VERSIONS,
  NewerRowError,
  NodeLockedError,
  NodeNotLockedError,
  NotFoundError,
} from '../../../src/baremetal/db/index.ts';
import { type Database, openDatabase } from '../../../src/db/index.ts';
import { createNode, forEachStoreBackend } from '../support/store-fixtures.ts';

forEachStoreBackend('bare metal node reservations', (ctx) => {
  test('reserve takes a free node for the host and returns it reserved', async () => {
    const store = ctx.store();
    const node = await createNode(store);
    const reserved = await store.reservations.reserve('cond-1', node.get('uuid') as string);
    assert.equal(reserved.get('reservation'), 'cond-1');
    assert.equal(reserved.get('id'), node.get('id'));
    assert.ok(reserved.isSet('traits'));
    assert.equal((await store.nodes.get(node.get('id'))).get('reservation'), 'cond-1');
  });

  test('a reservation never outlives a failed read of its node (a row too new to read)', async () => {
    const store = ctx.store();
    const node = await createNode(store);
    const id = node.get('id');
    // A newer release saved it at a version this code does not know.
    await ctx
      .db()
      .kysely.updateTable('nodes')
      .set({ version: '1.99' })
      .where('id', '=', id)
      .execute();
    for (const ident of [id, node.get('uuid') as string]) {
      await assert.rejects(store.reservations.reserve('cond-1', ident), NewerRowError);
      const row = await ctx
        .db()
        .kysely.selectFrom('nodes')
        .select('reservation')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      assert.equal(row.reservation, null);
    }
    await ctx.db().kysely.deleteFrom('nodes').where('id', '=', id).execute();
  });

  test('a reserved node is NodeLocked, naming the holder, even for the holder itself', async () => {
    const store = ctx.store();
    const node = await createNode(store);
    const uuid = node.get('uuid') as string;
    await store.reservations.reserve('cond-1', node.get('id'));
    for (const host of ['cond-2', 'cond-1']) {
      await assert.rejects(
        store.reservations.reserve(host, uuid),
        (e: unknown) =>
          e instanceof NodeLockedError &&
          e.node === uuid &&
          e.host === 'cond-1' &&
          e.message ===
            `Node ${uuid} is locked by host cond-1, please retry after the current operation is completed.`,
      );
    }
  });

  test('release by the holder frees the node; by another host it is NodeLocked; when free NodeNotLocked', async () => {
    const store = ctx.store();
    const node = await createNode(store);
    const uuid = node.get('uuid') as string;
    await store.reservations.reserve('cond-1', uuid);
    await assert.rejects(
      store.reservations.release('cond-2', uuid),
      (e: unknown) => e instanceof NodeLockedError && e.host === 'cond-1',
    );
    await store.reservations.release('cond-1', uuid);
    assert.equal((await store.nodes.get(uuid)).get('reservation'), null);
    await assert.rejects(store.reservations.release('cond-1', uuid), NodeNotLockedError);
    // Free again: another host may take it.
    assert.equal(
      (await store.reservations.reserve('cond-2', node.get('id'))).get('reservation'),
      'cond-2',
    );
  });

  test('unknown nodes and bad identities are refused', async () => {
    const store = ctx.store();
    await assert.rejects(store.reservations.reserve('cond-1', randomUUID()), NotFoundError);
    await assert.rejects(store.reservations.reserve('cond-1', 99_999_999), NotFoundError);
    await assert.rejects(store.reservations.release('cond-1', randomUUID()), NotFoundError);
    await assert.rejects(store.reservations.reserve('cond-1', 'node name'), InvalidIdentityError);
  });

  test('clearing the reservations of dead hosts frees exactly their nodes, host case aside', async () => {
    const store = ctx.store();
    const dead = `Dead-${randomUUID().slice(0, 8)}`;
    const a = await createNode(store);
    const b = await createNode(store);
    const c = await createNode(store);
    await store.reservations.reserve(dead, a.get('id'));
    await store.reservations.reserve(dead.toLowerCase(), b.get('id'));
    await store.reservations.reserve('alive-host', c.get('id'));
    const cleared = await store.reservations.clearForHosts([dead.toUpperCase()]);
    assert.deepEqual(cleared.sort(), [a.get('uuid'), b.get('uuid')].sort());
    assert.equal((await store.nodes.get(a.get('id'))).get('reservation'), null);
    assert.equal((await store.nodes.get(c.get('id'))).get('reservation'), 'alive-host');
    assert.deepEqual(await store.reservations.clearForHosts([]), []);
  });

  test("a restarted conductor's held nodes lose their target power state, with last_error", async () => {
    const store = ctx.store();
    const host = `restarted-${randomUUID().slice(0, 8)}`;
    const waiting = await createNode(store, { target_power_state: 'power on', reservation: host });
    const idle = await createNode(store, { reservation: host });
    assert.deepEqual(await store.reservations.clearTargetPowerState(host), [waiting.get('uuid')]);
    const read = await store.nodes.get(waiting.get('id'));
    assert.equal(read.get('target_power_state'), null);
    assert.equal(read.get('last_error'), ABORTED_POWER_OPERATION);
    assert.equal((await store.nodes.get(idle.get('id'))).get('last_error'), null);
  });

  // Two processes' connections racing for the same nodes: each node goes to exactly one.
  let other: Database<BaremetalTables> | undefined;
  before(async () => {
    other = await openDatabase<BaremetalTables>(ctx.url());
  });
  after(async () => {
    await other?.close();
  });

  test('two concurrent reserves of one node: exactly one wins, the other is told who', async () => {
    const first = ctx.store();
    const second = createBaremetalStore(other as Database<BaremetalTables>, {
      targets: LATEST_VERSIONS,
    });
    const nodes = await Promise.all(Array.from({ length: 12 }, () => createNode(first)));
    const outcomes = await Promise.all(
      nodes.map((node) =>
        Promise.allSettled([
          first.reservations.reserve('racer-a', node.get('uuid') as string),
          second.reservations.reserve('racer-b', node.get('uuid') as string),
        ]),
      ),
    );
    const winners = { 'racer-a': 0, 'racer-b': 0 };
    for (const [i, pair] of outcomes.entries()) {
      const won = pair.filter((o) => o.status === 'fulfilled');
      const lost = pair.filter((o) => o.status === 'rejected');
      assert.equal(won.length, 1, 'exactly one reserve wins');
      assert.equal(lost.length, 1);
      const holder = (
        won[0] as PromiseFulfilledResult<{ get(f: 'reservation'): string | null }>
      ).value.get('reservation') as 'racer-a' | 'racer-b';
      winners[holder] += 1;
      const error = (lost[0] as PromiseRejectedResult).reason;
      assert.ok(error instanceof NodeLockedError, String(error));
      assert.equal(error.host, holder);
      assert.equal(
        (await first.nodes.get(nodes[i]?.get('id') as number)).get('reservation'),
        holder,
      );
    }
    assert.equal(winners['racer-a'] + winners['racer-b'], nodes.length);
  });
});
