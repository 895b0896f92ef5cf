/**
 * /v1/deploy_templates on the three backends, and their use by a deployment: created with their
 * steps, found by name and UUID, listed with the default fields, changed (steps, name, extra),
 * secrets of step arguments masked, deleted; a node whose instance traits name a template that
 * disables the one deploy step of fake hardware fails its deploy as the real one does, and one
 * naming a template of steps fake hardware lacks deploys.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type BatonApi, forEachApiBackend } from './support/baton-api.ts';
import { callApi } from './support/call-api.ts';

const V = { 'X-OpenStack-Ironic-API-Version': '1.82' };

function call(api: BatonApi, method: string, url: string, payload?: unknown) {
  return callApi(api, method, url, { payload, headers: V });
}

const step = (iface: string, name: string, priority: number | string, args = {}) => ({
  interface: iface,
  step: name,
  args,
  priority,
});

/** Polls the node until its provisioning has stopped moving. */
async function provisioned(api: BatonApi, node: string) {
  for (let i = 0; i < 200; i++) {
    const shown = await call(
      api,
      'GET',
      `/v1/nodes/${node}?fields=provision_state,last_error,target_provision_state`,
    );
    if (shown.body.target_provision_state === null || /failed/.test(shown.body.provision_state))
      return shown.body;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${node} kept moving`);
}

forEachApiBackend('deploy templates', (api) => {
  test('created with their steps, found by name and UUID, listed with uuid and name', async () => {
    const created = await call(api(), 'POST', '/v1/deploy_templates', {
      name: 'CUSTOM_RAID',
      steps: [step('raid', 'apply_configuration', '20', { password: 'p' }), step('bios', 'x', 0)],
      extra: { team: 'ops' },
    });
    assert.equal(created.status, 201);
    // The answer to a create carries the priority as given, later reads the stored integer.
    assert.equal(created.body.steps[0].priority, '20');
    assert.deepEqual(created.body.steps[0].args, { password: '******' });
    const shown = await call(api(), 'GET', `/v1/deploy_templates/${created.body.uuid}`);
    assert.equal(shown.body.steps[0].priority, 20);
    assert.equal(shown.body.name, 'CUSTOM_RAID');
    const listed = await call(api(), 'GET', '/v1/deploy_templates');
    assert.deepEqual(Object.keys(listed.body.deploy_templates[0]).sort(), [
      'links',
      'name',
      'uuid',
    ]);
    const duplicate = await call(api(), 'POST', '/v1/deploy_templates', {
      name: 'CUSTOM_RAID',
      steps: [step('bios', 'x', 1)],
    });
    assert.equal(duplicate.status, 409);
    assert.equal(duplicate.fault(), 'A deploy template with name CUSTOM_RAID already exists.');
  });

  test('PATCH changes steps, name and extra; the unchanged step keeps its place', async () => {
    const patched = await call(api(), 'PATCH', '/v1/deploy_templates/CUSTOM_RAID', [
      { op: 'add', path: '/steps/-', value: step('power', 'z', 3) },
      { op: 'remove', path: '/steps/0' },
      { op: 'replace', path: '/name', value: 'CUSTOM_RAID_2' },
      { op: 'remove', path: '/extra/team' },
    ]);
    assert.equal(patched.status, 200);
    assert.deepEqual(
      patched.body.steps.map((s: { step: string }) => s.step),
      ['x', 'z'],
    );
    assert.equal(patched.body.name, 'CUSTOM_RAID_2');
    assert.deepEqual(patched.body.extra, {});
    const refused = await call(api(), 'PATCH', '/v1/deploy_templates/CUSTOM_RAID_2', [
      { op: 'add', path: '/steps/-', value: step('power', 'z', 4) },
    ]);
    assert.equal(refused.status, 400);
    assert.match(refused.fault(), /^Deploy template invalid: Duplicate deploy steps\./);
    assert.equal((await call(api(), 'DELETE', '/v1/deploy_templates/CUSTOM_RAID_2')).status, 204);
    assert.equal((await call(api(), 'GET', '/v1/deploy_templates/CUSTOM_RAID_2')).status, 404);
  });

  test("a deployment takes the steps of the templates the node's instance traits name", async () => {
    await call(api(), 'POST', '/v1/nodes', { driver: 'fake-hardware', name: 'dt-node' });
    await call(api(), 'PUT', '/v1/nodes/dt-node/traits', { traits: ['CUSTOM_OFF', 'CUSTOM_BIOS'] });
    await call(api(), 'PUT', '/v1/nodes/dt-node/states/provision', { target: 'manage' });
    await provisioned(api(), 'dt-node');
    await call(api(), 'PUT', '/v1/nodes/dt-node/states/provision', { target: 'provide' });
    await provisioned(api(), 'dt-node');
    await call(api(), 'POST', '/v1/deploy_templates', {
      name: 'CUSTOM_OFF',
      steps: [step('deploy', 'deploy', 0)],
    });
    await call(api(), 'POST', '/v1/deploy_templates', {
      name: 'CUSTOM_BIOS',
      steps: [step('bios', 'apply_configuration', 100, { settings: [] })],
    });
    await call(api(), 'PATCH', '/v1/nodes/dt-node', [
      { op: 'add', path: '/instance_info/traits', value: ['CUSTOM_BIOS'] },
    ]);
    await call(api(), 'PUT', '/v1/nodes/dt-node/states/provision', { target: 'active' });
    assert.equal((await provisioned(api(), 'dt-node')).provision_state, 'active');
    await call(api(), 'PUT', '/v1/nodes/dt-node/states/provision', { target: 'deleted' });
    await provisioned(api(), 'dt-node');
    await call(api(), 'PATCH', '/v1/nodes/dt-node', [
      { op: 'add', path: '/instance_info/traits', value: ['CUSTOM_OFF'] },
    ]);
    await call(api(), 'PUT', '/v1/nodes/dt-node/states/provision', { target: 'active' });
    const failed = await provisioned(api(), 'dt-node');
    assert.equal(failed.provision_state, 'deploy failed');
    assert.equal(failed.last_error, 'No deploy steps returned by the driver');
  });
});
