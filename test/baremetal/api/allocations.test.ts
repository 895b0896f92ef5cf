/**
 * /v1/allocations on the three backends, through the API and its conductor: an allocation
 * takes the one node that fits and writes its allocation_uuid, instance_uuid and instance
 * traits; a failure is `error` with the real last_error; names are unique; PATCH writes name
 * and extra; lists filter and page; a backfill takes an active node; deleting frees the node,
 * and a node's deletion or undeploy takes its allocation along. Under zed's RPC cap, creating
 * and deleting are 406 while reads and PATCH are served (docs/releases.md).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Allocation, Node } from '../../../src/baremetal/objects/index.ts';
import {
  type BatonApi,
  forEachApiBackend,
  pinnedCaps,
  startBatonApi,
} from './support/baton-api.ts';
import { callApi } from './support/call-api.ts';

const V = { 'X-OpenStack-Ironic-API-Version': '1.82' };

function call(api: BatonApi, method: string, url: string, payload?: unknown) {
  return callApi(api, method, url, { payload, headers: V });
}

/** A node ready to be allocated, written as the conductor leaves one after `provide`. */
async function availableNode(api: BatonApi, name: string, fields: Record<string, unknown> = {}) {
  return api.store.nodes.create(
    Node.create({
      driver: 'fake-hardware',
      name,
      provision_state: 'available',
      power_state: 'power off',
      ...fields,
    } as never),
  );
}

/** The allocation once the conductor has processed it. */
async function settled(api: BatonApi, ident: string) {
  for (let i = 0; i < 200; i++) {
    const shown = await call(api, 'GET', `/v1/allocations/${ident}`);
    if (shown.body.state !== 'allocating') return shown.body;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${ident} stayed allocating`);
}

forEachApiBackend('allocations', (api) => {
  test('the one node that fits is taken, with its instance_uuid and instance traits', async () => {
    const node = await availableNode(api(), 'fits', { resource_class: 'rc-fit' });
    await availableNode(api(), 'other-class', { resource_class: 'rc-other' });
    await api().store.traits.set(Number(node.get('id')), ['CUSTOM_FIT']);
    const created = await call(api(), 'POST', '/v1/allocations', {
      resource_class: 'rc-fit',
      traits: ['CUSTOM_FIT'],
      name: 'takes-fits',
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.state, 'allocating');
    const done = await settled(api(), 'takes-fits');
    assert.equal(done.state, 'active');
    assert.equal(done.node_uuid, node.get('uuid'));
    const shown = await call(
      api(),
      'GET',
      '/v1/nodes/fits?fields=allocation_uuid,instance_uuid,instance_info',
    );
    assert.equal(shown.body.allocation_uuid, done.uuid);
    assert.equal(shown.body.instance_uuid, done.uuid);
    assert.deepEqual(shown.body.instance_info, { traits: ['CUSTOM_FIT'] });
    assert.equal((await call(api(), 'GET', '/v1/nodes/fits/allocation')).body.uuid, done.uuid);
  });

  test('no node that fits: error, with the real last_error; the name stays unique', async () => {
    await call(api(), 'POST', '/v1/allocations', { resource_class: 'rc-none', name: 'no-fit' });
    const done = await settled(api(), 'no-fit');
    assert.equal(done.state, 'error');
    assert.equal(
      done.last_error,
      `Failed to process allocation ${done.uuid}: no available nodes match the resource class rc-none.`,
    );
    const again = await call(api(), 'POST', '/v1/allocations', {
      resource_class: 'rc-none',
      name: 'no-fit',
    });
    assert.equal(again.status, 409);
    assert.equal(again.fault(), 'An allocation with name no-fit already exists.');
  });

  test('PATCH writes name and extra, refuses the rest; lists filter and page', async () => {
    const renamed = await call(api(), 'PATCH', '/v1/allocations/no-fit', [
      { op: 'replace', path: '/name', value: 'renamed' },
      { op: 'add', path: '/extra/k', value: 'v' },
    ]);
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.name, 'renamed');
    assert.deepEqual(renamed.body.extra, { k: 'v' });
    const refused = await call(api(), 'PATCH', '/v1/allocations/renamed', [
      { op: 'replace', path: '/resource_class', value: 'x' },
    ]);
    assert.equal(refused.status, 400);
    assert.match(refused.fault(), /Only the following can be updated: name, extra/);
    const errors = await call(api(), 'GET', '/v1/allocations?state=error&fields=name');
    assert.deepEqual(
      errors.body.allocations.map((a: { name: string }) => a.name),
      ['renamed'],
    );
    const page = await call(api(), 'GET', '/v1/allocations?limit=1&fields=name');
    assert.equal(page.body.allocations.length, 1);
    assert.match(
      page.body.next,
      /\/v1\/allocations\?sort_key=id&sort_dir=asc&fields=name&limit=1&marker=/,
    );
    const byNode = await call(api(), 'GET', '/v1/allocations?node=fits&fields=name');
    assert.deepEqual(byNode.body.allocations, [
      { name: 'takes-fits', links: byNode.body.allocations[0].links },
    ]);
  });

  test('a backfill takes an active node; deleting it is refused while the node is active', async () => {
    const node = await availableNode(api(), 'deployed', {
      resource_class: 'rc-active',
      provision_state: 'active',
    });
    const created = await call(api(), 'POST', '/v1/allocations', { node: 'deployed', name: 'bf' });
    assert.equal(created.status, 201);
    assert.equal(created.body.state, 'active');
    assert.equal(created.body.resource_class, 'rc-active');
    assert.equal(created.body.node_uuid, node.get('uuid'));
    const refused = await call(api(), 'DELETE', '/v1/allocations/bf');
    assert.equal(refused.status, 409);
    assert.match(refused.fault(), /because the node is active \(and maintenance mode is off\)/);
    const notActive = await call(api(), 'POST', '/v1/allocations', {
      node: 'fits',
      name: 'bf-refused',
    });
    // The real one lets AllocationFailed out as a 500; Baton answers the caller's mistake.
    assert.equal(notActive.status, 409, 'the node has an instance: its UUID is taken');
  });

  test('deleting frees the node; a node deleted in maintenance takes its allocation along', async () => {
    assert.equal((await call(api(), 'DELETE', '/v1/nodes/fits/allocation')).status, 204);
    const freed = await call(api(), 'GET', '/v1/nodes/fits?fields=allocation_uuid,instance_uuid');
    assert.equal(freed.body.allocation_uuid, null);
    assert.equal(freed.body.instance_uuid, null);
    const missing = await call(api(), 'GET', '/v1/nodes/fits/allocation');
    assert.equal(missing.status, 404);
    assert.equal(missing.fault(), 'Allocation for node fits was not found');
    await call(api(), 'PUT', '/v1/nodes/deployed/maintenance', {});
    assert.equal((await call(api(), 'DELETE', '/v1/nodes/deployed')).status, 204);
    assert.equal((await call(api(), 'GET', '/v1/allocations/bf')).status, 404);
  });
});

test("under zed's RPC cap, creating and deleting an allocation are 406; reads and PATCH are served", async () => {
  // Automatic caps from a zed conductor: RPC 1.0, the API maximum left at antelope's.
  const baton = await startBatonApi({
    caps: { ...pinnedCaps('zed'), apiMax: pinnedCaps('antelope').apiMax },
  });
  try {
    const create = await call(baton, 'POST', '/v1/allocations', { resource_class: 'rc' });
    assert.equal(create.status, 406);
    assert.equal(
      create.fault(),
      'Request not acceptable. Allocations need conductor RPC API 1.2, above the version cap in force',
    );
    // Refused after the body's own checks, as a real refusal would come first.
    const invalid = await call(baton, 'POST', '/v1/allocations', {});
    assert.equal(invalid.status, 400);
    await baton.store.allocations.create(
      Allocation.create({ name: 'older', resource_class: 'rc' }),
    );
    assert.equal((await call(baton, 'GET', '/v1/allocations/older')).status, 200);
    const patched = await call(baton, 'PATCH', '/v1/allocations/older', [
      { op: 'add', path: '/extra/x', value: 1 },
    ]);
    assert.equal(patched.status, 200);
    assert.equal((await call(baton, 'DELETE', '/v1/allocations/older')).status, 406);
    assert.equal((await call(baton, 'DELETE', '/v1/allocations/missing')).status, 404);
  } finally {
    await baton.close();
  }
});
