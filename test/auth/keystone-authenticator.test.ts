/**
 * `auth_strategy = keystone` against a real Keystone (test/support/real-keystone.ts), started
 * once for this file: tokens of every scope mapped to credentials exactly as keystonemiddleware
 * presents them (checked against the installed keystonemiddleware on the same tokens),
 * unknown, revoked (refused once the cache entry expires), expired, service tokens, and
 * Keystone down or refusing the service's own credentials (503, never a pass).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  AuthenticationRequiredError,
  type HeaderBag,
  IdentityServiceUnavailableError,
  KeystoneAuthenticator,
  type KeystoneAuthenticatorOptions,
} from '../../src/auth/index.ts';
import {
  keystoneSkipReason,
  type RealKeystone,
  type Scope,
  startRealKeystone,
  USERS,
} from '../support/real-keystone.ts';
import {
  authtokenOptions,
  configFrom,
  throughKeystonemiddleware,
} from './support/keystone-settings.ts';

const skip = keystoneSkipReason();

/** A clock the tests move forward instead of waiting (real time plus an offset). */
/** A clock that moves only when told: real time passing (a slow Keystone) must not age entries. */
function movableClock() {
  let now = Date.now();
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const request = (headers: HeaderBag) => ({
  method: 'GET',
  path: '/resource_providers',
  headers,
});

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail('the request was let through');
}

describe('KeystoneAuthenticator against a real Keystone', { skip }, () => {
  let keystone: RealKeystone;
  const opened: KeystoneAuthenticator[] = [];
  const authenticator = async (
    extra: Record<string, string> = {},
    options: KeystoneAuthenticatorOptions = {},
  ) => {
    const made = await KeystoneAuthenticator.create(
      configFrom(authtokenOptions(keystone, extra)),
      options,
    );
    opened.push(made);
    return made;
  };

  before(async () => {
    keystone = await startRealKeystone();
    process.stderr.write(
      `# Keystone bootstrapped and serving in ${keystone.startSeconds.toFixed(1)} s\n`,
    );
  });
  after(async () => {
    for (const made of opened) made.close();
    await keystone?.destroy();
  });

  const tokenOf = (user: string, scope: Scope) => keystone.token(user, scope);

  test('a project member: ids, names, domains and roles, as keystonemiddleware presents them', async () => {
    const auth = await authenticator();
    const token = await tokenOf(USERS.member.name, { project: 'demo' });
    const outcome = await auth.authenticate(request({ 'x-auth-token': token }));
    const c = outcome.credentials;
    assert.equal(c.userId, keystone.ids.users.alice);
    assert.equal(c.userName, 'alice');
    assert.equal(c.userDomainId, 'default');
    assert.equal(c.projectId, keystone.ids.projects.demo);
    assert.equal(c.projectName, 'demo');
    assert.equal(c.projectDomainId, 'default');
    assert.equal(c.projectDomainName, 'Default');
    assert.equal(c.systemScope, undefined);
    assert.equal(c.domainId, undefined);
    assert.deepEqual([...c.roles].sort(), ['member', 'reader']);
    assert.equal(c.isAdminProject, true);
    assert.equal(outcome.headers['x-identity-status'], 'Confirmed');
    assert.equal(outcome.headers['x-tenant-id'], keystone.ids.projects.demo);
  });

  test('system, domain and project scopes, service tokens and forged headers: the headers keystonemiddleware presents', async () => {
    const auth = await authenticator();
    const systemAdmin = await tokenOf('admin', { system: true });
    const member = await tokenOf(USERS.member.name, { project: 'demo' });
    const serviceToken = await tokenOf(USERS.service.name, { project: 'service' });
    const systemService = await tokenOf('admin', { system: true });
    const cases: Record<string, string>[] = [
      { 'x-auth-token': systemAdmin },
      { 'x-auth-token': await tokenOf(USERS.systemReader.name, { system: true }) },
      { 'x-auth-token': await tokenOf(USERS.domainMember.name, { domain: 'default' }) },
      { 'x-auth-token': await tokenOf(USERS.reader.name, { project: 'demo' }) },
      { 'x-auth-token': await tokenOf('admin', { project: 'admin' }) },
      // a service token beside the user's: the X-Service-* headers
      { 'x-auth-token': member, 'x-service-token': serviceToken },
      // what a client forges is replaced by what the token says
      {
        'x-auth-token': member,
        'x-roles': 'admin',
        'x-project-id': 'forged',
        'x-user-id': 'forged',
        'x-service-roles': 'service',
        'x-is-admin-project': 'True',
        'openstack-system-scope': 'all',
      },
    ];
    // keystonemiddleware lets the service token's scope overwrite the user's
    // OpenStack-System-Scope; Baton presents the user's (docs/security.md).
    const scopeDifferences: Record<string, string>[] = [
      { 'x-auth-token': systemAdmin, 'x-service-token': serviceToken },
      { 'x-auth-token': member, 'x-service-token': systemService },
    ];
    const real = await throughKeystonemiddleware(
      authtokenOptions(keystone),
      [...cases, ...scopeDifferences].map((headers) => ({ path: '/resource_providers', headers })),
    );
    const presented = (index: number) => {
      const answer = real[index];
      assert.equal(answer?.status, 200, `keystonemiddleware accepted case ${index}`);
      const seen = { ...answer?.seen };
      // What the client sent (tokens, host) is not the auth layer's doing; no catalog is presented.
      for (const name of ['x-auth-token', 'x-service-token', 'host', 'x-service-catalog']) {
        delete seen[name];
      }
      return seen;
    };
    const sorted = (headers: Record<string, string>) =>
      Object.fromEntries(Object.entries(headers).sort());
    for (const [index, headers] of cases.entries()) {
      const ours = await auth.authenticate(request(headers));
      assert.deepEqual(sorted(ours.headers), sorted(presented(index)), `case ${index}`);
    }
    for (const [offset, headers] of scopeDifferences.entries()) {
      const theirs = presented(cases.length + offset);
      const ours = (await auth.authenticate(request(headers))).headers;
      const userScope = headers['x-auth-token'] === systemAdmin ? 'all' : undefined;
      assert.equal(ours['openstack-system-scope'], userScope, 'the user token decides the scope');
      assert.notEqual(theirs['openstack-system-scope'], userScope, "keystonemiddleware's quirk");
      delete theirs['openstack-system-scope'];
      const { 'openstack-system-scope': _, ...rest } = ours;
      assert.deepEqual(sorted(rest), sorted(theirs), 'every other header the same');
    }
  });

  test('the credentials of each scope, as a policy engine reads them', async () => {
    const auth = await authenticator();
    const system = await auth.authenticate(
      request({ 'x-auth-token': await tokenOf('admin', { system: true }) }),
    );
    assert.equal(system.credentials.systemScope, 'all');
    assert.equal(system.credentials.projectId, undefined);
    assert.deepEqual([...system.credentials.roles].sort(), ['admin', 'member', 'reader']);
    const domain = await auth.authenticate(
      request({ 'x-auth-token': await tokenOf(USERS.domainMember.name, { domain: 'default' }) }),
    );
    assert.equal(domain.credentials.domainId, 'default');
    assert.equal(domain.credentials.projectId, undefined);
    assert.equal(domain.credentials.systemScope, undefined);
    const withService = await auth.authenticate(
      request({
        'x-auth-token': await tokenOf(USERS.member.name, { project: 'demo' }),
        'x-service-token': await tokenOf(USERS.service.name, { project: 'service' }),
      }),
    );
    assert.deepEqual(withService.credentials.service?.roles, ['service']);
    assert.equal(withService.credentials.service?.userId, keystone.ids.users.placement);
    assert.equal(withService.credentials.service?.projectId, keystone.ids.projects.service);
  });

  test('no token, an unknown one, or an invalid service token: 401 naming where to authenticate', async () => {
    const auth = await authenticator({ www_authenticate_uri: 'https://keystone.example/identity' });
    const member = await tokenOf(USERS.member.name, { project: 'demo' });
    for (const headers of [
      {},
      { 'x-auth-token': '' },
      { 'x-auth-token': 'not-a-token' },
      { 'x-auth-token': `${member}x` },
      { 'x-auth-token': `${member}\u00e9` },
      { 'x-auth-token': 'two words' },
      { 'x-auth-token': member, 'x-service-token': 'not-a-token' },
      { 'x-service-token': await tokenOf(USERS.service.name, { project: 'service' }) },
    ]) {
      const error = await refusal(auth.authenticate(request(headers)));
      assert.ok(error instanceof AuthenticationRequiredError, `${Object.keys(headers)}: ${error}`);
      assert.equal(error.wwwAuthenticate, 'Keystone uri="https://keystone.example/identity"');
    }
    // without www_authenticate_uri, keystonemiddleware names auth_url
    const plain = await authenticator({ www_authenticate_uri: '' });
    const error = await refusal(plain.authenticate(request({})));
    assert.equal(
      (error as AuthenticationRequiredError).wwwAuthenticate,
      `Keystone uri="${keystone.url}"`,
    );
  });

  test('a revoked token is still accepted from the cache, and refused once its entry expires', async () => {
    const clock = movableClock();
    const auth = await authenticator({ token_cache_time: '300' }, { now: clock.now });
    const token = await tokenOf(USERS.member.name, { project: 'demo' });
    await auth.authenticate(request({ 'x-auth-token': token }));
    await keystone.revoke(token);
    // within token_cache_time: the cached validation stands, as in keystonemiddleware
    clock.advance(299_000);
    await auth.authenticate(request({ 'x-auth-token': token }));
    // past it: Keystone is asked again and says the token is gone
    clock.advance(2_000);
    assert.ok(
      (await refusal(auth.authenticate(request({ 'x-auth-token': token })))) instanceof
        AuthenticationRequiredError,
    );
    // a cache time of 0: every request asks Keystone, so a revocation counts at once
    const uncached = await authenticator({ token_cache_time: '0' });
    const other = await tokenOf(USERS.member.name, { project: 'demo' });
    await uncached.authenticate(request({ 'x-auth-token': other }));
    await keystone.revoke(other);
    assert.ok(
      (await refusal(uncached.authenticate(request({ 'x-auth-token': other })))) instanceof
        AuthenticationRequiredError,
    );
  });

  test('a token past its expiry is refused from the cache without asking Keystone', async () => {
    const clock = movableClock();
    const auth = await authenticator({ token_cache_time: '86400' }, { now: clock.now });
    const token = await tokenOf(USERS.member.name, { project: 'demo' });
    await auth.authenticate(request({ 'x-auth-token': token }));
    // Keystone's tokens live an hour here; an hour and a minute later the cached entry is
    // still within its cache time, but the token's own expires_at has passed.
    clock.advance(3_660_000);
    assert.ok(
      (await refusal(auth.authenticate(request({ 'x-auth-token': token })))) instanceof
        AuthenticationRequiredError,
    );
  });

  test("an application credential's access rules: what they allow, nothing else", async () => {
    const restricted = await keystone.applicationCredentialToken(USERS.member.name, 'demo', [
      { service: 'placement', method: 'GET', path: '/resource_providers' },
      { service: 'placement', method: 'GET', path: '/resource_providers/*/inventories' },
    ]);
    const auth = await authenticator({ service_type: 'placement' });
    const asked = (method: string, path: string) =>
      auth.authenticate({ method, path, headers: { 'x-auth-token': restricted } });
    assert.equal(
      (await asked('GET', '/resource_providers')).credentials.userId,
      keystone.ids.users.alice,
    );
    await asked('GET', '/resource_providers/4e061c03/inventories');
    for (const [method, path] of [
      ['POST', '/resource_providers'],
      ['GET', '/traits'],
      ['GET', '/resource_providers/4e061c03/inventories/VCPU'],
    ] as const) {
      assert.ok(
        (await refusal(asked(method, path))) instanceof AuthenticationRequiredError,
        `${method} ${path}`,
      );
    }
    // another service's type, or none configured: refused, as keystonemiddleware refuses
    for (const extra of [{ service_type: 'baremetal' }, {}] as Record<string, string>[]) {
      const other = await authenticator(extra);
      const error = await refusal(other.authenticate(request({ 'x-auth-token': restricted })));
      assert.ok(error instanceof AuthenticationRequiredError);
    }
  });

  test('the service authenticating with a wrong password: 503, never a pass', async () => {
    const auth = await authenticator({ password: 'wrong', http_request_max_retries: '0' });
    const token = await tokenOf(USERS.member.name, { project: 'demo' });
    const error = await refusal(auth.authenticate(request({ 'x-auth-token': token })));
    assert.ok(error instanceof IdentityServiceUnavailableError, String(error));
    assert.equal(error.message, 'The Keystone service is temporarily unavailable.');
    assert.match(error.reason, /could not authenticate as its \[keystone_authtoken\] user: 401/);
  });

  describe('Keystone down', () => {
    test('a cached token is served; any other is a 503 after the connection retries', async () => {
      const pauses: number[] = [];
      const auth = await authenticator(
        { http_request_max_retries: '2' },
        { pause: async (ms) => void pauses.push(ms) },
      );
      const cached = await tokenOf(USERS.member.name, { project: 'demo' });
      const unseen = await tokenOf(USERS.member.name, { project: 'demo' });
      await auth.authenticate(request({ 'x-auth-token': cached }));
      await keystone.stop();
      try {
        const outcome = await auth.authenticate(request({ 'x-auth-token': cached }));
        assert.equal(outcome.credentials.userId, keystone.ids.users.alice);
        const error = await refusal(auth.authenticate(request({ 'x-auth-token': unseen })));
        assert.ok(error instanceof IdentityServiceUnavailableError, String(error));
        assert.match(error.reason, /ECONNREFUSED/);
        assert.deepEqual(pauses, [500, 1000], 'two retries, 0.5 s then 1 s apart');
        // a new process, with no service token yet: the same 503
        const fresh = await authenticator({ http_request_max_retries: '0' });
        const freshError = await refusal(fresh.authenticate(request({ 'x-auth-token': cached })));
        assert.ok(freshError instanceof IdentityServiceUnavailableError);
      } finally {
        await keystone.restart();
      }
      // back: validated again
      const outcome = await auth.authenticate(request({ 'x-auth-token': unseen }));
      assert.equal(outcome.credentials.projectId, keystone.ids.projects.demo);
    });
  });

  describe('short-lived tokens (Keystone restarted with [token] expiration = 8)', () => {
    before(() => keystone.restart({ expirationSeconds: 8 }));

    test('expired tokens are refused; the service renews its own token; a service token allows an expired one', async () => {
      const auth = await authenticator({ token_cache_time: '300' });
      const cachedToken = await tokenOf(USERS.member.name, { project: 'demo' });
      const uncachedToken = await tokenOf(USERS.member.name, { project: 'demo' });
      await auth.authenticate(request({ 'x-auth-token': cachedToken }));
      const answer = await fetch(`${keystone.url}/v3/auth/tokens`, {
        headers: { 'x-auth-token': await keystone.adminToken(), 'x-subject-token': uncachedToken },
      });
      const expiresAt = Date.parse(
        ((await answer.json()) as { token: { expires_at: string } }).token.expires_at,
      );
      // Waits for Keystone's clock to pass the expiry (not a timing assertion).
      await new Promise((resolve) =>
        setTimeout(resolve, Math.max(0, expiresAt - Date.now()) + 1_500),
      );

      // cached, but expired: refused without Keystone; unseen: Keystone answers 404
      for (const token of [cachedToken, uncachedToken]) {
        const error = await refusal(auth.authenticate(request({ 'x-auth-token': token })));
        assert.ok(error instanceof AuthenticationRequiredError, String(error));
      }
      // The service's own token (8 s too) expired meanwhile: renewed, a fresh token validates.
      const fresh = await tokenOf(USERS.member.name, { project: 'demo' });
      assert.equal(
        (await auth.authenticate(request({ 'x-auth-token': fresh }))).credentials.userId,
        keystone.ids.users.alice,
      );

      // An expired user token with a service token holding `service`: accepted (allow_expired).
      const serviceToken = await tokenOf(USERS.service.name, { project: 'service' });
      const allowed = await auth.authenticate(
        request({ 'x-auth-token': uncachedToken, 'x-service-token': serviceToken }),
      );
      assert.equal(allowed.credentials.userId, keystone.ids.users.alice);
      // ... not with a service token without that role
      const memberAsService = await tokenOf(USERS.member.name, { project: 'demo' });
      const error = await refusal(
        auth.authenticate(
          request({ 'x-auth-token': uncachedToken, 'x-service-token': memberAsService }),
        ),
      );
      assert.ok(error instanceof AuthenticationRequiredError);
      // service_token_roles_required: such a service token fails even beside a valid user token
      const strict = await authenticator({ service_token_roles_required: 'true' });
      const user = await tokenOf(USERS.member.name, { project: 'demo' });
      const service = await tokenOf(USERS.member.name, { project: 'demo' });
      const strictError = await refusal(
        strict.authenticate(request({ 'x-auth-token': user, 'x-service-token': service })),
      );
      assert.ok(strictError instanceof AuthenticationRequiredError);
    });
  });
});
