/**
 * The bare metal API with `auth_strategy = keystone` against a real Keystone (one start): the
 * API process as the composition root starts it, from an ironic.conf, its tokens validated by
 * Keystone and Ironic's default policy applied to what Keystone says. Valid, revoked, expired
 * and wrong-scope tokens, the public routes, and Keystone down (a 503, never an open door).
 * The policy per role and route is policy.test.ts's.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  type BaremetalApiProcess,
  planBaremetal,
  startBaremetalApi,
} from '../../../src/baremetal/service.ts';
import { authtokenOptions, iniSection } from '../../auth/support/keystone-settings.ts';
import {
  keystoneSkipReason,
  type RealKeystone,
  startRealKeystone,
  USERS,
} from '../../support/real-keystone.ts';

const UNAUTHORIZED = {
  error: {
    code: 401,
    title: 'Unauthorized',
    message: 'The request you have made requires authentication.',
  },
};

describe('the bare metal API behind a real Keystone', { skip: keystoneSkipReason() }, () => {
  let keystone: RealKeystone;
  let api: BaremetalApiProcess;
  let dir: string;

  before(async () => {
    keystone = await startRealKeystone();
    dir = await mkdtemp(join(tmpdir(), 'bm-keystone-'));
    const file = join(dir, 'ironic.conf');
    await writeFile(
      file,
      iniSection('DEFAULT', { auth_strategy: 'keystone' }) +
        iniSection(
          'keystone_authtoken',
          authtokenOptions(keystone, { http_request_max_retries: '0' }),
        ),
    );
    const plan = await planBaremetal({
      configFile: file,
      flags: {
        databaseUrl: `sqlite:${join(dir, 'bm.sqlite')}`,
        apiPort: 0,
        drainDelaySeconds: 0,
      },
    });
    api = await startBaremetalApi(plan);
  });
  after(async () => {
    await api?.stop();
    await keystone?.destroy();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const get = (path: string, token: string | null, headers: Record<string, string> = {}) =>
    fetch(`${api.url}${path}`, {
      headers: {
        'x-openstack-ironic-api-version': '1.82',
        ...(token === null ? {} : { 'x-auth-token': token }),
        ...headers,
      },
    });

  test('the public routes answer without a token; the others want one', async () => {
    assert.equal((await get('/', null)).status, 200);
    assert.equal((await get('/v1', null)).status, 200);
    assert.equal((await get('/v1/', null)).status, 200);
    for (const token of [null, 'not-a-token']) {
      const refused = await get('/v1/nodes', token);
      assert.equal(refused.status, 401);
      assert.equal(refused.headers.get('www-authenticate'), `Keystone uri="${keystone.url}"`);
      assert.deepEqual(await refused.json(), UNAUTHORIZED);
    }
  });

  test('roles and scopes come from the token, as keystonemiddleware presents them', async () => {
    const system = await keystone.token('admin', { system: true });
    assert.equal((await get('/v1/chassis', system)).status, 200);
    const created = await fetch(`${api.url}/v1/chassis`, {
      method: 'POST',
      headers: { 'x-auth-token': system, 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'rack 1' }),
    });
    assert.equal(created.status, 201);

    const reader = await keystone.token(USERS.systemReader.name, { system: true });
    assert.equal((await get('/v1/chassis', reader)).status, 200);
    const refused = await fetch(`${api.url}/v1/chassis`, {
      method: 'POST',
      headers: { 'x-auth-token': reader, 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(refused.status, 403);
    assert.match(await refused.text(), /baremetal:chassis:create/);

    // A project member: its (empty) share of the nodes, and no chassis.
    const member = await keystone.token(USERS.member.name, { project: 'demo' });
    const nodes = await get('/v1/nodes', member);
    assert.equal(nodes.status, 200);
    assert.deepEqual(await nodes.json(), { nodes: [] });
    assert.equal((await get('/v1/chassis', member)).status, 403);
    // A header forged beside the token is not believed.
    const forged = await get('/v1/chassis', member, {
      'x-roles': 'admin',
      'openstack-system-scope': 'all',
    });
    assert.equal(forged.status, 403);
  });

  test('a token of a scope no rule is meant for is refused', async () => {
    const domain = await keystone.token(USERS.domainMember.name, { domain: 'default' });
    const refused = await get('/v1/nodes', domain);
    assert.equal(refused.status, 403);
    assert.match(await refused.text(), /baremetal:node:list_all/);
  });

  test('a revoked token is refused', async () => {
    const revoked = await keystone.token(USERS.systemReader.name, { system: true });
    await keystone.revoke(revoked);
    const answer = await get('/v1/chassis', revoked);
    assert.equal(answer.status, 401);
    assert.deepEqual(await answer.json(), UNAUTHORIZED);
  });

  test('an expired token is refused', async () => {
    await keystone.restart({ expirationSeconds: 4 });
    const token = await keystone.token(USERS.systemReader.name, { system: true });
    const expiresAt = Date.parse(
      (
        (await (
          await fetch(`${keystone.url}/v3/auth/tokens`, {
            headers: { 'x-auth-token': await keystone.adminToken(), 'x-subject-token': token },
          })
        ).json()) as { token: { expires_at: string } }
      ).token.expires_at,
    );
    // Waits for Keystone's clock to pass the expiry (not a timing assertion).
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now()) + 1000));
    const answer = await get('/v1/chassis', token);
    assert.equal(answer.status, 401);
  });

  test('Keystone down: a token it never validated gets a 503 in Ironic’s format', async () => {
    const unseen = await keystone.token(USERS.systemReader.name, { system: true });
    await keystone.stop();
    const answer = await get('/v1/chassis', unseen);
    assert.equal(answer.status, 503);
    const body = (await answer.json()) as { error_message: string };
    assert.equal(JSON.parse(body.error_message).faultcode, 'Server');
    assert.match(body.error_message, /The Keystone service is temporarily unavailable\./);
    assert.equal((await get('/v1/chassis', null)).status, 401);
    assert.equal((await get('/v1', null)).status, 200);
  });
});
