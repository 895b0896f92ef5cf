/**
 * The pure parts of src/auth, each on the cases the real code meets: loopback addresses,
 * Keystone's token bodies, oslo.context's reading of headers and its policy values, the token
 * cache's bounds, access-rule paths, and [keystone_authtoken]'s resolution.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  checkListenSafety,
  credentialsFromHeaders,
  isLoopbackAddress,
  policyValuesOf,
  tokenScopeOf,
  UnsafeListenError,
} from '../../src/auth/index.ts';
import { identityV3Url } from '../../src/auth/keystone-auth-config.ts';
import { accessRulePathMatches } from '../../src/auth/keystone-authenticator.ts';
import {
  isExpired,
  MalformedTokenError,
  parseKeystoneTime,
  readKeystoneToken,
  tokenHeaders,
} from '../../src/auth/keystone-token.ts';
import { TokenCache } from '../../src/auth/token-cache.ts';
import { ConfigFileError } from '../../src/service/config-ini.ts';
import { configFrom } from './support/keystone-settings.ts';

describe('listen safety', () => {
  it('knows loopback addresses', () => {
    for (const host of [
      '127.0.0.1',
      '127.1.2.3',
      '::1',
      '[::1]',
      '0:0:0:0:0:0:0:1',
      '::ffff:127.0.0.1',
      'localhost',
      'LOCALHOST',
    ]) {
      assert.equal(isLoopbackAddress(host), true, host);
    }
    for (const host of [
      '0.0.0.0',
      '::',
      '',
      '10.0.0.1',
      '::ffff:10.0.0.1',
      '128.0.0.1',
      'example.org',
      'localhost.example',
      '::2',
    ]) {
      assert.equal(isLoopbackAddress(host), false, host);
    }
  });

  it('refuses an unauthenticated strategy beyond loopback unless the risk is accepted', () => {
    const plan = {
      binary: 'ironic-api',
      host: '0.0.0.0',
      authStrategy: 'noauth',
      authenticates: false,
      insecureNoauthOnAnyAddress: false,
    };
    assert.throws(
      () => checkListenSafety(plan),
      (error: unknown) =>
        error instanceof UnsafeListenError &&
        /^ironic-api will not listen on 0\.0\.0\.0 with auth_strategy noauth:/.test(error.message),
    );
    checkListenSafety({ ...plan, insecureNoauthOnAnyAddress: true });
    checkListenSafety({ ...plan, authenticates: true });
    checkListenSafety({ ...plan, host: '127.0.0.1' });
  });
});

const TOKEN = {
  token: {
    methods: ['password'],
    user: { domain: { id: 'default', name: 'Default' }, id: 'u1', name: 'alice' },
    expires_at: '2026-11-25T19:42:09.000000Z',
    project: { domain: { id: 'default', name: 'Default' }, id: 'p1', name: 'demo' },
    roles: [
      { id: 'r1', name: 'member' },
      { id: 'r2', name: 'reader' },
    ],
  },
};

describe("Keystone's token bodies", () => {
  it('reads a project-scoped token and the headers keystonemiddleware sets from it', () => {
    const token = readKeystoneToken(TOKEN);
    assert.equal(token.expiresAt, Date.UTC(2026, 10, 25, 19, 42, 9));
    assert.equal(token.isAdminProject, true);
    assert.deepEqual(tokenHeaders(token, 'user'), {
      'x-roles': 'member,reader',
      'x-project-id': 'p1',
      'x-project-name': 'demo',
      'x-project-domain-id': 'default',
      'x-project-domain-name': 'Default',
      'x-user-id': 'u1',
      'x-user-name': 'alice',
      'x-user-domain-id': 'default',
      'x-user-domain-name': 'Default',
      'x-is-admin-project': 'True',
      'x-role': 'member,reader',
      'x-user': 'alice',
      'x-tenant-id': 'p1',
      'x-tenant-name': 'demo',
      'x-tenant': 'demo',
    });
    assert.deepEqual(Object.keys(tokenHeaders(token, 'service')).sort(), [
      'x-service-project-domain-id',
      'x-service-project-domain-name',
      'x-service-project-id',
      'x-service-project-name',
      'x-service-roles',
      'x-service-user-domain-id',
      'x-service-user-domain-name',
      'x-service-user-id',
      'x-service-user-name',
    ]);
  });

  it('reads system scope, is_admin_project and access rules; refuses a body that is no token', () => {
    const { project: _, ...unscoped } = TOKEN.token;
    const system = readKeystoneToken({
      token: { ...unscoped, system: { all: true }, is_admin_project: false },
    });
    assert.equal(system.systemScope, 'all');
    assert.equal(system.projectId, undefined);
    assert.equal(tokenHeaders(system, 'user')['x-is-admin-project'], 'False');
    const restricted = readKeystoneToken({
      token: {
        ...TOKEN.token,
        application_credential: {
          id: 'a',
          access_rules: [{ method: 'GET', path: '/v1/**', service: 'baremetal' }],
        },
      },
    });
    assert.deepEqual(restricted.accessRules, [
      { method: 'GET', path: '/v1/**', service: 'baremetal' },
    ]);
    for (const body of [
      undefined,
      {},
      { token: {} },
      { token: { ...TOKEN.token, expires_at: 'soon' } },
      { token: { ...TOKEN.token, user: {} } },
    ]) {
      assert.throws(() => readKeystoneToken(body), MalformedTokenError);
    }
  });

  it("expires when its time has passed, as keystoneauth's will_expire_soon(0) says", () => {
    const token = readKeystoneToken(TOKEN);
    assert.equal(isExpired(token, token.expiresAt), false);
    assert.equal(isExpired(token, token.expiresAt + 1), true);
    assert.equal(parseKeystoneTime('2026-11-25T19:42:09Z'), token.expiresAt);
    assert.equal(
      parseKeystoneTime('2026-11-25T19:42:09.5+01:00'),
      token.expiresAt - 3_600_000 + 500,
    );
    assert.equal(parseKeystoneTime('2026-11-25T19:42:09'), token.expiresAt);
    assert.equal(parseKeystoneTime('tomorrow'), undefined);
  });
});

describe("oslo.context's credentials", () => {
  it('reads the headers with its fallbacks and defaults', () => {
    const credentials = credentialsFromHeaders({
      'x-user': 'bob',
      'x-tenant-id': 'p2',
      'x-role': 'reader, member',
      'x-domain-id': 'd1',
    });
    assert.equal(credentials.userId, 'bob');
    assert.equal(credentials.projectId, 'p2');
    assert.deepEqual(credentials.roles, ['reader', 'member']);
    assert.equal(credentials.isAdminProject, true);
    assert.equal(credentials.service, undefined);
    assert.equal(tokenScopeOf(credentials), 'domain');
    assert.equal(credentialsFromHeaders({ 'x-is-admin-project': 'False' }).isAdminProject, false);
  });

  it("hands oslo.policy to_policy_values' keys, None for what is absent, and `system` when system-scoped", () => {
    const values = policyValuesOf(
      credentialsFromHeaders({
        'x-user-id': 'u',
        'openstack-system-scope': 'all',
        'x-roles': 'admin',
        'x-service-roles': 'service',
        'x-service-user-id': 's',
      }),
    );
    assert.deepEqual(values, {
      user_id: 'u',
      user_domain_id: null,
      system_scope: 'all',
      domain_id: null,
      project_id: null,
      project_domain_id: null,
      roles: ['admin'],
      is_admin_project: true,
      service_user_id: 's',
      service_user_domain_id: null,
      service_project_id: null,
      service_project_domain_id: null,
      service_roles: ['service'],
      system: 'all',
    });
  });
});

describe('the token cache', () => {
  it('keeps an entry for its time, then asks again; holds no more than its bound', async () => {
    let now = 0;
    const cache = new TokenCache<string>({ ttlSeconds: 10, maxEntries: 2, now: () => now });
    let asked = 0;
    const validate = async (token: string) => {
      asked++;
      return `valid ${token}`;
    };
    assert.equal(await cache.getOrValidate('a', validate), 'valid a');
    now = 9_999;
    assert.equal(await cache.getOrValidate('a', validate), 'valid a');
    assert.equal(asked, 1);
    now = 10_000;
    await cache.getOrValidate('a', validate);
    assert.equal(asked, 2);
    await cache.getOrValidate('b', validate);
    await cache.getOrValidate('a', validate); // a used last
    await cache.getOrValidate('c', validate); // b dropped
    assert.equal(cache.size, 2);
    assert.equal(cache.get('b'), undefined);
    assert.equal(cache.get('a'), 'valid a');
  });

  it('asks once for concurrent lookups of one token, and keeps no failure', async () => {
    const cache = new TokenCache<string>({ ttlSeconds: 300, maxEntries: 10 });
    let asked = 0;
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow = async () => {
      asked++;
      await gate;
      return 'ok';
    };
    const both = Promise.all([cache.getOrValidate('t', slow), cache.getOrValidate('t', slow)]);
    release();
    assert.deepEqual(await both, ['ok', 'ok']);
    assert.equal(asked, 1);
    await assert.rejects(cache.getOrValidate('bad', async () => Promise.reject(new Error('no'))));
    assert.equal(cache.get('bad'), undefined);
    const none = new TokenCache<string>({ ttlSeconds: 0, maxEntries: 10 });
    await none.getOrValidate('t', async () => 'ok');
    assert.equal(none.size, 0, 'a cache time of 0 keeps nothing');
  });
});

describe('access rules and settings', () => {
  it("matches paths as keystonemiddleware's _path_matches does (literal text escaped)", () => {
    assert.equal(accessRulePathMatches('/v1/nodes/n1', '/v1/nodes/*'), true);
    assert.equal(accessRulePathMatches('/v1/nodes/n1/ports', '/v1/nodes/*'), false);
    assert.equal(accessRulePathMatches('/v1/nodes/n1/ports', '/v1/nodes/**'), true);
    assert.equal(accessRulePathMatches('/v1/nodes/n1', '/v1/nodes/{node_id}'), true);
    assert.equal(accessRulePathMatches('/v1xnodes', '/v1.nodes'), false);
  });

  it('resolves [keystone_authtoken], naming every missing or contradictory option', () => {
    const config = configFrom({
      auth_url: 'http://keystone:5000/',
      auth_type: 'password',
      username: 'placement',
      password: 'pw',
      default_domain_id: 'default',
      project_name: 'service',
    });
    assert.equal(config.authUrl, 'http://keystone:5000/v3');
    assert.equal(config.wwwAuthenticateUri, 'http://keystone:5000/');
    assert.deepEqual(config.user, { name: 'placement', domain: { id: 'default' } });
    assert.deepEqual(config.scope, { project: { name: 'service', domain: { id: 'default' } } });
    assert.equal(config.tokenCacheSeconds, 300);
    assert.equal(config.timeoutMs, 10_000);
    assert.deepEqual(
      configFrom({
        auth_url: 'http://k/v3',
        auth_type: 'password',
        user_id: 'u',
        password: 'p',
        system_scope: 'all',
      }).scope,
      { system: { all: true } },
    );
    assert.throws(
      () => configFrom({ auth_url: 'ftp://k', auth_type: 'password', user_id: 'u', password: 'p' }),
      (error: unknown) =>
        error instanceof ConfigFileError &&
        /auth_url: 'ftp:\/\/k' is not an http\(s\) URL/.test(error.message),
    );
    assert.throws(
      () =>
        configFrom({
          auth_url: 'http://k',
          auth_type: 'password',
          user_id: 'u',
          password: 'p',
          project_id: 'x',
          system_scope: 'all',
        }),
      /choose one scope: project_\*, domain_\* or system_scope/,
    );
    assert.throws(
      () => configFrom({ auth_type: 'token' }),
      /\[keystone_authtoken\] auth_type: 'token' is not one of password, v3password/,
    );
    assert.equal(identityV3Url('http://k:5000/v2.0'), 'http://k:5000/v3');
    assert.equal(identityV3Url('http://k/identity/v3/'), 'http://k/identity/v3');
  });
});
