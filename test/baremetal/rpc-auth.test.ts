/**
 * The conductor's http RPC is authenticated as the real Ironic's JSON-RPC is
 * (src/baremetal/rpc-auth-settings.ts): under `auth_strategy = keystone` a call wants a Keystone
 * token holding an admin role, which the API gets with its `[json_rpc]` credentials; a call
 * without one is a 401 that runs nothing. `rpc_shared_secret` is the alternative without
 * Keystone. A conductor whose RPC checks nothing does not start on a non-loopback address.
 * The calls below are raw JSON-RPC, as a `curl` to the conductor's `rpc_address` would send.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { UnsafeListenError } from '../../src/auth/index.ts';
import {
  type BaremetalApiProcess,
  type BaremetalConductorProcess,
  checkBaremetalRpcAuth,
  planBaremetal,
  startBaremetalApi,
  startBaremetalConductor,
} from '../../src/baremetal/service.ts';
import { runCli } from '../../src/cli/main.ts';
import { type Database, listServices, openDatabase } from '../../src/db/index.ts';
import { ConfigFileError } from '../../src/service/index.ts';
import { authtokenOptions, iniSection } from '../auth/support/keystone-settings.ts';
import {
  ADMIN_PASSWORD,
  keystoneSkipReason,
  PASSWORD,
  type RealKeystone,
  startRealKeystone,
  USERS,
} from '../support/real-keystone.ts';

const QUIET = { info: () => {}, warn: () => {}, error: () => {} };
const API_VERSION = { 'x-openstack-ironic-api-version': '1.82' };

/** The conductor's RPC address, as the services table holds it. */
async function rpcAddressOf(databaseUrl: string, host: string): Promise<string> {
  const db = (await openDatabase(databaseUrl)) as unknown as Database;
  try {
    const row = (await listServices(db)).find(
      (s) => s.binary === 'ironic.conductor_manager' && s.host === host,
    );
    assert.ok(row?.rpcAddress, 'the conductor registered its RPC address');
    return row.rpcAddress;
  } finally {
    await db.close();
  }
}

/** A raw JSON-RPC call to the conductor, with the headers given. */
async function rawCall(
  address: string,
  method: string,
  args: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  const answer = await fetch(`${address}/rpc/ironic.conductor_manager`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method,
      params: { version: '1.0', namespace: null, server: null, args },
    }),
  });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

/** The node as the API shows it. */
async function nodeOf(api: string, id: string, headers: Record<string, string>) {
  const answer = await fetch(`${api}/v1/nodes/${id}`, { headers: { ...API_VERSION, ...headers } });
  assert.equal(answer.status, 200, await answer.clone().text());
  return (await answer.json()) as { uuid: string; power_state: string | null };
}

async function createNode(api: string, name: string, headers: Record<string, string>) {
  const created = await fetch(`${api}/v1/nodes`, {
    method: 'POST',
    headers: { ...API_VERSION, 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ name, driver: 'fake-hardware' }),
  });
  assert.equal(created.status, 201, await created.clone().text());
  return (await created.json()) as { uuid: string; power_state: string | null };
}

/** Waits (bounded) until the node's power state is `state`. */
async function powerStateBecomes(
  api: string,
  id: string,
  state: string,
  headers: Record<string, string>,
) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const node = await nodeOf(api, id, headers);
    if (node.power_state === state) return;
    assert.ok(Date.now() < deadline, `power state ${node.power_state}, never ${state}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** What is asked of every refused call: its status, a JSON-RPC error object, nothing run. */
function assertRefused(
  answer: { status: number; body: Record<string, unknown> },
  status: number,
  title: string,
) {
  assert.equal(answer.status, status, `${title}: ${JSON.stringify(answer.body)}`);
  assert.equal(answer.body.jsonrpc, '2.0', title);
  assert.equal(answer.body.id, null, title);
  const error = answer.body.error as { code: number; message: string };
  assert.equal(typeof error.message, 'string', title);
  assert.equal(error.code, -32003, title);
  assert.equal('result' in answer.body, false, title);
}

describe('a conductor whose RPC checks nothing stays on loopback', () => {
  const planWith = (flags: Record<string, unknown>) =>
    planBaremetal({ flags: { databaseUrl: 'sqlite::memory:', ...flags } });

  test('noauth on a non-loopback address is refused; loopback, a shared secret or amqp are not', async () => {
    for (const url of ['http://0.0.0.0:0', 'http://[::]:8089', 'http://192.0.2.10:0']) {
      const { config } = await planWith({ rpcTransportUrl: url });
      assert.throws(
        () => checkBaremetalRpcAuth(config, 'conductor'),
        (error: Error) =>
          error instanceof UnsafeListenError &&
          /^baremetal-conductor will not listen for RPC on .* with auth_strategy noauth: /.test(
            error.message,
          ) &&
          /rpc_transport_url/.test(error.message) &&
          /\[json_rpc\] auth_strategy = keystone/.test(error.message) &&
          /rpc_shared_secret/.test(error.message),
        url,
      );
      // The API side of the same file does not listen for RPC.
      checkBaremetalRpcAuth(config, 'api');
    }
    for (const url of ['http://127.0.0.1:0', 'http://[::1]:0', 'http://localhost:0']) {
      checkBaremetalRpcAuth((await planWith({ rpcTransportUrl: url })).config, 'conductor');
    }
    const secret = await planWith({ rpcTransportUrl: 'http://0.0.0.0:0', rpcSharedSecret: 's' });
    checkBaremetalRpcAuth(secret.config, 'conductor');
    const amqp = await planWith({ rpcTransport: 'amqp', rpcTransportUrl: 'amqp://broker:5672/' });
    checkBaremetalRpcAuth(amqp.config, 'conductor');
  });

  test('keystone: each side needs its own settings, every missing one named; http_basic is refused', async () => {
    const keystone = await planWith({ authStrategy: 'keystone' });
    assert.throws(
      () => checkBaremetalRpcAuth(keystone.config, 'api'),
      (error: Error) =>
        error instanceof ConfigFileError &&
        error.message ===
          'the RPC under auth_strategy keystone: [json_rpc] auth_url is required; auth_type is required (password); password is required; username (or user_id) is required',
    );
    assert.throws(
      () => checkBaremetalRpcAuth(keystone.config, 'conductor'),
      (error: Error) =>
        error instanceof ConfigFileError &&
        error.message.startsWith(
          'the RPC under auth_strategy keystone: [keystone_authtoken] auth_url is required;',
        ),
    );
    // [json_rpc] auth_strategy wins over [DEFAULT]'s, either way.
    const rpcNoauth = await planWith({ authStrategy: 'keystone', jsonRpcAuthStrategy: 'noauth' });
    assert.equal(checkBaremetalRpcAuth(rpcNoauth.config, 'api').client, undefined);
    const credentials = {
      jsonRpcAuthType: 'password',
      jsonRpcAuthUrl: 'http://127.0.0.1:5000',
      jsonRpcUsername: 'ironic',
      jsonRpcPassword: 'p',
      jsonRpcUserDomainName: 'Default',
      jsonRpcSystemScope: 'all',
    };
    const rpcKeystone = await planWith({ jsonRpcAuthStrategy: 'keystone', ...credentials });
    const client = checkBaremetalRpcAuth(rpcKeystone.config, 'api').client;
    assert.equal(client?.authUrl, 'http://127.0.0.1:5000/v3');
    assert.deepEqual(client?.scope, { system: { all: true } });
    assert.deepEqual(checkBaremetalRpcAuth(rpcKeystone.config, 'api').allowedRoles, ['admin']);
    const basic = await planWith({ jsonRpcAuthStrategy: 'http_basic' });
    assert.throws(
      () => checkBaremetalRpcAuth(basic.config, 'conductor'),
      (error: Error) =>
        error instanceof ConfigFileError && /'http_basic' is not served/.test(error.message),
    );
  });

  test('startBaremetalConductor refuses before it opens anything; the command exits 64 naming the option', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bm-rpc-listen-'));
    try {
      const database = join(dir, 'never.sqlite');
      const plan = await planBaremetal({
        flags: { databaseUrl: `sqlite:${database}`, rpcTransportUrl: 'http://0.0.0.0:0' },
      });
      await assert.rejects(startBaremetalConductor(plan, { log: QUIET }), UnsafeListenError);
      assert.equal(existsSync(database), false, 'no database opened');

      // Its own file, so that no ironic.conf of this machine takes part.
      const conf = join(dir, 'ironic.conf');
      await writeFile(conf, '[DEFAULT]\nauth_strategy = noauth\n');
      let err = '';
      const status = await runCli(
        [
          'baremetal',
          'conductor',
          '--config-file',
          conf,
          '--db',
          `sqlite:${database}`,
          '--rpc-transport-url',
          'http://0.0.0.0:0',
        ],
        { out: () => {}, err: (text) => (err += text) },
      );
      assert.equal(status, 64);
      assert.equal(err.trim().split('\n').length, 1, err);
      assert.match(
        err,
        /^baton: error: baremetal-conductor will not listen for RPC on 0\.0\.0\.0 with auth_strategy noauth: .*rpc_transport_url.*rpc_shared_secret/,
      );
      assert.equal(existsSync(database), false, 'no database opened');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('rpc_shared_secret: the RPC authenticated without Keystone', () => {
  let dir: string;
  let databaseUrl: string;
  let conductor: BaremetalConductorProcess;
  let api: BaremetalApiProcess;
  let address: string;
  const logLines: string[] = [];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bm-rpc-secret-'));
    databaseUrl = `sqlite:${join(dir, 'bm.sqlite')}`;
    const flags = { databaseUrl, rpcSharedSecret: 's3cret', heartbeatInterval: 1 };
    conductor = await startBaremetalConductor(
      await planBaremetal({
        flags: { ...flags, host: 'bm-secret-1', automatedClean: false },
      }),
      {
        log: QUIET,
        logSink: { write: (line: string) => logLines.push(line) },
      },
    );
    api = await startBaremetalApi(
      await planBaremetal({ flags: { ...flags, apiPort: 0, drainDelaySeconds: 0 } }),
    );
    address = await rpcAddressOf(databaseUrl, 'bm-secret-1');
  });
  after(async () => {
    await api?.stop();
    await conductor?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('no secret or a wrong one: 401, nothing run, one warning each; the right one runs the call, and the API sends it', async () => {
    const node = await createNode(api.url, 'secret-1', {});
    const before = (await nodeOf(api.url, node.uuid, {})).power_state;
    const args = {
      node_id: node.uuid,
      new_state: before === 'power on' ? 'power off' : 'power on',
    };
    const refusedBefore = logLines.filter((line) => /refused/.test(line)).length;
    assertRefused(await rawCall(address, 'change_node_power_state', args), 401, 'no secret');
    assertRefused(
      await rawCall(address, 'change_node_power_state', args, { authorization: 'Bearer nope' }),
      401,
      'a wrong secret',
    );
    assertRefused(
      await rawCall(address, 'destroy_node', { node_id: node.uuid }, { authorization: 's3cret' }),
      401,
      'the secret without Bearer',
    );
    const refusals = logLines.filter((line) => /refused/.test(line)).slice(refusedBefore);
    assert.equal(refusals.length, 3, refusals.join(''));
    for (const line of refusals) {
      assert.match(line, / WARN(ING)? /);
      assert.match(line, /RPC request from 127\.0\.0\.1:\d+ to topic ironic\.conductor_manager/);
      assert.equal(line.trim().split('\n').length, 1, 'one line, no stack trace');
    }
    assert.equal((await nodeOf(api.url, node.uuid, {})).power_state, before);

    const allowed = await rawCall(address, 'change_node_power_state', args, {
      authorization: 'Bearer s3cret',
    });
    assert.equal(allowed.status, 200, JSON.stringify(allowed.body));
    assert.equal('error' in allowed.body, false, JSON.stringify(allowed.body));
    await powerStateBecomes(api.url, node.uuid, args.new_state, {});

    // The API sends the secret: a power action through the API.
    const other = await createNode(api.url, 'secret-2', {});
    const target = other.power_state === 'power off' ? 'power on' : 'power off';
    assertRefused(
      await rawCall(address, 'change_node_power_state', { node_id: other.uuid, new_state: target }),
      401,
      'bare',
    );
    const answer = await fetch(`${api.url}/v1/nodes/${other.uuid}/states/power`, {
      method: 'PUT',
      headers: { ...API_VERSION, 'content-type': 'application/json' },
      body: JSON.stringify({ target }),
    });
    assert.equal(answer.status, 202, await answer.text());
    await powerStateBecomes(api.url, other.uuid, target, {});
  });
});

describe('the conductor RPC behind a real Keystone', { skip: keystoneSkipReason() }, () => {
  let keystone: RealKeystone;
  let dir: string;
  let databaseUrl: string;
  let conductor: BaremetalConductorProcess;
  let api: BaremetalApiProcess;
  let address: string;
  let admin: string;
  let file: string;

  before(async () => {
    keystone = await startRealKeystone();
    dir = await mkdtemp(join(tmpdir(), 'bm-rpc-keystone-'));
    databaseUrl = `sqlite:${join(dir, 'bm.sqlite')}`;
    file = join(dir, 'ironic.conf');
    await writeFile(
      file,
      iniSection('DEFAULT', { auth_strategy: 'keystone' }) +
        iniSection(
          'keystone_authtoken',
          authtokenOptions(keystone, { http_request_max_retries: '0' }),
        ) +
        // The API's own credentials for the RPC: Keystone's admin (role admin in project admin).
        iniSection('json_rpc', {
          auth_type: 'password',
          auth_url: keystone.url,
          username: 'admin',
          password: ADMIN_PASSWORD,
          user_domain_name: 'Default',
          project_name: 'admin',
          project_domain_name: 'Default',
        }),
    );
    conductor = await startBaremetalConductor(
      await planBaremetal({
        configFile: file,
        flags: { databaseUrl, host: 'bm-rpc-keystone-1', heartbeatInterval: 1 },
      }),
      { log: QUIET },
    );
    api = await startBaremetalApi(
      await planBaremetal({
        configFile: file,
        flags: { databaseUrl, apiPort: 0, drainDelaySeconds: 0 },
      }),
    );
    address = await rpcAddressOf(databaseUrl, 'bm-rpc-keystone-1');
    admin = await keystone.token('admin', { system: true });
  });
  after(async () => {
    await api?.stop();
    await conductor?.stop();
    await keystone?.destroy();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const asAdmin = () => ({ 'x-auth-token': admin });

  test('a bare call (a curl to rpc_address) is a 401 and runs nothing', async () => {
    const node = await createNode(api.url, 'bare-1', asAdmin());
    const before = (await nodeOf(api.url, node.uuid, asAdmin())).power_state;
    const target = before === 'power on' ? 'power off' : 'power on';
    for (const headers of [{}, { 'x-auth-token': 'not-a-token' }] as Record<string, string>[]) {
      assertRefused(
        await rawCall(
          address,
          'change_node_power_state',
          { node_id: node.uuid, new_state: target },
          headers,
        ),
        401,
        `change_node_power_state ${JSON.stringify(headers)}`,
      );
      assertRefused(
        await rawCall(address, 'destroy_node', { node_id: node.uuid }, headers),
        401,
        `destroy_node ${JSON.stringify(headers)}`,
      );
    }
    // Forged identity headers beside no token change nothing either.
    assertRefused(
      await rawCall(
        address,
        'destroy_node',
        { node_id: node.uuid },
        { 'x-roles': 'admin', 'x-identity-status': 'Confirmed' },
      ),
      401,
      'forged headers',
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal((await nodeOf(api.url, node.uuid, asAdmin())).power_state, before);
  });

  test('a token without an allowed role is a 403 and runs nothing', async () => {
    const node = await createNode(api.url, 'member-1', asAdmin());
    const before = (await nodeOf(api.url, node.uuid, asAdmin())).power_state;
    const target = before === 'power on' ? 'power off' : 'power on';
    for (const token of [
      await keystone.token(USERS.member.name, { project: 'demo' }),
      await keystone.token(USERS.systemReader.name, { system: true }),
      await keystone.token(USERS.service.name, { project: USERS.service.project }),
    ]) {
      const refused = await rawCall(
        address,
        'change_node_power_state',
        { node_id: node.uuid, new_state: target },
        { 'x-auth-token': token },
      );
      assertRefused(refused, 403, 'a token without admin');
      assert.equal((refused.body.error as { message: string }).message, 'Forbidden');
    }
    assert.equal((await nodeOf(api.url, node.uuid, asAdmin())).power_state, before);
  });

  test('an admin token runs the call a bare one could not', async () => {
    const node = await createNode(api.url, 'admin-1', asAdmin());
    const before = (await nodeOf(api.url, node.uuid, asAdmin())).power_state;
    const target = before === 'power on' ? 'power off' : 'power on';
    const args = { node_id: node.uuid, new_state: target };
    assertRefused(await rawCall(address, 'change_node_power_state', args), 401, 'bare');
    const projectAdmin = await keystone.token('admin', { project: 'admin' });
    const answer = await rawCall(address, 'change_node_power_state', args, {
      'x-auth-token': projectAdmin,
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal('error' in answer.body, false, JSON.stringify(answer.body));
    await powerStateBecomes(api.url, node.uuid, target, asAdmin());
  });

  test('an API whose [json_rpc] user lacks the role answers 500 naming the refusal, and nothing runs', async () => {
    const node = await createNode(api.url, 'wrong-user-1', asAdmin());
    const before = (await nodeOf(api.url, node.uuid, asAdmin())).power_state;
    const target = before === 'power on' ? 'power off' : 'power on';
    // A second API of the same deployment, calling as a project member.
    const member = join(dir, 'member.conf');
    await writeFile(
      member,
      iniSection('json_rpc', {
        username: USERS.member.name,
        password: PASSWORD,
        project_name: USERS.member.project,
      }),
    );
    const wrong = await startBaremetalApi(
      await planBaremetal({
        configFiles: [file, member],
        flags: { databaseUrl, apiPort: 0, drainDelaySeconds: 0 },
      }),
    );
    try {
      const answer = await fetch(`${wrong.url}/v1/nodes/${node.uuid}/states/power`, {
        method: 'PUT',
        headers: { ...API_VERSION, ...asAdmin(), 'content-type': 'application/json' },
        body: JSON.stringify({ target }),
      });
      assert.equal(answer.status, 500);
      assert.match(await answer.text(), /the credentials lack a role the server requires/);
    } finally {
      await wrong.stop();
    }
    assert.equal((await nodeOf(api.url, node.uuid, asAdmin())).power_state, before);
  });

  test('the API calls with a token of its own: a power action through the API, while a bare call is refused', async () => {
    const node = await createNode(api.url, 'e2e-1', asAdmin());
    const target = node.power_state === 'power off' ? 'power on' : 'power off';
    assertRefused(
      await rawCall(address, 'change_node_power_state', { node_id: node.uuid, new_state: target }),
      401,
      'bare',
    );
    const answer = await fetch(`${api.url}/v1/nodes/${node.uuid}/states/power`, {
      method: 'PUT',
      headers: { ...API_VERSION, ...asAdmin(), 'content-type': 'application/json' },
      body: JSON.stringify({ target }),
    });
    assert.equal(answer.status, 202, await answer.text());
    await powerStateBecomes(api.url, node.uuid, target, asAdmin());
    // And a node is destroyed through the API (destroy_node over the authenticated RPC).
    const deleted = await fetch(`${api.url}/v1/nodes/${node.uuid}`, {
      method: 'DELETE',
      headers: { ...API_VERSION, ...asAdmin() },
    });
    assert.equal(deleted.status, 204, await deleted.text());
  });
});
