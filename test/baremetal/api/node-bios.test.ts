/**
 * /v1/nodes/{node}/bios on the three backends: rows written through the store, or by fake
 * hardware's BIOS clean steps as the real fake writes them (apply_configuration syncs the rows
 * to the settings given, factory_reset deletes them), are served as the real NodeBiosController
 * serves them: WebOb's 404 below 1.40, name and value with links, the registry fields with
 * `detail` or `fields` from 1.74 (400 below), one setting under its name, BIOSSettingNotFound
 * naming the node's UUID; the rows go with their node. Then Ironic 21.4's default policy on
 * `baremetal:node:bios:get` (owner, lessee, another project).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it, test } from 'node:test';
import { BIOSSetting, Node } from '../../../src/baremetal/objects/index.ts';
import { type BatonApi, forEachApiBackend } from './support/baton-api.ts';
import { projectUser, startUnderDefaultPolicy } from './support/personas.ts';

async function call(api: BatonApi, version: string, url: string, method = 'GET') {
  const answer = await api.request({
    method: method as 'GET',
    url,
    headers: { 'X-OpenStack-Ironic-API-Version': version },
  });
  return {
    status: answer.statusCode,
    text: answer.body,
    body: String(answer.headers['content-type']).includes('json') ? answer.json() : undefined,
    fault: () => JSON.parse(answer.json().error_message).faultstring as string,
  };
}

async function nodeWithSettings(api: BatonApi, name: string, fields: Record<string, unknown> = {}) {
  const node = await api.store.nodes.create(
    Node.create({ driver: 'fake-hardware', name, ...fields } as never),
  );
  const nodeId = String(node.get('id'));
  await api.store.biosSettings.create([
    BIOSSetting.create({ node_id: nodeId, name: 'ProcVirtualization', value: 'Enabled' }),
    BIOSSetting.create({
      node_id: nodeId,
      name: 'BootMode',
      value: 'Uefi',
      attribute_type: 'Enumeration',
      allowable_values: ['Bios', 'Uefi'],
      read_only: false,
      reset_required: true,
      unique: false,
    }),
  ]);
  return node;
}

forEachApiBackend('node BIOS settings', (api) => {
  test('below 1.40 the route is WebOb 404, before the node is looked at', async () => {
    await nodeWithSettings(api(), 'bios-gate');
    for (const url of ['/v1/nodes/bios-gate/bios', '/v1/nodes/no-such-node/bios/BootMode']) {
      const answer = await call(api(), '1.39', url);
      assert.equal(answer.status, 404, url);
      // WebOb's 404, not the node's NodeNotFound.
      assert.deepEqual(JSON.parse(answer.body.error_message), {
        code: 404,
        title: 'Not Found',
        description: '',
      });
    }
  });

  test('the list: name, value, timestamps and links under the node as named', async () => {
    const node = await nodeWithSettings(api(), 'bios-list');
    const answer = await call(api(), '1.40', '/v1/nodes/bios-list/bios');
    assert.equal(answer.status, 200);
    const [boot, virt] = answer.body.bios;
    assert.deepEqual(Object.keys(boot), ['created_at', 'updated_at', 'name', 'value', 'links']);
    assert.equal(boot.name, 'BootMode');
    assert.equal(boot.value, 'Uefi');
    assert.equal(boot.updated_at, null);
    assert.match(boot.created_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00$/);
    assert.equal(virt.name, 'ProcVirtualization');
    assert.deepEqual(
      boot.links.map((l: { href: string }) => new URL(l.href).pathname),
      ['/v1/nodes/bios-list/bios/BootMode', '/nodes/bios-list/bios/BootMode'],
    );
    // By UUID, the links name the UUID.
    const byUuid = await call(api(), '1.40', `/v1/nodes/${node.get('uuid')}/bios`);
    assert.equal(
      new URL(byUuid.body.bios[0].links[0].href).pathname,
      `/v1/nodes/${node.get('uuid')}/bios/BootMode`,
    );
  });

  test('detail and fields: 400 below 1.74, the registry fields from 1.74', async () => {
    await nodeWithSettings(api(), 'bios-detail');
    const detailOld = await call(api(), '1.73', '/v1/nodes/bios-detail/bios?detail=True');
    assert.equal(detailOld.status, 400);
    assert.equal(detailOld.fault(), 'Invalid query parameter ?detail=True received.');
    const fieldsOld = await call(api(), '1.73', '/v1/nodes/bios-detail/bios?fields=name,value');
    assert.equal(fieldsOld.status, 400);
    assert.equal(fieldsOld.fault(), "Invalid query parameter ?fields=['name', 'value'] received.");
    const detail = await call(api(), '1.74', '/v1/nodes/bios-detail/bios?detail=True');
    assert.equal(detail.status, 200);
    const boot = detail.body.bios[0];
    assert.deepEqual(Object.keys(boot), [
      'created_at',
      'updated_at',
      'name',
      'value',
      'attribute_type',
      'allowable_values',
      'lower_bound',
      'max_length',
      'min_length',
      'read_only',
      'reset_required',
      'unique',
      'upper_bound',
      'links',
    ]);
    assert.equal(boot.attribute_type, 'Enumeration');
    assert.deepEqual(boot.allowable_values, ['Bios', 'Uefi']);
    assert.equal(boot.read_only, false);
    assert.equal(boot.reset_required, true);
    assert.equal(boot.lower_bound, null);
    // A setting without registry values: an empty list, nulls.
    assert.deepEqual(detail.body.bios[1].allowable_values, []);
    assert.equal(detail.body.bios[1].attribute_type, null);
    const fields = await call(api(), '1.74', '/v1/nodes/bios-detail/bios?fields=name,read_only');
    assert.deepEqual(Object.keys(fields.body.bios[0]), [
      'created_at',
      'updated_at',
      'name',
      'read_only',
      'links',
    ]);
    const both = await call(api(), '1.74', '/v1/nodes/bios-detail/bios?fields=name&detail=True');
    assert.equal(both.status, 400);
    assert.equal(both.fault(), 'Can not specify ?detail=True and fields in the same request.');
    // Without either at 1.74: name and value only.
    const plain = await call(api(), '1.74', '/v1/nodes/bios-detail/bios');
    assert.deepEqual(Object.keys(plain.body.bios[0]), [
      'created_at',
      'updated_at',
      'name',
      'value',
      'links',
    ]);
  });

  test('one setting, under its name; a missing one names the node UUID', async () => {
    const node = await nodeWithSettings(api(), 'bios-one');
    const old = await call(api(), '1.40', '/v1/nodes/bios-one/bios/BootMode');
    assert.equal(old.status, 200);
    assert.deepEqual(Object.keys(old.body), ['BootMode']);
    assert.deepEqual(Object.keys(old.body.BootMode), [
      'created_at',
      'updated_at',
      'name',
      'value',
      'links',
    ]);
    assert.equal(
      new URL(old.body.BootMode.links[0].href).pathname,
      `/v1/nodes/${node.get('uuid')}/bios/BootMode`,
    );
    const registry = await call(api(), '1.74', '/v1/nodes/bios-one/bios/BootMode');
    assert.deepEqual(registry.body.BootMode.allowable_values, ['Bios', 'Uefi']);
    const missing = await call(api(), '1.74', '/v1/nodes/bios-one/bios/NoSuch');
    assert.equal(missing.status, 404);
    assert.equal(missing.fault(), `Node ${node.get('uuid')} doesn't have a BIOS setting 'NoSuch'`);
    const unknownNode = await call(api(), '1.74', '/v1/nodes/no-such-node/bios');
    assert.equal(unknownNode.status, 404);
    assert.equal(unknownNode.fault(), 'Node no-such-node could not be found.');
  });

  test("fake hardware's apply_configuration and factory_reset write the rows, as the real fake's", async () => {
    const v = { 'X-OpenStack-Ironic-API-Version': '1.82' };
    const send = (method: string, url: string, payload: unknown) =>
      api().request({ method: method as 'PUT', url, headers: v, payload: payload as object });
    const settled = async () => {
      for (let i = 0; i < 400; i++) {
        const shown = await call(
          api(),
          '1.82',
          '/v1/nodes/bios-fake?fields=provision_state,target_provision_state,last_error',
        );
        if (shown.body.target_provision_state === null) return shown.body;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error('bios-fake kept moving');
    };
    const clean = async (step: string, args: Record<string, unknown> = {}) => {
      const answer = await send('PUT', '/v1/nodes/bios-fake/states/provision', {
        target: 'clean',
        clean_steps: [{ interface: 'bios', step, args }],
      });
      assert.equal(answer.statusCode, 202, answer.body);
      const done = await settled();
      assert.equal(done.provision_state, 'manageable', done.last_error);
    };
    const listed = async () =>
      (await call(api(), '1.82', '/v1/nodes/bios-fake/bios?detail=True')).body.bios.map(
        (s: Record<string, unknown>) => [s.name, s.value],
      );
    await send('POST', '/v1/nodes', { driver: 'fake-hardware', name: 'bios-fake' });
    await send('PUT', '/v1/nodes/bios-fake/states/provision', { target: 'manage' });
    await settled();
    await clean('apply_configuration', {
      settings: [
        { name: 'LogicalProc', value: 'Enabled' },
        { name: 'NumLock', value: 'Off' },
      ],
    });
    assert.deepEqual(await listed(), [
      ['LogicalProc', 'Enabled'],
      ['NumLock', 'Off'],
    ]);
    // A changed value is updated, a name not given deleted, a new one created.
    await clean('apply_configuration', {
      settings: [
        { name: 'LogicalProc', value: 'Disabled' },
        { name: 'BootMode', value: 'Uefi' },
      ],
    });
    assert.deepEqual(await listed(), [
      ['BootMode', 'Uefi'],
      ['LogicalProc', 'Disabled'],
    ]);
    const updated = (await call(api(), '1.82', '/v1/nodes/bios-fake/bios/LogicalProc')).body
      .LogicalProc;
    assert.notEqual(updated.updated_at, null);
    await clean('cache_bios_settings');
    assert.equal((await listed()).length, 2);
    await clean('factory_reset');
    assert.deepEqual(await listed(), []);
  });

  test('a node without settings lists none; rows go with the node', async () => {
    const bare = await api().store.nodes.create(
      Node.create({ driver: 'fake-hardware', name: 'bios-none' } as never),
    );
    assert.deepEqual((await call(api(), '1.82', '/v1/nodes/bios-none/bios')).body, { bios: [] });
    const node = await nodeWithSettings(api(), 'bios-gone');
    assert.equal(
      (await call(api(), '1.82', `/v1/nodes/${node.get('uuid')}`, 'DELETE')).status,
      204,
    );
    assert.deepEqual(await api().store.biosSettings.list(Number(node.get('id'))), []);
    assert.ok(bare);
  });
});

const OWNER = 'f0e1d2c3b4a5968778695a4b3c2d1e0f';
const LESSEE = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const OTHER = '0123456789abcdef0123456789abcdef';

describe("Ironic's default policy on a node's BIOS settings and history", () => {
  let api: BatonApi;
  before(async () => {
    api = await startUnderDefaultPolicy();
    await nodeWithSettings(api, 'owned', { owner: OWNER, lessee: LESSEE });
  });
  after(() => api?.close());

  const get = (as: Record<string, string>, url: string) =>
    api.request({
      method: 'GET',
      url,
      headers: { ...as, 'x-openstack-ironic-api-version': '1.82' },
    });

  it('the owner and the lessee read the BIOS settings; another project is told the node does not exist', async () => {
    for (const who of [projectUser(OWNER, 'reader'), projectUser(LESSEE, 'member')]) {
      const answer = await get(who, '/v1/nodes/owned/bios');
      assert.equal(answer.statusCode, 200, answer.body);
      assert.equal(answer.json().bios.length, 2);
      assert.equal((await get(who, '/v1/nodes/owned/bios/BootMode')).statusCode, 200);
    }
    const other = await get(projectUser(OTHER, 'reader'), '/v1/nodes/owned/bios');
    assert.equal(other.statusCode, 404);
    assert.match(other.body, /Node owned could not be found/);
  });

  it("history is the owner's (and the system's), not the lessee's: 403 naming the rule", async () => {
    assert.equal(
      (await get(projectUser(OWNER, 'reader'), '/v1/nodes/owned/history')).statusCode,
      200,
    );
    const lessee = await get(projectUser(LESSEE, 'member'), '/v1/nodes/owned/history');
    assert.equal(lessee.statusCode, 403);
    assert.match(lessee.body, /baremetal:node:history:get/);
    const other = await get(projectUser(OTHER, 'reader'), '/v1/nodes/owned/history');
    assert.equal(other.statusCode, 404);
  });

  it('the version is checked before the node and the policy, as the real controller', async () => {
    const answer = await api.request({
      method: 'GET',
      url: '/v1/nodes/owned/bios',
      headers: { ...projectUser(OTHER, 'reader'), 'x-openstack-ironic-api-version': '1.39' },
    });
    assert.equal(answer.statusCode, 404);
    assert.doesNotMatch(answer.body, /could not be found/);
  });
});
