/**
 * Who the dashboard answers (src/baremetal/api/dashboard.ts, issue 22 §4): loopback clients
 * only, and not a request relayed by a proxy on the same machine (`X-Forwarded-For`,
 * `Forwarded`, `X-Real-IP`: the proxy may be relaying anyone); under Keystone, an admin token
 * too (Ironic's `admin_api` rule), a 401 without a token and a 403 for a member.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  AuthenticationRequiredError,
  credentialsFromHeaders,
  type RequestAuthenticator,
} from '../../../src/auth/index.ts';
import { buildBaremetalApp } from '../../../src/baremetal/api/app.ts';
import type { BaremetalApiServices } from '../../../src/baremetal/api/context.ts';
import { BAREMETAL_RULE_DEFAULTS } from '../../../src/baremetal/policy/default-rules.ts';
import { createRuleSet } from '../../../src/policy/index.ts';

const PATHS = ['/dashboard', '/dashboard/state.json'];

/** A Keystone stand-in: the token `admin` or `member` is a project user with that role. */
const TOKENS: RequestAuthenticator = {
  authenticate(request) {
    const token = request.headers['x-auth-token'];
    if (token !== 'admin' && token !== 'member') {
      throw new AuthenticationRequiredError('no token, or not a known one');
    }
    const headers = {
      'x-user-id': `user-${token}`,
      'x-project-id': 'f0e1d2c3b4a5968778695a4b3c2d1e0f',
      'x-project-domain-id': 'default',
      'x-roles': token === 'admin' ? 'admin,member,reader' : 'member,reader',
    };
    return { credentials: credentialsFromHeaders(headers), headers };
  },
  strippedHeaders: ['x-user-id', 'x-project-id', 'x-project-domain-id', 'x-roles'],
};

async function dashboardApp(keystone: boolean) {
  return buildBaremetalApp({
    // The dashboard routes touch no service.
    services: { settings: {} } as BaremetalApiServices,
    dashboard: async () => ({ ok: true }),
    ...(keystone
      ? {
          auth: {
            authenticator: TOKENS,
            policy: await createRuleSet(
              { enforceScope: false, enforceNewDefaults: false },
              BAREMETAL_RULE_DEFAULTS,
            ),
          },
        }
      : {}),
  });
}

test('a request relayed by a local proxy is not a loopback client: a 404', async () => {
  const app = await dashboardApp(false);
  try {
    for (const path of PATHS) {
      const direct = await app.inject({ url: path, remoteAddress: '127.0.0.1' });
      assert.equal(direct.statusCode, 200, path);
      for (const header of [
        { 'x-forwarded-for': '198.51.100.4' },
        { 'x-forwarded-for': '127.0.0.1' },
        { forwarded: 'for=198.51.100.4;proto=https' },
        { 'x-real-ip': '198.51.100.4' },
      ]) {
        const relayed = await app.inject({
          url: path,
          remoteAddress: '127.0.0.1',
          headers: header,
        });
        assert.equal(relayed.statusCode, 404, `${path} ${JSON.stringify(header)}`);
        assert.match(relayed.body, /"error_message"/);
      }
    }
  } finally {
    await app.close();
  }
});

test('under Keystone, the dashboard needs an admin token, on loopback too', async () => {
  const app = await dashboardApp(true);
  try {
    for (const path of PATHS) {
      const none = await app.inject({ url: path, remoteAddress: '127.0.0.1' });
      assert.equal(none.statusCode, 401, path);
      const member = await app.inject({
        url: path,
        remoteAddress: '127.0.0.1',
        headers: { 'x-auth-token': 'member' },
      });
      assert.equal(member.statusCode, 403, path);
      assert.match(member.body, /admin_api/);
      const admin = await app.inject({
        url: path,
        remoteAddress: '127.0.0.1',
        headers: { 'x-auth-token': 'admin' },
      });
      assert.equal(admin.statusCode, 200, path);
      const far = await app.inject({
        url: path,
        remoteAddress: '192.0.2.7',
        headers: { 'x-auth-token': 'admin' },
      });
      assert.equal(far.statusCode, 404, path);
    }
  } finally {
    await app.close();
  }
});
