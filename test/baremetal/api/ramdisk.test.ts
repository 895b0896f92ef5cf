/**
 * The ramdisk agent's lookup and heartbeat (api/ramdisk.ts) on SQLite with a conductor: what
 * the side-by-side comparison cannot reach with fake hardware (nodes in a ramdisk's states,
 * the token as stored, the options, an agent whose URL changed, the RPC cap, no conductor,
 * Keystone's anonymous caller). real-ironic-agent.test.ts holds the answers to the real ones.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type BatonApi, pinnedCaps, startBatonApi } from './support/baton-api.ts';
import { callApi } from './support/call-api.ts';
import { SYSTEM_ADMIN, startUnderDefaultPolicy } from './support/personas.ts';

const LATEST = '1.82';
const AGENT = { callback_url: 'http://192.0.2.1:9999', agent_version: '9.4.0' };

function call(
  api: BatonApi,
  method: string,
  url: string,
  payload?: unknown,
  version = LATEST,
  headers: Record<string, string> = {},
) {
  return callApi(api, method, url, { payload, version, headers });
}

/** A node written straight to the store in `state` (fake hardware reaches no ramdisk state). */
async function nodeIn(
  api: BatonApi,
  state: string,
  fields: Record<string, unknown> = {},
  version = LATEST,
): Promise<string> {
  const created = await call(
    api,
    'POST',
    '/v1/nodes',
    { driver: 'fake-hardware', ...fields },
    version,
  );
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const node = await api.store.nodes.get(created.body.uuid);
  node.set('provision_state', state);
  await api.store.nodes.save(node);
  return created.body.uuid as string;
}

async function storedInternalInfo(api: BatonApi, uuid: string) {
  return (await api.store.nodes.get(uuid)).get('driver_internal_info') as Record<string, unknown>;
}

describe('ramdisk lookup and heartbeat (SQLite, one conductor)', () => {
  let api: BatonApi;
  before(async () => {
    api = await startBatonApi();
  });
  after(() => api?.close());

  it('hands a node in a ramdisk state its token once, stored, then ******', async () => {
    const uuid = await nodeIn(api, 'wait call-back', { instance_info: { configdrive: 'x' } });
    const first = await call(api, 'GET', `/v1/lookup?node_uuid=${uuid}`);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const token = first.body.config.agent_token as string;
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal((await storedInternalInfo(api, uuid)).agent_secret_token, token);
    assert.deepEqual(Object.keys(first.body.node), [
      'uuid',
      'properties',
      'instance_info',
      'driver_internal_info',
      'links',
    ]);
    assert.equal(first.body.node.driver_internal_info.agent_secret_token, '******');
    assert.equal(first.body.node.instance_info.configdrive, '******');
    const second = await call(api, 'GET', `/v1/lookup?node_uuid=${uuid}`);
    assert.equal(second.body.config.agent_token, '******');
    // The masked answer is never stored: the heartbeat still takes the token.
    assert.equal((await storedInternalInfo(api, uuid)).agent_secret_token, token);
    const beat = await call(api, 'POST', `/v1/heartbeat/${uuid}`, { ...AGENT, agent_token: token });
    assert.equal(beat.status, 202);
    assert.equal(beat.body, undefined);
    const masked = await call(api, 'POST', `/v1/heartbeat/${uuid}`, {
      ...AGENT,
      agent_token: '******',
    });
    assert.equal(masked.status, 400);
    assert.equal(masked.fault(), 'Invalid or missing agent token received.');
  });

  it('finds nodes in every ramdisk state and in no stable one without fast track', async () => {
    for (const state of ['deploying', 'clean wait', 'inspect wait', 'rescue wait']) {
      const uuid = await nodeIn(api, state);
      const found = await call(api, 'GET', `/v1/lookup?node_uuid=${uuid}`);
      assert.equal(found.status, 200, state);
    }
    for (const state of ['active', 'available', 'manageable', 'deploy failed']) {
      const uuid = await nodeIn(api, state);
      const missed = await call(api, 'GET', `/v1/lookup?node_uuid=${uuid}`);
      assert.equal(missed.status, 404, state);
      assert.equal(missed.fault(), 'Resource could not be found.');
    }
  });

  it('finds a node by any of its addresses, and no node when two match', async () => {
    const one = await nodeIn(api, 'cleaning');
    const two = await nodeIn(api, 'cleaning');
    for (const [node, address] of [
      [one, '52:54:00:01:00:01'],
      [two, '52:54:00:01:00:02'],
    ]) {
      const port = await call(api, 'POST', '/v1/ports', { node_uuid: node, address });
      assert.equal(port.status, 201);
    }
    const found = await call(api, 'GET', '/v1/lookup?addresses=zz,52:54:00:01:00:02');
    assert.equal(found.body.node.uuid, two);
    const both = await call(api, 'GET', '/v1/lookup?addresses=52:54:00:01:00:01,52:54:00:01:00:02');
    assert.equal(both.status, 404);
  });

  it('refuses a heartbeat whose callback URL differs from the agent URL on record', async () => {
    const uuid = await nodeIn(api, 'wait call-back');
    const node = await api.store.nodes.get(uuid);
    node.set('driver_internal_info', { agent_url: 'http://192.0.2.9:9999' });
    await api.store.nodes.save(node);
    const changed = await call(api, 'POST', `/v1/heartbeat/${uuid}`, {
      ...AGENT,
      agent_token: 'x',
    });
    assert.equal(changed.status, 400);
    assert.equal(changed.fault(), 'Detected change in ramdisk provided "callback_url"');
  });
});

describe('ramdisk options', () => {
  it('[api] restrict_lookup = false finds a node in any state', async () => {
    const api = await startBatonApi({ settings: { ramdisk: { restrictLookup: false } } });
    try {
      const uuid = await nodeIn(api, 'active');
      assert.equal((await call(api, 'GET', `/v1/lookup?node_uuid=${uuid}`)).status, 200);
    } finally {
      await api.close();
    }
  });

  it('[deploy] fast_track finds enroll nodes; a node says otherwise in its driver_info', async () => {
    const api = await startBatonApi({ settings: { ramdisk: { fastTrack: true } } });
    try {
      const fast = await nodeIn(api, 'enroll');
      assert.equal((await call(api, 'GET', `/v1/lookup?node_uuid=${fast}`)).status, 200);
      const slow = await nodeIn(api, 'enroll', { driver_info: { fast_track: 'no' } });
      assert.equal((await call(api, 'GET', `/v1/lookup?node_uuid=${slow}`)).status, 404);
    } finally {
      await api.close();
    }
  });

  it('[api] enable_ramdisk_endpoints = false answers 403 naming the path', async () => {
    const api = await startBatonApi({ settings: { ramdisk: { enabled: false } } });
    try {
      const lookup = await call(api, 'GET', '/v1/lookup?addresses=52:54:00:01:00:01');
      assert.equal(lookup.status, 403);
      assert.equal(lookup.fault(), 'Access was denied to the following resource: /v1/lookup');
      const beat = await call(api, 'POST', '/v1/heartbeat/n1', { ...AGENT, agent_token: 'x' });
      assert.equal(beat.status, 403);
    } finally {
      await api.close();
    }
  });

  it('[agent] require_tls refuses an http callback URL, takes an https one', async () => {
    const api = await startBatonApi({ conductor: { agentRequireTls: true } });
    try {
      const uuid = await nodeIn(api, 'clean wait');
      const token = (await call(api, 'GET', `/v1/lookup?node_uuid=${uuid}`)).body.config
        .agent_token;
      const plain = await call(api, 'POST', `/v1/heartbeat/${uuid}`, {
        ...AGENT,
        agent_token: token,
      });
      assert.equal(plain.status, 400);
      assert.equal(plain.fault(), 'TLS is required by configuration');
      const tls = await call(api, 'POST', `/v1/heartbeat/${uuid}`, {
        ...AGENT,
        callback_url: 'https://192.0.2.1:9999',
        agent_token: token,
      });
      assert.equal(tls.status, 202);
    } finally {
      await api.close();
    }
  });
});

describe('the fake deploy interface and a heartbeat', () => {
  it("warns as Ironic's base DeployInterface does, and changes nothing", async () => {
    const warnings: string[] = [];
    const api = await startBatonApi({
      conductorLog: { info: () => {}, warn: (line) => warnings.push(line), error: () => {} },
    });
    try {
      const uuid = await nodeIn(api, 'deploying');
      const token = (await call(api, 'GET', `/v1/lookup?node_uuid=${uuid}`)).body.config
        .agent_token;
      const before = await api.store.nodes.get(uuid);
      const beat = await call(api, 'POST', `/v1/heartbeat/${uuid}`, {
        ...AGENT,
        agent_token: token,
      });
      assert.equal(beat.status, 202);
      const expected = `Got heartbeat message from node ${uuid}, but the driver fake-hardware does not support heartbeating`;
      for (let i = 0; i < 50 && !warnings.includes(expected); i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.ok(warnings.includes(expected), warnings.join('\n'));
      const after = await api.store.nodes.get(uuid);
      assert.deepEqual(after.get('updated_at'), before.get('updated_at'));
      assert.equal(after.get('reservation'), null);
    } finally {
      await api.close();
    }
  });
});

describe('ramdisk endpoints and the conductors', () => {
  it('answers 406 under an RPC cap below 1.4, and reads the node itself below 1.62', async () => {
    const api = await startBatonApi({ caps: pinnedCaps('zed') });
    try {
      const uuid = await nodeIn(api, 'cleaning', {}, '1.80');
      const capped = await call(api, 'GET', `/v1/lookup?node_uuid=${uuid}`, undefined, '1.80');
      assert.equal(capped.status, 406);
      assert.match(capped.fault(), /conductor RPC API 1\.4/);
      const old = await call(api, 'GET', `/v1/lookup?node_uuid=${uuid}`, undefined, '1.61');
      assert.equal(old.status, 200);
      assert.equal(old.body.config.agent_token, null);
      const beat = await call(api, 'POST', `/v1/heartbeat/${uuid}`, { ...AGENT, agent_token: 'x' });
      assert.equal(beat.status, 406);
    } finally {
      await api.close();
    }
  });

  it("answers 400 NoValidHost when no conductor serves the node's group", async () => {
    const api = await startBatonApi();
    try {
      // A conductor group no conductor serves, written as an older API could have left it.
      const uuid = await nodeIn(api, 'cleaning');
      const node = await api.store.nodes.get(uuid);
      node.set('conductor_group', 'nowhere');
      await api.store.nodes.save(node);
      const lookup = await call(api, 'GET', `/v1/lookup?node_uuid=${node.get('uuid')}`);
      assert.equal(lookup.status, 400);
      assert.match(lookup.fault(), /^No valid host was found/);
    } finally {
      await api.close();
    }
  });
});

describe('ramdisk endpoints under Keystone', () => {
  let api: BatonApi;
  before(async () => {
    api = await startUnderDefaultPolicy();
  });
  after(() => api?.close());

  it('serves an anonymous agent, hiding the internal info as from any anonymous caller', async () => {
    const created = await call(api, 'POST', '/v1/nodes', { driver: 'fake-hardware' }, LATEST, {
      ...SYSTEM_ADMIN,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const node = await api.store.nodes.get(created.body.uuid);
    node.set('provision_state', 'inspect wait');
    await api.store.nodes.save(node);
    const found = await call(api, 'GET', `/v1/lookup?node_uuid=${created.body.uuid}`);
    assert.equal(found.status, 200, JSON.stringify(found.body));
    assert.match(found.body.config.agent_token, /^[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(found.body.node.driver_internal_info, {
      content: '** Redacted - Requires baremetal:node:get:driver_internal_info permission. **',
    });
    const beat = await call(api, 'POST', `/v1/heartbeat/${created.body.uuid}`, {
      ...AGENT,
      agent_token: found.body.config.agent_token,
    });
    assert.equal(beat.status, 202);
  });
});
