/**
 * update_node's optimistic check (RPC 1.3, `expected_values`), on SQLite, PostgreSQL and
 * MariaDB: an update computed from a read that another writer has since made stale is refused
 * with NodeChanged (409) naming the fields, and nothing is written; a change to fields the
 * update did not read (a power action) does not refuse it; a dictionary changed key by key is
 * merged with the keys another update changed, and a key both changed refuses it; a field the
 * conductor derives from
 * the request (a maintenance reason cleared) is checked against the read too; an update sent
 * without expected values (an API capped below 1.3) is applied as it comes, as before; a node
 * another conductor holds is still NodeLocked.
 */
import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { NodeChangedError, NodeLockedError } from '../../../src/baremetal/common/errors.ts';
import type { NodeObject } from '../../../src/baremetal/objects/index.ts';
import type { ConductorApi } from '../../../src/baremetal/rpcapi/index.ts';
import { BAREMETAL_SERVICE } from '../../../src/baremetal/service.ts';
import { resolveCapsInForce } from '../../../src/service/index.ts';
import {
  type apiStore,
  conductorApi,
  forEachConductorBackend,
  localTransports,
  newNode,
  settled,
  startTestConductor,
} from './support/conductor-harness.ts';

/** What the API sends: the fields it changes, with the values it read of them. */
function change(read: NodeObject, values: Record<string, unknown>) {
  const node = read.clone();
  const expectedValues: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(values)) {
    expectedValues[field] = read.peek(field as never) ?? null;
    node.assign(field, value);
  }
  return { node, expectedValues };
}

forEachConductorBackend('update_node: the optimistic check', (backend) => {
  const { transport } = localTransports();
  let api: ConductorApi;
  let store: ReturnType<typeof apiStore>;

  before(async () => {
    const conductor = await startTestConductor({
      url: backend.url(),
      transport: transport(),
      settings: { nodeLockedRetryAttempts: 3, nodeLockedRetryInterval: 0.1 },
    });
    backend.onCleanup(() => conductor.stop());
    store = conductor.store;
    api = conductorApi(store, transport());
  });

  const fresh = async (fields: Record<string, unknown> = {}) =>
    store.nodes.get(String((await api.createNode(newNode(fields))).get('uuid')));

  it('refuses an update computed from a read another update made stale, and writes nothing', async () => {
    const read = await fresh({ extra: { base: 1 } });
    const first = change(read, { extra: { base: 1, a: 1 } });
    const second = change(read, { extra: { base: 1, b: 2 }, description: 'b' });
    await api.updateNode(first.node, { expectedValues: first.expectedValues });
    await assert.rejects(
      api.updateNode(second.node, { expectedValues: second.expectedValues }),
      (error: unknown) => {
        assert.ok(error instanceof NodeChangedError, String(error));
        assert.deepEqual(error.fields, ['extra']);
        assert.equal((error as NodeChangedError).code, 409);
        return true;
      },
    );
    const after = await store.nodes.get(String(read.get('uuid')));
    assert.deepEqual(after.get('extra'), { base: 1, a: 1 });
    assert.equal(after.get('description'), null, 'nothing of the refused update written');
    assert.equal(after.get('reservation'), null);
    // Computed again from a new read, it goes through and keeps both.
    const again = change(after, { extra: { base: 1, a: 1, b: 2 } });
    const saved = await api.updateNode(again.node, { expectedValues: again.expectedValues });
    assert.deepEqual(saved.get('extra'), { base: 1, a: 1, b: 2 });
  });

  it('merges a dictionary changed key by key with the keys another update changed, and refuses a key both changed', async () => {
    const read = await fresh({ extra: { base: 1, gone: 0 } });
    const first = change(read, { extra: { base: 1, gone: 0, a: 1 } });
    const second = change(read, { extra: { base: 1, b: 2 } });
    const clash = change(read, { extra: { base: 'x', gone: 0 } });
    const keyedFields = ['extra'];
    await api.updateNode(first.node, { expectedValues: first.expectedValues, keyedFields });
    const merged = await api.updateNode(second.node, {
      expectedValues: second.expectedValues,
      keyedFields,
    });
    assert.deepEqual(merged.get('extra'), { base: 1, a: 1, b: 2 });
    // `gone` was removed by the second update: the third changed `base` only, but read `gone`
    // as present, which a merge never needs; `base` itself is untouched by the others.
    const third = await api.updateNode(clash.node, {
      expectedValues: clash.expectedValues,
      keyedFields,
    });
    assert.deepEqual(third.get('extra'), { base: 'x', a: 1, b: 2 });
    // A key another update changed since the read is a conflict: the PATCH must be re-read.
    const stale = change(read, { extra: { base: 1, gone: 0, a: 'mine' } });
    await assert.rejects(
      api.updateNode(stale.node, { expectedValues: stale.expectedValues, keyedFields }),
      (error: unknown) => error instanceof NodeChangedError && error.fields.includes('extra'),
    );
    assert.deepEqual((await store.nodes.get(String(read.get('uuid')))).get('extra'), {
      base: 'x',
      a: 1,
      b: 2,
    });
  });

  it('applies an update whose read fields did not change, whatever else did (a power action)', async () => {
    const read = await fresh();
    const update = change(read, { extra: { k: 'v' } });
    await api.changeNodePowerState(read, 'power on');
    const powered = await settled(store, String(read.get('uuid')));
    assert.equal(powered.get('power_state'), 'power on');
    const saved = await api.updateNode(update.node, { expectedValues: update.expectedValues });
    assert.deepEqual(saved.get('extra'), { k: 'v' });
    assert.equal(saved.get('power_state'), 'power on', 'the power action is kept');
    assert.ok(saved.get('driver_internal_info')?.last_power_state_change);
  });

  it('checks a field the conductor derives from the request against the read too', async () => {
    const read = await fresh({ maintenance: true, maintenance_reason: 'first' });
    // Maintenance off clears the reason: computed from a read where the reason was 'first'.
    const off = change(read, { maintenance: false });
    const other = change(read, { maintenance_reason: 'second' });
    await api.updateNode(other.node, { expectedValues: other.expectedValues });
    await assert.rejects(
      api.updateNode(off.node, { expectedValues: off.expectedValues }),
      (error: unknown) =>
        error instanceof NodeChangedError && error.fields.includes('maintenance_reason'),
    );
    const after = await store.nodes.get(String(read.get('uuid')));
    assert.equal(after.get('maintenance'), true);
    assert.equal(after.get('maintenance_reason'), 'second');
  });

  it('applies an update sent without expected values as it comes (an API below RPC 1.3)', async () => {
    const capped = conductorApi(store, transport(), {
      caps: resolveCapsInForce(BAREMETAL_SERVICE, { flag: 'zed' }),
    });
    assert.equal(capped.canCheckNodeUpdates(), false);
    assert.equal(api.canCheckNodeUpdates(), true);
    const read = await fresh();
    const first = change(read, { extra: { a: 1 } });
    const second = change(read, { extra: { b: 2 } });
    await capped.updateNode(first.node, { expectedValues: first.expectedValues });
    const saved = await capped.updateNode(second.node, { expectedValues: second.expectedValues });
    // The older API's lost update: what the check is there to prevent.
    assert.deepEqual(saved.get('extra'), { b: 2 });
  });

  it('still refuses with NodeLocked, naming the holder, a node held longer than the polling waits', async () => {
    const read = await fresh();
    const uuid = String(read.get('uuid'));
    await store.reservations.reserve('other-conductor', read.get('id'));
    const update = change(read, { description: 'x' });
    await assert.rejects(
      api.updateNode(update.node, { expectedValues: update.expectedValues }),
      (error: unknown) => error instanceof NodeLockedError && error.host === 'other-conductor',
    );
    await store.reservations.release('other-conductor', read.get('id'));
    assert.equal((await store.nodes.get(uuid)).get('description'), null);
  });
});
