/**
 * Policy through the API: the default rules and switches as the real service applies them
 * (gabbits/*-legacy-rbac.yaml and *-secure-rbac.yaml for the system-scope generation), and
 * a policy file overriding a rule.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { forEachPlacementBackend, uuid } from '../support/placement-api.ts';

const LIST = 'placement:resource_providers:list';
const CREATE = 'placement:resource_providers:create';

const systemReader = { 'x-roles': 'reader', 'openstack-system-scope': 'all' };
const systemAdmin = { 'x-roles': 'admin', 'openstack-system-scope': 'all' };

function assertRefused(
  response: { status: number; body: { errors: { detail: string; title: string }[] } },
  message: string,
) {
  assert.equal(response.status, 403);
  assert.equal(response.body.errors[0]?.title, 'Forbidden');
  assert.equal(
    response.body.errors[0]?.detail,
    `Access was denied to this resource.\n\n ${message}  `,
  );
}

forEachPlacementBackend('policy at the default settings', (ctx) => {
  it('the admin token passes (deprecated role:admin still applies)', async () => {
    const response = await ctx.api().get('/resource_providers');
    assert.equal(response.status, 200);
  });

  it('a token without roles, or with member only, gets 403 naming the rule', async () => {
    assertRefused(
      await ctx.api().get('/resource_providers', { token: 'alice' }),
      `Policy does not allow ${LIST} to be performed.`,
    );
    const member = await ctx.api().get('/resource_providers', {
      token: 'alice',
      headers: { 'x-roles': 'member,reader' },
    });
    assertRefused(member, `Policy does not allow ${LIST} to be performed.`);
  });

  it('a project admin named otherwise passes; a system reader reads (new default)', async () => {
    const projectAdmin = await ctx.api().get('/resource_providers', {
      token: 'carol:p1',
      headers: { 'x-roles': 'admin' },
    });
    assert.equal(projectAdmin.status, 200);
    const reader = await ctx
      .api()
      .get('/resource_providers', { token: 'dave', headers: systemReader });
    assert.equal(reader.status, 200);
    const write = await ctx.api().post(
      '/resource_providers',
      { name: uuid() },
      {
        token: 'dave',
        headers: systemReader,
      },
    );
    assertRefused(write, `Policy does not allow ${CREATE} to be performed.`);
  });
});

forEachPlacementBackend(
  'policy with enforce_scope and enforce_new_defaults',
  (ctx) => {
    it('a system reader can read but not write', async () => {
      const read = await ctx
        .api()
        .get('/resource_providers', { token: 'dave', headers: systemReader });
      assert.equal(read.status, 200);
      const write = await ctx.api().post(
        '/resource_providers',
        { name: uuid() },
        {
          token: 'dave',
          headers: systemReader,
          version: '1.20',
        },
      );
      assertRefused(write, `Policy does not allow ${CREATE} to be performed.`);
    });

    it('a system admin can write (admin implies reader for reads)', async () => {
      const write = await ctx.api().post(
        '/resource_providers',
        { name: uuid() },
        {
          token: 'erin',
          headers: systemAdmin,
          version: '1.20',
        },
      );
      assert.equal(write.status, 200);
      const read = await ctx
        .api()
        .get('/resource_providers', { token: 'erin', headers: systemAdmin });
      assert.equal(read.status, 200);
    });

    it('a project-scoped admin is refused by the scope check: the message is the rule', async () => {
      assertRefused(await ctx.api().get('/resource_providers'), LIST);
    });

    it('a project reader gets the usages of its own project only', async () => {
      const reader = { token: 'frank:proj-a', headers: { 'x-roles': 'reader' }, version: '1.9' };
      const own = await ctx.api().get('/usages?project_id=proj-a', reader);
      assert.equal(own.status, 200);
      assert.deepEqual(own.body, { usages: {} });
      assertRefused(
        await ctx.api().get('/usages?project_id=proj-b', reader),
        'Policy does not allow placement:usages to be performed.',
      );
      const system = await ctx.api().get('/usages?project_id=proj-b', {
        token: 'dave',
        headers: systemReader,
        version: '1.9',
      });
      assert.equal(system.status, 200);
    });
  },
  (config) => ({ ...config, enforceScope: true, enforceNewDefaults: true }),
);

const policyDir = mkdtempSync(join(tmpdir(), 'placement-policy-api-'));
const policyFile = join(policyDir, 'policy.yaml');
writeFileSync(policyFile, `"${LIST}": "@"\n`);

forEachPlacementBackend(
  'policy file overriding a rule',
  (ctx) => {
    it('anyone may list; other rules keep their defaults', async () => {
      const list = await ctx.api().get('/resource_providers', { token: 'nobody' });
      assert.equal(list.status, 200);
      const create = await ctx
        .api()
        .post('/resource_providers', { name: uuid() }, { token: 'nobody' });
      assertRefused(create, `Policy does not allow ${CREATE} to be performed.`);
    });
  },
  (config) => ({ ...config, policyFile }),
);
