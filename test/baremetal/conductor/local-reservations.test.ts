/**
 * A conductor's unsettled reservations: what a cut database connection may leave in its name
 * (a reserve that committed with its reply lost, a release that may not have committed) is
 * released once the database answers, and never a reservation one of its tasks holds.
 * The cut is injected around the real store call (the UPDATE runs, or does not, on the real
 * database; then the driver's "connection terminated" error is thrown).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  LocalReservations,
  type ReservationStore,
} from '../../../src/baremetal/conductor/local-reservations.ts';
import type { BaremetalStore } from '../../../src/baremetal/db/index.ts';
import { createNode, forEachStoreBackend } from '../support/store-fixtures.ts';

const HOST = 'cond-local';
const cut = () => new Error('Connection terminated unexpectedly');
const QUIET = { info: () => {}, warn: () => {} };

/** The store side, with a switch that makes every call fail as a cut connection would. */
function storeSide(store: BaremetalStore) {
  const state = { away: false };
  const side: ReservationStore = {
    uuidOf: async (ident) => {
      if (state.away) throw cut();
      return String((await store.nodes.get(ident)).get('uuid'));
    },
    release: async (ident) => {
      if (state.away) throw cut();
      await store.reservations.release(HOST, ident);
    },
  };
  return { side, state };
}

async function holder(store: BaremetalStore, uuid: string) {
  return (await store.nodes.get(uuid)).get('reservation');
}

forEachStoreBackend('conductor: unsettled reservations', (ctx) => {
  test('a reserve that committed but lost its reply is released once the database answers', async () => {
    const store = ctx.store();
    const uuid = String((await createNode(store)).get('uuid'));
    const { side, state } = storeSide(store);
    const local = new LocalReservations(side, QUIET, 60_000);
    await assert.rejects(
      local.reserve(uuid, async () => {
        await store.reservations.reserve(HOST, uuid);
        throw cut();
      }),
      /Connection terminated/,
    );
    assert.equal(await holder(store, uuid), HOST, 'the reservation committed');
    assert.deepEqual([...local.unsettled], [uuid]);

    state.away = true;
    await local.settleNow();
    assert.deepEqual([...local.unsettled], [uuid], 'kept while the database is away');
    assert.equal(await holder(store, uuid), HOST);

    state.away = false;
    await local.settleNow();
    assert.deepEqual([...local.unsettled], []);
    assert.equal(await holder(store, uuid), null);
    local.stop();
  });

  test('the node named by its id is settled too', async () => {
    const store = ctx.store();
    const node = await createNode(store);
    const id = Number(node.get('id'));
    const { side } = storeSide(store);
    const local = new LocalReservations(side, QUIET, 60_000);
    await assert.rejects(
      local.reserve(id, async () => {
        await store.reservations.reserve(HOST, id);
        throw cut();
      }),
    );
    await local.settleNow();
    assert.equal(await holder(store, String(node.get('uuid'))), null);
    local.stop();
  });

  test('a reserve that did not commit never frees the node from a task of ours holding it', async () => {
    const store = ctx.store();
    const uuid = String((await createNode(store)).get('uuid'));
    const { side } = storeSide(store);
    const local = new LocalReservations(side, QUIET, 60_000);
    await local.reserve(uuid, () => store.reservations.reserve(HOST, uuid));
    await assert.rejects(
      local.reserve(uuid, async () => {
        throw cut();
      }),
    );
    await local.settleNow();
    assert.deepEqual([...local.unsettled], []);
    assert.equal(await holder(store, uuid), HOST, "the holding task's reservation stays");
    local.released(uuid, true);
    local.stop();
  });

  test('a release that met the database away is done later; a certain one leaves nothing', async () => {
    const store = ctx.store();
    const uuid = String((await createNode(store)).get('uuid'));
    const { side } = storeSide(store);
    const local = new LocalReservations(side, QUIET, 60_000);
    await local.reserve(uuid, () => store.reservations.reserve(HOST, uuid));
    local.released(uuid, false);
    assert.deepEqual([...local.unsettled], [uuid]);
    await local.settleNow();
    assert.equal(await holder(store, uuid), null);

    await local.reserve(uuid, () => store.reservations.reserve(HOST, uuid));
    await store.reservations.release(HOST, uuid);
    local.released(uuid, true);
    assert.deepEqual([...local.unsettled], []);
    local.stop();
  });

  test('settling waits for a reserve in flight, and then leaves the reservation it took', async () => {
    const store = ctx.store();
    const uuid = String((await createNode(store)).get('uuid'));
    const { side } = storeSide(store);
    const local = new LocalReservations(side, QUIET, 60_000);
    // An earlier cut whose UPDATE did not commit: the node is free but unsettled.
    await assert.rejects(
      local.reserve(uuid, async () => {
        throw cut();
      }),
    );
    let letGo: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    const inFlight = local.reserve(uuid, async () => {
      const node = await store.reservations.reserve(HOST, uuid);
      await gate;
      return node;
    });
    const settling = local.settleNow();
    await new Promise((resolve) => setTimeout(resolve, 50));
    letGo();
    await Promise.all([inFlight, settling]);
    assert.equal(await holder(store, uuid), HOST, 'the task that took it still holds it');
    assert.deepEqual([...local.unsettled], []);
    local.released(uuid, true);
    local.stop();
  });

  test('settling happens by itself in the background, and stops with the conductor', async () => {
    const store = ctx.store();
    const uuids = [
      String((await createNode(store)).get('uuid')),
      String((await createNode(store)).get('uuid')),
    ];
    const { side, state } = storeSide(store);
    const local = new LocalReservations(side, QUIET, 20);
    const orphan = async (uuid: string) =>
      assert.rejects(
        local.reserve(uuid, async () => {
          await store.reservations.reserve(HOST, uuid);
          throw cut();
        }),
      );
    state.away = true;
    await orphan(uuids[0] as string);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(await holder(store, uuids[0] as string), HOST, 'still away: still reserved');
    state.away = false;
    const deadline = Date.now() + 5_000;
    while ((await holder(store, uuids[0] as string)) !== null && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(await holder(store, uuids[0] as string), null);

    local.stop();
    await orphan(uuids[1] as string);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(
      await holder(store, uuids[1] as string),
      HOST,
      'a stopped conductor settles nothing',
    );
  });
});
