/**
 * Baton's antelope unpinned held to the real Ironic 21.4.4 unpinned: API 1.81 (node
 * inventory) and 1.82 (shards), the same requests to both, the same answers
 * (support/same-answers.ts). A node with an inventory cannot be made through the real API
 * (its inspection writes it), so the inventory's found case is checked on Baton alone, with a
 * row as the inventory move or an inspection writes it. Without the real service installed
 * the comparison is skipped with the reason; under CI=true it fails.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { NodeInventory } from '../../../src/baremetal/objects/index.ts';
import { type RealIronic, realIronicMissing, startRealIronic } from '../../support/real-ironic.ts';
import { ANTELOPE_SCENARIOS } from './scenarios/antelope.ts';
import { BIOS_HISTORY_SCENARIOS } from './scenarios/bios-history.ts';
import { type BatonApi, pinnedCaps, startBatonApi } from './support/baton-api.ts';
import { assertSameAnswers } from './support/same-answers.ts';

const inCi = process.env.CI === 'true';
const missing = realIronicMissing();
if (missing && inCi) throw new Error(`${missing} (CI=true: the real Ironic must run)`);

describe('the antelope bare metal API against the real Ironic 21.4.4, unpinned', {
  skip: missing,
}, () => {
  let real: RealIronic;
  let baton: BatonApi;

  before(async () => {
    [real, baton] = await Promise.all([startRealIronic(), startBatonApi()]);
  });

  after(async () => {
    await Promise.all([real?.stop(), baton?.close()]);
  });

  for (const scenario of [...ANTELOPE_SCENARIOS, ...BIOS_HISTORY_SCENARIOS]) {
    it(scenario.title, () => assertSameAnswers(scenario, real, baton));
  }
});

describe('the node inventory of a node that has one', () => {
  const headers = { 'X-OpenStack-Ironic-API-Version': '1.81' };

  it('is served at 1.81 through the conductor (RPC 1.1)', async () => {
    const baton = await startBatonApi();
    try {
      const created = await baton.request({
        method: 'POST',
        url: '/v1/nodes',
        headers: { ...headers, 'content-type': 'application/json' },
        payload: { driver: 'fake-hardware', name: 'inspected' },
      });
      assert.equal(created.statusCode, 201);
      const node = await baton.store.nodes.getByName('inspected');
      await baton.store.inventories.set(
        NodeInventory.create({
          node_id: node.get('id'),
          inventory_data: { cpu: { count: 8 }, interfaces: [{ mac_address: '52:54:00:00:03:a1' }] },
          plugin_data: { root_disk: { name: '/dev/vda' } },
        }),
      );
      const answer = await baton.request({ url: '/v1/nodes/inspected/inventory', headers });
      assert.equal(answer.statusCode, 200);
      assert.equal(answer.headers['x-openstack-ironic-api-version'], '1.81');
      assert.deepEqual(answer.json(), {
        inventory: { cpu: { count: 8 }, interfaces: [{ mac_address: '52:54:00:00:03:a1' }] },
        plugin_data: { root_disk: { name: '/dev/vda' } },
      });
    } finally {
      await baton.close();
    }
  });

  it("is refused with 406 under zed's RPC cap at an API version that has it; so is a shard under zed's Node", async () => {
    // Automatic caps from an older conductor (the service-version spec): zed's RPC cap and objects, the API
    // maximum left at antelope's.
    const zed = pinnedCaps('zed');
    const baton = await startBatonApi({
      caps: { ...zed, apiMax: pinnedCaps('antelope').apiMax },
    });
    try {
      await baton.request({
        method: 'POST',
        url: '/v1/nodes',
        headers: { ...headers, 'content-type': 'application/json' },
        payload: { driver: 'fake-hardware', name: 'capped' },
      });
      const answer = await baton.request({ url: '/v1/nodes/capped/inventory', headers });
      assert.equal(answer.statusCode, 406);
      const inner = JSON.parse(answer.json().error_message);
      assert.match(inner.faultstring, /RPC API 1\.1/);
      // The Node version in force (1.36) cannot carry a shard: refused, never silently dropped.
      const at182 = {
        'X-OpenStack-Ironic-API-Version': '1.82',
        'content-type': 'application/json',
      };
      const patch = await baton.request({
        method: 'PATCH',
        url: '/v1/nodes/capped',
        headers: at182,
        payload: [{ op: 'add', path: '/shard', value: 'alpha' }],
      });
      assert.equal(patch.statusCode, 406);
      const create = await baton.request({
        method: 'POST',
        url: '/v1/nodes',
        headers: at182,
        payload: { driver: 'fake-hardware', shard: 'alpha' },
      });
      assert.equal(create.statusCode, 406);
      const plain = await baton.request({
        method: 'POST',
        url: '/v1/nodes',
        headers: at182,
        payload: { driver: 'fake-hardware', name: 'no-shard' },
      });
      assert.equal(plain.statusCode, 201);
    } finally {
      await baton.close();
    }
  });
});
