import assert from 'node:assert/strict';
import { it } from 'node:test';
import { forEachPlacementBackend, uuid } from '../support/placement-api.ts';
import { insertConsumer, insertProvider } from '../support/usage-fixtures.ts';

forEachPlacementBackend('usages of a provider and of a project', (ctx) => {
  const usagesOf = (rp: { uuid: string }) => `/resource_providers/${rp.uuid}/usages`;

  async function providerWithInventory(inventories: Record<string, { total: number }>) {
    const rp = await insertProvider(ctx.placementDb());
    const response = await ctx.api().put(`/resource_providers/${rp.uuid}/inventories`, {
      resource_provider_generation: 0,
      inventories,
    });
    assert.equal(response.status, 200);
    return rp;
  }

  it('provider usages: 404 for a missing provider', async () => {
    const missing = uuid();
    const response = await ctx.api().get(`/resource_providers/${missing}/usages`);
    assert.equal(response.status, 404);
    assert.equal(response.body.errors[0].title, 'Not Found');
    assert.match(
      response.body.errors[0].detail,
      new RegExp(`No resource provider with uuid ${missing} found: No resource provider`),
    );
  });

  it('provider usages: empty without inventory; cache headers only from 1.15', async () => {
    const rp = await insertProvider(ctx.placementDb());
    const old = await ctx.api().get(usagesOf(rp), { version: '1.14' });
    assert.equal(old.status, 200);
    assert.deepEqual(old.body, { resource_provider_generation: 0, usages: {} });
    assert.equal(old.headers['cache-control'], undefined);
    assert.equal(old.headers['last-modified'], undefined);
    const recent = await ctx.api().get(usagesOf(rp), { version: '1.15' });
    assert.equal(recent.headers['cache-control'], 'no-cache');
    assert.match(String(recent.headers['last-modified']), /^\w+, \d+ \w+ \d{4} [\d:]+ GMT$/);
  });

  it('provider usages: every class with inventory, summed over consumers, 0 when unused', async () => {
    const rp = await providerWithInventory({
      VCPU: { total: 16 },
      MEMORY_MB: { total: 4096 },
      DISK_GB: { total: 100 },
    });
    const other = await providerWithInventory({ VCPU: { total: 16 } });
    await insertConsumer(ctx.placementDb(), {
      project: 'proj-a',
      user: 'user-a',
      allocations: [
        { provider: rp, resources: { VCPU: 2, MEMORY_MB: 512 } },
        { provider: other, resources: { VCPU: 7 } },
      ],
    });
    await insertConsumer(ctx.placementDb(), {
      project: 'proj-b',
      user: 'user-b',
      allocations: [{ provider: rp, resources: { VCPU: 1 } }],
    });
    const response = await ctx.api().get(usagesOf(rp));
    assert.deepEqual(response.body, {
      resource_provider_generation: 1,
      usages: { VCPU: 3, MEMORY_MB: 512, DISK_GB: 0 },
    });
  });

  it('provider usages: 403 without the rule; 406 when JSON is not acceptable', async () => {
    const rp = await insertProvider(ctx.placementDb());
    const refused = await ctx.api().get(usagesOf(rp), { token: 'someone' });
    assert.equal(refused.status, 403);
    assert.match(refused.body.errors[0].detail, /placement:resource_providers:usages/);
    const notAcceptable = await ctx.api().get(usagesOf(rp), { headers: { accept: 'text/html' } });
    assert.equal(notAcceptable.status, 406);
  });

  it('GET /usages: 404 before 1.9; 400 without or with a bad project_id', async () => {
    const old = await ctx.api().get('/usages?project_id=x', { version: '1.8' });
    assert.equal(old.status, 404);
    const none = await ctx.api().get('/usages', { version: '1.9' });
    assert.equal(none.status, 400);
    assert.match(none.body.errors[0].detail, /'project_id' is a required property/);
    const empty = await ctx.api().get('/usages?project_id=', { version: '1.9' });
    assert.equal(empty.status, 400);
    assert.match(empty.body.errors[0].detail, /Invalid query string parameters/);
    const emptyUser = await ctx.api().get('/usages?project_id=x&user_id=', { version: '1.9' });
    assert.equal(emptyUser.status, 400);
    const long = await ctx.api().get(`/usages?project_id=${'x'.repeat(256)}`, { version: '1.9' });
    assert.equal(long.status, 400);
    const extra = await ctx.api().get('/usages?project_id=x&dummy=1', { version: '1.9' });
    assert.equal(extra.status, 400);
    assert.match(extra.body.errors[0].detail, /Additional properties are not allowed/);
    const typedEarly = await ctx
      .api()
      .get('/usages?project_id=x&consumer_type=INSTANCE', { version: '1.37' });
    assert.equal(typedEarly.status, 400);
    assert.match(typedEarly.body.errors[0].detail, /'consumer_type' was unexpected/);
  });

  it('GET /usages: sums per project, narrowed to a user; cache headers from 1.15', async () => {
    const project = `p-${uuid()}`;
    const rp = await providerWithInventory({ VCPU: { total: 64 }, DISK_GB: { total: 1000 } });
    await insertConsumer(ctx.placementDb(), {
      project,
      user: 'alice',
      allocations: [{ provider: rp, resources: { VCPU: 2, DISK_GB: 10 } }],
    });
    await insertConsumer(ctx.placementDb(), {
      project,
      user: 'bob',
      type: 'INSTANCE',
      allocations: [{ provider: rp, resources: { VCPU: 3 } }],
    });
    await insertConsumer(ctx.placementDb(), {
      project: `other-${uuid()}`,
      user: 'alice',
      allocations: [{ provider: rp, resources: { VCPU: 30 } }],
    });
    const all = await ctx.api().get(`/usages?project_id=${project}`, { version: '1.9' });
    assert.equal(all.status, 200);
    assert.deepEqual(all.body, { usages: { VCPU: 5, DISK_GB: 10 } });
    assert.equal(all.headers['cache-control'], undefined);
    const alice = await ctx
      .api()
      .get(`/usages?project_id=${project}&user_id=alice`, { version: '1.37' });
    assert.deepEqual(alice.body, { usages: { VCPU: 2, DISK_GB: 10 } });
    assert.equal(alice.headers['cache-control'], 'no-cache');
    assert.ok(alice.headers['last-modified']);
    const nobody = await ctx
      .api()
      .get(`/usages?project_id=${project}&user_id=carol`, { version: '1.9' });
    assert.deepEqual(nobody.body, { usages: {} });
    const unknownProject = await ctx.api().get(`/usages?project_id=${uuid()}`, { version: '1.9' });
    assert.deepEqual(unknownProject.body, { usages: {} });
  });

  it('GET /usages from 1.38: grouped by consumer type with consumer counts', async () => {
    const project = `p-${uuid()}`;
    const rp = await providerWithInventory({
      VCPU: { total: 64 },
      DISK_GB: { total: 2000 },
      MEMORY_MB: { total: 8192 },
    });
    const consumer = (user: string, resources: Record<string, number>, type?: string) =>
      insertConsumer(ctx.placementDb(), {
        project,
        user,
        ...(type === undefined ? {} : { type }),
        allocations: [{ provider: rp, resources }],
      });
    await consumer('u1', { DISK_GB: 10 }, 'PONY');
    await consumer('u1', { DISK_GB: 10 }, 'INSTANCE');
    await consumer('u1', { DISK_GB: 1000, VCPU: 4 });
    await consumer('u2', { DISK_GB: 20, VCPU: 3 });
    await consumer('u2', { VCPU: 0, MEMORY_MB: 0 });
    const get = (query: string) =>
      ctx.api().get(`/usages?project_id=${project}${query}`, { version: '1.38' });

    const grouped = await get('');
    assert.equal(grouped.status, 200);
    assert.deepEqual(grouped.body, {
      usages: {
        PONY: { consumer_count: 1, DISK_GB: 10 },
        INSTANCE: { consumer_count: 1, DISK_GB: 10 },
        unknown: { consumer_count: 3, DISK_GB: 1020, VCPU: 7, MEMORY_MB: 0 },
      },
    });
    assert.deepEqual((await get('&consumer_type=PONY')).body, {
      usages: { PONY: { consumer_count: 1, DISK_GB: 10 } },
    });
    assert.deepEqual((await get('&consumer_type=COW')).body, { usages: {} });
    assert.deepEqual((await get('&consumer_type=all')).body, {
      usages: { all: { consumer_count: 5, DISK_GB: 1040, VCPU: 7, MEMORY_MB: 0 } },
    });
    assert.deepEqual((await get('&consumer_type=ALL')).body, { usages: {} });
    assert.deepEqual((await get('&consumer_type=unknown')).body, {
      usages: { unknown: { consumer_count: 3, DISK_GB: 1020, VCPU: 7, MEMORY_MB: 0 } },
    });
    assert.deepEqual((await get('&consumer_type=UNKNOWN')).body, { usages: {} });
    assert.deepEqual((await get('&user_id=u2')).body, {
      usages: { unknown: { consumer_count: 2, DISK_GB: 20, VCPU: 3, MEMORY_MB: 0 } },
    });
    assert.deepEqual((await get('&user_id=u1&consumer_type=all')).body, {
      usages: { all: { consumer_count: 3, DISK_GB: 1020, VCPU: 4 } },
    });
    const bad = await get('&consumer_type=pony');
    assert.equal(bad.status, 400);
    assert.match(bad.body.errors[0].detail, /does not match/);
  });

  it('GET /usages from 1.38: no allocations gives no groups, whatever the filter', async () => {
    const project = `p-${uuid()}`;
    for (const query of ['', '&consumer_type=all', '&consumer_type=unknown', '&consumer_type=X']) {
      const response = await ctx
        .api()
        .get(`/usages?project_id=${project}${query}`, { version: 'latest' });
      assert.equal(response.status, 200);
      assert.deepEqual(response.body, { usages: {} });
    }
  });

  it('GET /usages: the policy target is the project asked about', async () => {
    const project = `p-${uuid()}`;
    const reader = { token: `alice:${project}`, version: '1.9', headers: { 'x-roles': 'reader' } };
    const own = await ctx.api().get(`/usages?project_id=${project}`, reader);
    assert.equal(own.status, 200);
    assert.deepEqual(own.body, { usages: {} });
    const other = await ctx.api().get(`/usages?project_id=other-${project}`, reader);
    assert.equal(other.status, 403);
  });

  it('GET /usages checks placement:usages before validating the query', async () => {
    const refused = await ctx.api().get('/usages', { token: 'someone', version: '1.9' });
    assert.equal(refused.status, 403);
    assert.match(refused.body.errors[0].detail, /placement:usages/);
    const notAcceptable = await ctx
      .api()
      .get('/usages?project_id=x', { version: '1.9', headers: { accept: 'text/html' } });
    assert.equal(notAcceptable.status, 406);
  });
});
