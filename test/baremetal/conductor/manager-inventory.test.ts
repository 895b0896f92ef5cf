/**
 * `GET /v1/nodes/{node}/inventory` (1.81) answers the same inventory before and after
 * `move_inventory_to_node_inventory` moves it out of the node's `extra`, on the three backends:
 * during a rolling upgrade an API serving 1.81 never shows an inventory as missing while its
 * data migration is under way.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { baremetalOnlineMigrations } from '../../../src/baremetal/online-migrations/index.ts';
import { type Database, runOnlineMigrations } from '../../../src/db/index.ts';
import { forEachApiBackend } from '../api/support/baton-api.ts';

const AT = { 'X-OpenStack-Ironic-API-Version': '1.81' };
const INVENTORY = { cpu: { count: 4, architecture: 'x86_64' }, memory: { physical_mb: 8192 } };

forEachApiBackend('a node inventory kept in extra by the previous release', (api) => {
  test('is served at 1.81 before the move, the same after it', async () => {
    const created = await api().request({
      method: 'POST',
      url: '/v1/nodes',
      headers: AT,
      payload: {
        driver: 'fake-hardware',
        name: 'inventory-in-extra',
        extra: { inventory: INVENTORY, plugin_data: { root_disk: 1 }, rack: 'r1' },
      },
    });
    assert.equal(created.statusCode, 201, created.body);
    const read = () =>
      api().request({ method: 'GET', url: '/v1/nodes/inventory-in-extra/inventory', headers: AT });
    const before = await read();
    assert.equal(before.statusCode, 200, before.body);
    assert.deepEqual(before.json(), { inventory: INVENTORY, plugin_data: { root_disk: 1 } });

    const done = await runOnlineMigrations(
      api().db as unknown as Database,
      baremetalOnlineMigrations(),
      { batchPauseMs: 0 },
    );
    assert.equal(done.outcome, 'complete', JSON.stringify(done.migrations));
    const node = await api().request({
      method: 'GET',
      url: '/v1/nodes/inventory-in-extra',
      headers: AT,
    });
    assert.deepEqual(node.json().extra, { rack: 'r1' }, 'moved out of extra');
    const after = await read();
    assert.equal(after.statusCode, 200, after.body);
    assert.deepEqual(after.json(), before.json());
  });

  test('a node with no inventory anywhere is still the real 404', async () => {
    await api().request({
      method: 'POST',
      url: '/v1/nodes',
      headers: AT,
      payload: { driver: 'fake-hardware', name: 'no-inventory', extra: { notes: 'none' } },
    });
    const missing = await api().request({
      method: 'GET',
      url: '/v1/nodes/no-inventory/inventory',
      headers: AT,
    });
    assert.equal(missing.statusCode, 404);
    assert.match(JSON.parse(missing.json().error_message).faultstring, /Node inventory record/);
  });
});
