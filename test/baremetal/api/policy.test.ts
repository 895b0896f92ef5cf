/**
 * Ironic's default policy on the bare metal API, per role and scope, with the credentials
 * keystonemiddleware would set given as headers (the token validation itself is
 * keystone-auth.test.ts's, against a real Keystone). Expected answers follow Ironic 21.4.4's
 * rules and controllers (ironic/common/policy.py, api/controllers/v1/utils.py), with its
 * defaults (`enforce_scope` and `enforce_new_defaults` off) and with both switches on.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import type { RequestAuthenticator } from '../../../src/auth/index.ts';
import { AuthenticationRequiredError, credentialsFromHeaders } from '../../../src/auth/index.ts';
import { registerDashboard } from '../../../src/baremetal/api/dashboard.ts';
import { ROUTE_ACCESS } from '../../../src/baremetal/api/route-access.ts';
import { registerRoutes } from '../../../src/baremetal/api/routes.ts';
import { BAREMETAL_RULE_DEFAULTS } from '../../../src/baremetal/policy/default-rules.ts';
import { createRuleSet, expandImpliedRoles, PolicyFileError } from '../../../src/policy/index.ts';
import { type BatonApi, startBatonApi } from './support/baton-api.ts';

/** What keystonemiddleware sets, trusted as is (a validated token's headers). */
const TRUSTED_HEADERS: RequestAuthenticator = {
  authenticate: (request) => ({
    credentials: credentialsFromHeaders(request.headers),
    headers: {},
  }),
  strippedHeaders: [],
};

const OWNER = 'f0e1d2c3b4a5968778695a4b3c2d1e0f';
const LESSEE = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const OTHER = '0123456789abcdef0123456789abcdef';

type Persona = Record<string, string>;
const roles = (...names: string[]) => expandImpliedRoles(names).join(',');
const systemUser = (role: string): Persona => ({
  'x-user-id': `system-${role}`,
  'openstack-system-scope': 'all',
  'x-roles': roles(role),
});
const projectUser = (project: string, role: string): Persona => ({
  'x-user-id': `${project.slice(0, 6)}-${role}`,
  'x-project-id': project,
  'x-project-name': `project-${project.slice(0, 6)}`,
  'x-project-domain-id': 'default',
  'x-roles': roles(role),
});

const SYSTEM_ADMIN = systemUser('admin');
const SYSTEM_READER = systemUser('reader');
const OWNER_MEMBER = projectUser(OWNER, 'member');
const OWNER_ADMIN = projectUser(OWNER, 'admin');
const LESSEE_MEMBER = projectUser(LESSEE, 'member');
const OTHER_MEMBER = projectUser(OTHER, 'member');
const OTHER_ADMIN = projectUser(OTHER, 'admin');

const VERSION = { 'x-openstack-ironic-api-version': '1.82' };

/** Ironic's HTTPForbidden body, byte for byte (a fault wrapped by ParsableErrorMiddleware). */
function forbiddenBody(rule: string): string {
  return `{"error_message": "{\\"faultcode\\": \\"Client\\", \\"faultstring\\": \\"Access was denied to the following resource: ${rule}\\", \\"debuginfo\\": null}"}`;
}

async function startWithPolicy(switches: { enforceScope: boolean; enforceNewDefaults: boolean }) {
  const policy = await createRuleSet(switches, BAREMETAL_RULE_DEFAULTS);
  return startBatonApi({ auth: { authenticator: TRUSTED_HEADERS, policy } });
}

interface Fixture {
  readonly api: BatonApi;
  readonly leased: string;
  readonly unowned: string;
  readonly port: string;
}

async function seed(api: BatonApi): Promise<Fixture> {
  const as = SYSTEM_ADMIN;
  const create = async (body: Record<string, unknown>) => {
    const response = await api.request({
      method: 'POST',
      url: '/v1/nodes',
      headers: { ...as, ...VERSION },
      payload: { driver: 'fake-hardware', ...body },
    });
    assert.equal(response.statusCode, 201, response.body);
    return (response.json() as { uuid: string }).uuid;
  };
  const leased = await create({ name: 'leased', owner: OWNER, lessee: LESSEE });
  const unowned = await create({ name: 'unowned' });
  const port = await api.request({
    method: 'POST',
    url: '/v1/ports',
    headers: { ...as, ...VERSION },
    payload: { node_uuid: leased, address: '52:54:00:00:00:01' },
  });
  assert.equal(port.statusCode, 201, port.body);
  return { api, leased, unowned, port: (port.json() as { uuid: string }).uuid };
}

function call(api: BatonApi, persona: Persona, method: string, url: string, payload?: unknown) {
  return api.request({
    method: method as 'GET',
    url,
    headers: { ...persona, ...VERSION },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

async function uuidsOf(api: BatonApi, persona: Persona, url: string, key: string) {
  const response = await call(api, persona, 'GET', url);
  assert.equal(response.statusCode, 200, response.body);
  const items = (response.json() as Record<string, { uuid: string }[]>)[key] ?? [];
  return items.map((item) => item.uuid).sort();
}

describe('every route says its check', () => {
  it('ROUTE_ACCESS names each route the API declares, and nothing else', async () => {
    const app = Fastify({ exposeHeadRoutes: false });
    const declared: string[] = [];
    app.addHook('onRoute', (route) => {
      if ((route.config as { methodRefusal?: boolean } | undefined)?.methodRefusal) return;
      for (const method of [route.method].flat()) declared.push(`${method} ${route.url}`);
    });
    registerRoutes(app);
    // The dashboard's routes, declared when the process has a dashboard.
    registerDashboard(app, async () => ({}));
    await app.ready();
    assert.deepEqual(
      declared.filter((key) => ROUTE_ACCESS[key] === undefined),
      [],
    );
    assert.deepEqual(
      Object.keys(ROUTE_ACCESS).filter((key) => !declared.includes(key)),
      [],
    );
    await app.close();
  });
});

describe('the routes that need no token', () => {
  it('serve the OpenAPI documents to a caller without one, and nothing of /v1 beyond the root', async () => {
    const refuseAll: RequestAuthenticator = {
      authenticate: () => {
        throw new AuthenticationRequiredError('no user token', 'Keystone uri="http://keystone"');
      },
      strippedHeaders: [],
    };
    const policy = await createRuleSet(
      { enforceScope: false, enforceNewDefaults: false },
      BAREMETAL_RULE_DEFAULTS,
    );
    const api = await startBatonApi({ auth: { authenticator: refuseAll, policy } });
    try {
      const openapi = await api.request({ method: 'GET', url: '/openapi/1.82.json' });
      assert.equal(openapi.statusCode, 200, openapi.body);
      assert.equal((openapi.json() as { info: { version: string } }).info.version, '1.82');
      assert.equal((await api.request({ method: 'GET', url: '/v1' })).statusCode, 200);
      const nodes = await api.request({ method: 'GET', url: '/v1/nodes', headers: VERSION });
      assert.equal(nodes.statusCode, 401, nodes.body);
      // a path that only looks like a document is not let through
      const deeper = await api.request({ method: 'GET', url: '/openapi/1.82.json/x' });
      assert.equal(deeper.statusCode, 401, deeper.body);
    } finally {
      await api.close();
    }
  });
});

describe("Ironic 21.4's default policy, as it ships (enforce_scope and enforce_new_defaults off)", () => {
  let f: Fixture;
  before(async () => {
    f = await seed(await startWithPolicy({ enforceScope: false, enforceNewDefaults: false }));
  });
  after(async () => f?.api.close());

  it('lists all nodes to the system, and to a project the nodes it owns or leases', async () => {
    const all = [f.leased, f.unowned].sort();
    assert.deepEqual(await uuidsOf(f.api, SYSTEM_ADMIN, '/v1/nodes', 'nodes'), all);
    assert.deepEqual(await uuidsOf(f.api, SYSTEM_READER, '/v1/nodes/detail', 'nodes'), all);
    assert.deepEqual(await uuidsOf(f.api, OWNER_MEMBER, '/v1/nodes', 'nodes'), [f.leased]);
    assert.deepEqual(await uuidsOf(f.api, LESSEE_MEMBER, '/v1/nodes/detail', 'nodes'), [f.leased]);
    assert.deepEqual(await uuidsOf(f.api, OTHER_MEMBER, '/v1/nodes', 'nodes'), []);
    // A project cannot widen its list by naming another project.
    const widened = await call(f.api, OWNER_MEMBER, 'GET', `/v1/nodes?project=${OTHER}`);
    assert.equal(widened.statusCode, 403);
    assert.equal(widened.body, forbiddenBody('baremetal:node:list_all'));
    // The pre-RBAC rule still applies: an admin of any project is Ironic's legacy admin.
    assert.deepEqual(await uuidsOf(f.api, OTHER_ADMIN, '/v1/nodes', 'nodes'), all);
  });

  it('shows a node to who may see it; to another project it does not exist', async () => {
    for (const persona of [SYSTEM_ADMIN, SYSTEM_READER, OWNER_MEMBER, LESSEE_MEMBER]) {
      assert.equal((await call(f.api, persona, 'GET', `/v1/nodes/${f.leased}`)).statusCode, 200);
    }
    assert.equal((await call(f.api, SYSTEM_READER, 'GET', '/v1/nodes/leased')).statusCode, 200);
    // The lessee sees the node, not what only its owner and the system may see.
    const leased = (await call(f.api, LESSEE_MEMBER, 'GET', `/v1/nodes/${f.leased}`)).json();
    assert.equal(
      leased.last_error,
      '** Value Redacted - Requires baremetal:node:get:last_error permission. **',
    );
    assert.deepEqual(leased.driver_info, {
      content: '** Redacted - requires baremetal:node:get:driver_info permission. **',
    });
    const owned = (await call(f.api, OWNER_MEMBER, 'GET', `/v1/nodes/${f.leased}`)).json();
    assert.equal(owned.last_error, null);
    assert.deepEqual(owned.driver_info, {});
    const hidden = await call(f.api, OTHER_MEMBER, 'GET', `/v1/nodes/${f.leased}`);
    assert.equal(hidden.statusCode, 404);
    assert.match(hidden.body, new RegExp(`Node ${f.leased} could not be found\\.`));
    const unowned = await call(f.api, OWNER_MEMBER, 'GET', '/v1/nodes/unowned');
    assert.equal(unowned.statusCode, 404);
    assert.match(unowned.body, /Node unowned could not be found\./);
  });

  it('creates nodes for the system admin, and for a project admin as its own', async () => {
    for (const persona of [SYSTEM_READER, OWNER_MEMBER]) {
      const refused = await call(f.api, persona, 'POST', '/v1/nodes', { driver: 'fake-hardware' });
      assert.equal(refused.statusCode, 403);
      assert.equal(refused.body, forbiddenBody('baremetal:node:create'));
    }
    const own = await call(f.api, OWNER_ADMIN, 'POST', '/v1/nodes', { driver: 'fake-hardware' });
    assert.equal(own.statusCode, 201, own.body);
    assert.equal((own.json() as { owner: string }).owner, OWNER);
    const foreign = await call(f.api, OWNER_ADMIN, 'POST', '/v1/nodes', {
      driver: 'fake-hardware',
      owner: OTHER,
    });
    assert.equal(foreign.statusCode, 400);
    assert.match(foreign.body, /with an owner other than your own project/);
  });

  it('patches by the rule of each field: owner and lessee members differ', async () => {
    const extra = [{ op: 'add', path: '/extra/seen', value: 'yes' }];
    for (const persona of [SYSTEM_ADMIN, OWNER_MEMBER, LESSEE_MEMBER]) {
      const done = await call(f.api, persona, 'PATCH', `/v1/nodes/${f.leased}`, extra);
      assert.equal(done.statusCode, 200, done.body);
    }
    const reader = await call(f.api, SYSTEM_READER, 'PATCH', `/v1/nodes/${f.leased}`, extra);
    assert.equal(reader.statusCode, 403);
    assert.equal(reader.body, forbiddenBody('baremetal:node:update_extra'));
    const name = [{ op: 'replace', path: '/name', value: 'renamed' }];
    const lessee = await call(f.api, LESSEE_MEMBER, 'PATCH', `/v1/nodes/${f.leased}`, name);
    assert.equal(lessee.statusCode, 403);
    assert.equal(lessee.body, forbiddenBody('baremetal:node:update:name'));
    const owner = [{ op: 'replace', path: '/owner', value: OTHER }];
    const refused = await call(f.api, OWNER_MEMBER, 'PATCH', `/v1/nodes/${f.leased}`, owner);
    assert.equal(refused.body, forbiddenBody('baremetal:node:update:owner'));
    const hidden = await call(f.api, OTHER_MEMBER, 'PATCH', `/v1/nodes/${f.leased}`, extra);
    assert.equal(hidden.statusCode, 404);
  });

  it('changes provision states for the owner, not the lessee member or a reader', async () => {
    const url = `/v1/nodes/${f.leased}/states/provision`;
    for (const persona of [LESSEE_MEMBER, SYSTEM_READER]) {
      const refused = await call(f.api, persona, 'PUT', url, { target: 'manage' });
      assert.equal(refused.statusCode, 403);
      assert.equal(refused.body, forbiddenBody('baremetal:node:set_provision_state'));
    }
    assert.equal(
      (await call(f.api, OTHER_MEMBER, 'PUT', url, { target: 'manage' })).statusCode,
      404,
    );
    const states = await call(f.api, LESSEE_MEMBER, 'GET', `/v1/nodes/${f.leased}/states`);
    assert.equal(states.statusCode, 200);
    const done = await call(f.api, OWNER_MEMBER, 'PUT', url, { target: 'manage' });
    assert.equal(done.statusCode, 202, done.body);
  });

  it('applies the node rules to ports through their node', async () => {
    assert.deepEqual(await uuidsOf(f.api, SYSTEM_READER, '/v1/ports', 'ports'), [f.port]);
    assert.deepEqual(await uuidsOf(f.api, LESSEE_MEMBER, '/v1/ports/detail', 'ports'), [f.port]);
    assert.deepEqual(await uuidsOf(f.api, OTHER_MEMBER, '/v1/ports', 'ports'), []);
    assert.equal((await call(f.api, OWNER_MEMBER, 'GET', `/v1/ports/${f.port}`)).statusCode, 200);
    const hidden = await call(f.api, OTHER_MEMBER, 'GET', `/v1/ports/${f.port}`);
    assert.equal(hidden.statusCode, 404);
    assert.match(hidden.body, new RegExp(`Port ${f.port} could not be found\\.`));
    const underNode = await call(f.api, OTHER_MEMBER, 'GET', `/v1/nodes/${f.leased}/ports`);
    assert.equal(underNode.statusCode, 404);
    const port = { node_uuid: f.leased, address: '52:54:00:00:00:02' };
    const refused = await call(f.api, OWNER_MEMBER, 'POST', '/v1/ports', port);
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.body, forbiddenBody('baremetal:port:create'));
    const update = [{ op: 'add', path: '/extra/a', value: 'b' }];
    const lessee = await call(f.api, LESSEE_MEMBER, 'PATCH', `/v1/ports/${f.port}`, update);
    assert.equal(lessee.body, forbiddenBody('baremetal:port:update'));
    const created = await call(f.api, OWNER_ADMIN, 'POST', '/v1/ports', port);
    assert.equal(created.statusCode, 201, created.body);
  });

  it('keeps chassis, drivers and conductors to the system (and the legacy admin)', async () => {
    assert.equal((await call(f.api, SYSTEM_READER, 'GET', '/v1/chassis')).statusCode, 200);
    assert.equal((await call(f.api, SYSTEM_READER, 'GET', '/v1/drivers')).statusCode, 200);
    const chassis = await call(f.api, OWNER_MEMBER, 'GET', '/v1/chassis');
    assert.equal(chassis.statusCode, 403);
    assert.equal(chassis.body, forbiddenBody('baremetal:chassis:get'));
    const create = await call(f.api, SYSTEM_READER, 'POST', '/v1/chassis', {});
    assert.equal(create.body, forbiddenBody('baremetal:chassis:create'));
    const conductors = await call(f.api, LESSEE_MEMBER, 'GET', '/v1/conductors');
    assert.equal(conductors.body, forbiddenBody('baremetal:conductor:get'));
    assert.equal((await call(f.api, OTHER_ADMIN, 'GET', '/v1/chassis')).statusCode, 200);
  });

  it('deletes nodes for the system admin only (a project admin: its own nodes)', async () => {
    const refused = await call(f.api, OWNER_MEMBER, 'DELETE', `/v1/nodes/${f.leased}`);
    assert.equal(refused.statusCode, 403);
    assert.equal(refused.body, forbiddenBody('baremetal:node:delete:self_owned_node'));
    const done = await call(f.api, SYSTEM_ADMIN, 'DELETE', `/v1/nodes/${f.unowned}`);
    assert.equal(done.statusCode, 204, done.body);
  });

  it('answers public routes without credentials, and the root documents as before', async () => {
    const root = await f.api.request({ method: 'GET', url: '/' });
    assert.equal(root.statusCode, 200);
    const v1 = await f.api.request({ method: 'GET', url: '/v1/' });
    assert.equal(v1.statusCode, 200);
  });
});

describe('the same policy with enforce_scope and enforce_new_defaults on', () => {
  let f: Fixture;
  before(async () => {
    f = await seed(await startWithPolicy({ enforceScope: true, enforceNewDefaults: true }));
  });
  after(async () => f?.api.close());

  it('refuses a project token on a system route with a 403 naming the rule', async () => {
    const chassis = await call(f.api, OTHER_ADMIN, 'GET', '/v1/chassis');
    assert.equal(chassis.statusCode, 403);
    assert.match(chassis.body, /baremetal:chassis:get requires a system scoped token/);
  });

  it('a domain token on a node is refused for its scope (a 403, not a concealing 404)', async () => {
    const domain = { 'x-user-id': 'dana', 'x-domain-id': 'default', 'x-roles': roles('admin') };
    const refused = await call(f.api, domain, 'GET', `/v1/nodes/${f.leased}`);
    assert.equal(refused.statusCode, 403);
    assert.match(
      refused.body,
      /baremetal:node:get requires a system or project scoped token, not domain/,
    );
  });

  it('no longer treats an admin of another project as the legacy admin', async () => {
    assert.deepEqual(await uuidsOf(f.api, OTHER_ADMIN, '/v1/nodes', 'nodes'), []);
    const hidden = await call(f.api, OTHER_ADMIN, 'GET', `/v1/nodes/${f.leased}`);
    assert.equal(hidden.statusCode, 404);
  });

  it("lets the owner's admin delete its node", async () => {
    const done = await call(f.api, OWNER_ADMIN, 'DELETE', `/v1/nodes/${f.leased}`);
    assert.equal(done.statusCode, 204, done.body);
  });
});

describe('[oslo_policy] policy_file overrides a default', () => {
  let api: BatonApi;
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bm-policy-'));
    const policyFile = join(dir, 'policy.yaml');
    await writeFile(policyFile, '"baremetal:chassis:get": "role:reader"\n');
    const policy = await createRuleSet(
      { policyFile, enforceScope: false, enforceNewDefaults: false },
      BAREMETAL_RULE_DEFAULTS,
    );
    api = await startBatonApi({ auth: { authenticator: TRUSTED_HEADERS, policy } });
  });
  after(async () => {
    await api?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('lets a project reader list chassis, and nothing else changes', async () => {
    assert.equal((await call(api, OTHER_MEMBER, 'GET', '/v1/chassis')).statusCode, 200);
    const create = await call(api, OTHER_MEMBER, 'POST', '/v1/chassis', {});
    assert.equal(create.body, forbiddenBody('baremetal:chassis:create'));
  });

  it('a policy file that does not parse names the file and the rule', async () => {
    const policyFile = join(dir, 'broken.yaml');
    await writeFile(policyFile, '"baremetal:node:get": "role:reader and"\n');
    await assert.rejects(
      createRuleSet(
        { policyFile, enforceScope: false, enforceNewDefaults: false },
        BAREMETAL_RULE_DEFAULTS,
      ),
      (error: Error) =>
        error instanceof PolicyFileError &&
        error.message.startsWith(`policy file ${policyFile}: rule 'baremetal:node:get'`),
    );
  });
});

describe('a refused caller has no body read', () => {
  let f: Fixture;
  let url: URL;
  before(async () => {
    f = await seed(await startWithPolicy({ enforceScope: false, enforceNewDefaults: false }));
    url = new URL(await f.api.app.listen({ host: '127.0.0.1', port: 0 }));
  });
  after(async () => f?.api.close());

  it('answers 403 to a 64 MB chassis create after the headers alone', async () => {
    const headers = { ...SYSTEM_READER, ...VERSION };
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname);
      let received = '';
      socket.on('data', (chunk) => {
        received += chunk.toString();
        if (received.includes('\r\n\r\n')) {
          socket.destroy();
          resolve(received);
        }
      });
      socket.on('error', reject);
      socket.write(
        [
          'POST /v1/chassis HTTP/1.1',
          `Host: ${url.host}`,
          'Content-Type: application/json',
          `Content-Length: ${64 * 1024 * 1024}`,
          ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
          '',
          '{"description": ',
        ].join('\r\n'),
      );
    });
    assert.match(answer, /^HTTP\/1\.1 403 /);
  });
});
