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
  startBaremetalConductor,
} from '../../../src/baremetal/service.ts';
import { authtokenOptions, iniSection } from '../../auth/support/keystone-settings.ts';
import { realIronicMissing, startRealIronic } from '../../support/real-ironic.ts';
import {
  ADMIN_PASSWORD,
  keystoneSkipReason,
  type RealKeystone,
  startRealKeystone,
  USERS,
} from '../../support/real-keystone.ts';
import { skipOutsideCi } from '../../support/skip-outside-ci.ts';

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
  let conductor: Awaited<ReturnType<typeof startBaremetalConductor>>;
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
        ) +
        // The API's credentials for the conductors' RPC (it wants an admin: rpc-auth.test.ts).
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
    const plan = await planBaremetal({
      configFile: file,
      flags: {
        databaseUrl: `sqlite:${join(dir, 'bm.sqlite')}`,
        apiPort: 0,
        drainDelaySeconds: 0,
      },
    });
    // A conductor first, so that the API's ring has it from its first request.
    conductor = await startBaremetalConductor(
      await planBaremetal({
        configFile: file,
        flags: {
          databaseUrl: `sqlite:${join(dir, 'bm.sqlite')}`,
          host: 'bm-keystone-1',
          heartbeatInterval: 1,
          automatedClean: false,
        },
      }),
      { log: { info: () => {}, warn: () => {}, error: () => {} } },
    );
    api = await startBaremetalApi(plan);
  });
  after(async () => {
    await api?.stop();
    await conductor?.stop();
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

  test('403s, 404s and project lists as the real Ironic 21.4 answers them behind the same Keystone', {
    skip: skipOutsideCi(realIronicMissing()),
  }, async () => {
    const admin = await keystone.token('admin', { system: true });
    const real = await startRealIronic({
      automatedClean: false,
      config: {
        DEFAULT: { auth_strategy: 'keystone' },
        keystone_authtoken: authtokenOptions(keystone, { http_request_max_retries: '0' }),
      },
      readyHeaders: { 'x-auth-token': admin },
    });
    try {
      const { demo, other } = keystone.ids.projects;
      const tokens = {
        systemReader: await keystone.token(USERS.systemReader.name, { system: true }),
        ownerMember: await keystone.token(USERS.member.name, { project: 'demo' }),
        ownerReader: await keystone.token(USERS.reader.name, { project: 'demo' }),
        lesseeMember: await keystone.token(USERS.other.name, { project: 'other' }),
      };
      const send = (base: string, token: string, method: string, path: string, body?: unknown) =>
        fetch(`${base}${path}`, {
          method,
          headers: {
            'x-auth-token': token,
            'x-openstack-ironic-api-version': '1.78',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
      for (const base of [api.url, real.url]) {
        for (const node of [
          { name: 'leased', driver: 'fake-hardware', owner: demo, lessee: other },
          { name: 'unowned', driver: 'fake-hardware' },
        ]) {
          const created = await send(base, admin, 'POST', '/v1/nodes', node);
          assert.equal(created.status, 201, `${base}: ${await created.text()}`);
        }
      }
      const cases: [keyof typeof tokens, string, string, unknown?][] = [
        ['ownerMember', 'GET', '/v1/chassis'],
        ['systemReader', 'POST', '/v1/chassis', { description: 'x' }],
        ['ownerMember', 'GET', '/v1/nodes/unowned'],
        ['lesseeMember', 'GET', '/v1/nodes/unowned'],
        [
          'ownerReader',
          'PATCH',
          '/v1/nodes/leased',
          [{ op: 'replace', path: '/name', value: 'y' }],
        ],
        ['lesseeMember', 'PUT', '/v1/nodes/leased/states/provision', { target: 'manage' }],
        ['lesseeMember', 'DELETE', '/v1/nodes/leased'],
        ['ownerMember', 'GET', `/v1/nodes?project=${other}`],
        ['ownerMember', 'POST', '/v1/nodes', { driver: 'fake-hardware' }],
        // The node actions (console, NMI, boot mode, indicators, vendor passthru).
        ['ownerReader', 'GET', '/v1/nodes/leased/states/console'],
        ['lesseeMember', 'PUT', '/v1/nodes/leased/states/console', { enabled: true }],
        ['lesseeMember', 'GET', '/v1/nodes/unowned/states/console'],
        ['ownerMember', 'PUT', '/v1/nodes/leased/management/inject_nmi', {}],
        ['ownerReader', 'PUT', '/v1/nodes/leased/states/boot_mode', { target: 'uefi' }],
        ['lesseeMember', 'PUT', '/v1/nodes/leased/states/secure_boot', { target: 'maybe' }],
        [
          'ownerReader',
          'PUT',
          '/v1/nodes/leased/management/indicators/led@system',
          { state: 'on' },
        ],
        ['ownerMember', 'GET', '/v1/nodes/leased/vendor_passthru/methods'],
        [
          'systemReader',
          'POST',
          '/v1/nodes/leased/vendor_passthru/third_method_sync',
          { bar: 'x' },
        ],
        ['ownerMember', 'GET', '/v1/drivers/fake-hardware/vendor_passthru/methods'],
        // RAID (set_raid_state, get_raid_logical_disk_properties).
        ['ownerReader', 'PUT', '/v1/nodes/leased/states/raid', {}],
        ['lesseeMember', 'PUT', '/v1/nodes/leased/states/raid', { logical_disks: [] }],
        ['lesseeMember', 'PUT', '/v1/nodes/unowned/states/raid', {}],
        ['ownerMember', 'GET', '/v1/drivers/fake-hardware/raid/logical_disk_properties'],
      ];
      for (const [who, method, path, body] of cases) {
        const [baton, ironic] = await Promise.all(
          [api.url, real.url].map((base) => send(base, tokens[who], method, path, body)),
        );
        const title = `${who} ${method} ${path}`;
        assert.equal(baton?.status, ironic?.status, title);
        assert.equal(await baton?.text(), await ironic?.text(), title);
      }
      for (const who of ['ownerMember', 'lesseeMember', 'systemReader'] as const) {
        const [baton, ironic] = await Promise.all(
          [api.url, real.url].map(async (base) => {
            const answer = await send(base, tokens[who], 'GET', '/v1/nodes');
            const { nodes } = (await answer.json()) as { nodes: { name: string }[] };
            return nodes.map((node) => node.name).sort();
          }),
        );
        assert.deepEqual(baton, ironic, `${who} GET /v1/nodes`);
      }
    } finally {
      await real.stop();
    }
  });

  test('an expired token is refused', async () => {
    await keystone.restart({ expirationSeconds: 4 });
    const token = await keystone.token(USERS.systemReader.name, { system: true });
    // Issued before this line, so expired 4 s after it (a wait, not a timing assertion).
    await new Promise((resolve) => setTimeout(resolve, 5000));
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
