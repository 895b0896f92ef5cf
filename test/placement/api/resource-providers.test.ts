import assert from 'node:assert/strict';
import { it } from 'node:test';
import {
  type ApiResponse,
  forEachPlacementBackend,
  type PlacementContext,
  uuid,
} from '../support/placement-api.ts';

const LATEST = '1.39';
const LAST_MODIFIED = /^\w+, \d+ \w+ \d{4} [\d:]+ GMT$/;

function detail(response: ApiResponse): string {
  return response.body.errors[0].detail;
}

async function create(
  ctx: PlacementContext,
  body: Record<string, unknown>,
  version = LATEST,
): Promise<ApiResponse> {
  return ctx.api().post('/resource_providers', body, { version });
}

/** Creates a provider (1.20+ body) and returns its uuid. */
async function provider(ctx: PlacementContext, parent?: string): Promise<string> {
  const id = uuid();
  const body: Record<string, unknown> = { name: `rp-${id}`, uuid: id };
  if (parent !== undefined) body.parent_provider_uuid = parent;
  const response = await create(ctx, body);
  assert.equal(response.status, 200, response.text);
  return id;
}

async function providerId(ctx: PlacementContext, id: string): Promise<number> {
  const row = await ctx
    .placementDb()
    .kysely.selectFrom('resource_providers')
    .select('id')
    .where('uuid', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

forEachPlacementBackend('POST /resource_providers', (ctx) => {
  it('answers 201 with Location and no body before 1.20', async () => {
    const id = uuid();
    const response = await create(ctx, { name: `old-${id}`, uuid: id }, '1.19');
    assert.equal(response.status, 201);
    assert.equal(response.text, '');
    assert.equal(response.headers['content-type'], undefined);
    assert.match(
      String(response.headers.location),
      new RegExp(`^http://[^/]+/resource_providers/${id}$`),
    );
    assert.equal(response.headers['last-modified'], undefined);
  });

  it('answers 200 with the provider from 1.20, cache headers included', async () => {
    const id = uuid();
    const response = await create(ctx, { name: `new-${id}`, uuid: id }, '1.20');
    assert.equal(response.status, 200);
    assert.equal(response.headers['content-type'], 'application/json');
    assert.match(String(response.headers.location), new RegExp(`/resource_providers/${id}$`));
    assert.equal(response.headers['cache-control'], 'no-cache');
    assert.match(String(response.headers['last-modified']), LAST_MODIFIED);
    assert.deepEqual(response.body, {
      uuid: id,
      name: `new-${id}`,
      generation: 0,
      links: [
        { rel: 'self', href: `/resource_providers/${id}` },
        { rel: 'inventories', href: `/resource_providers/${id}/inventories` },
        { rel: 'usages', href: `/resource_providers/${id}/usages` },
        { rel: 'aggregates', href: `/resource_providers/${id}/aggregates` },
        { rel: 'traits', href: `/resource_providers/${id}/traits` },
        { rel: 'allocations', href: `/resource_providers/${id}/allocations` },
      ],
      parent_provider_uuid: null,
      root_provider_uuid: id,
    });
  });

  it('generates a uuid when none is given', async () => {
    const response = await create(ctx, { name: `anon-${uuid()}` });
    assert.equal(response.status, 200);
    assert.match(
      response.body.uuid,
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
  });

  it('normalizes a dashless, upper-case uuid; the same uuid again is a 409 naming it', async () => {
    const id = uuid();
    const bare = id.replace(/-/g, '').toUpperCase();
    const first = await create(ctx, { name: `dashless-${id}`, uuid: bare });
    assert.equal(first.status, 200);
    assert.equal(first.body.uuid, id);
    const again = await create(ctx, { name: `other-${id}`, uuid: bare });
    assert.equal(again.status, 409);
    assert.equal(again.body.errors[0].code, 'placement.duplicate_name');
    assert.match(
      detail(again),
      new RegExp(`Conflicting resource provider uuid: ${id} already exists\\.`),
    );
  });

  it('409 placement.duplicate_name for a name in use (code from 1.23)', async () => {
    const name = `dup-${uuid()}`;
    assert.equal((await create(ctx, { name })).status, 200);
    const response = await create(ctx, { name, uuid: uuid() });
    assert.equal(response.status, 409);
    assert.equal(response.body.errors[0].title, 'Conflict');
    assert.equal(response.body.errors[0].code, 'placement.duplicate_name');
    assert.match(
      detail(response),
      new RegExp(`Conflicting resource provider name: ${name} already exists\\.`),
    );
    const old = await create(ctx, { name, uuid: uuid() }, '1.22');
    assert.equal(old.status, 409);
    assert.equal(old.body.errors[0].code, undefined);
  });

  it('when both the uuid and the name are taken, the 409 names the name (as on PostgreSQL)', async () => {
    const id = uuid();
    const name = `both-${id}`;
    assert.equal((await create(ctx, { name, uuid: id })).status, 200);
    const again = await create(ctx, { name, uuid: id });
    assert.equal(again.status, 409);
    assert.equal(
      detail(again),
      `There was a conflict when trying to complete your request.\n\n Conflicting resource provider name: ${name} already exists.  `,
    );
  });

  it('reads braced and urn: uuids as Python does and stores them canonically', async () => {
    for (const form of [
      (id: string) => `{${id}}`,
      (id: string) => `urn:uuid:${id.toUpperCase()}`,
    ]) {
      const id = uuid();
      const response = await create(ctx, { name: `form-${id}`, uuid: form(id) });
      assert.equal(response.status, 200, response.text);
      assert.equal(response.body.uuid, id);
      assert.equal((await ctx.api().get(`/resource_providers/${id}`)).status, 200);
    }
  });

  it('concurrent creates of one name: one 200, the others 409; distinct names all succeed', async () => {
    const name = `race-${uuid()}`;
    const answers = await Promise.all([1, 2, 3].map(() => create(ctx, { name })));
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 409, 409]);
    const root = await provider(ctx);
    const children = await Promise.all(
      [1, 2, 3, 4].map((n) =>
        create(ctx, { name: `kid-${n}-${root}`, parent_provider_uuid: root }),
      ),
    );
    assert.deepEqual(
      children.map((answer) => answer.status),
      [200, 200, 200, 200],
    );
  });

  it('400 for bodies the schema refuses', async () => {
    for (const body of [
      {},
      { name: 'x'.repeat(201) },
      { name: 'bad uuid', uuid: 'this is not a uuid' },
      { name: 'extra', spam: 1 },
      { name: 7 },
    ]) {
      const response = await create(ctx, body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.match(detail(response), /JSON does not validate/);
    }
    const malformed = await ctx.api().post('/resource_providers', '{"foo": }', { version: LATEST });
    assert.equal(malformed.status, 400);
    assert.match(detail(malformed), /Malformed JSON/);
  });

  it('400 for an empty name, worded as an object action', async () => {
    const id = uuid();
    const response = await create(ctx, { name: '', uuid: id });
    assert.equal(response.status, 400);
    assert.match(
      detail(response),
      new RegExp(
        `Unable to create resource provider "", ${id}: Object action create failed because: name is required`,
      ),
    );
  });

  it('parent_provider_uuid only from 1.14; unknown or self parents are 400', async () => {
    const parent = await provider(ctx);
    const early = await create(ctx, { name: `c-${uuid()}`, parent_provider_uuid: parent }, '1.13');
    assert.equal(early.status, 400);
    assert.match(detail(early), /JSON does not validate/);

    const missing = uuid();
    const id = uuid();
    const unknown = await create(ctx, { name: 'orphan', uuid: id, parent_provider_uuid: missing });
    assert.equal(unknown.status, 400);
    assert.match(
      detail(unknown),
      new RegExp(
        `Unable to create resource provider "orphan", ${id}: Object action create failed because: parent provider UUID does not exist\\.`,
      ),
    );

    const self = await create(ctx, { name: 'selfish', uuid: id, parent_provider_uuid: id });
    assert.equal(self.status, 400);
    assert.match(detail(self), /parent provider UUID cannot be same as UUID/);

    const nullParent = await create(ctx, { name: `np-${id}`, parent_provider_uuid: null });
    assert.equal(nullParent.status, 200);
    assert.equal(nullParent.body.parent_provider_uuid, null);
  });

  it("a child's root is its parent's root", async () => {
    const root = await provider(ctx);
    const child = await provider(ctx, root);
    const id = uuid();
    const grandchild = await create(ctx, {
      name: `gc-${id}`,
      uuid: id,
      parent_provider_uuid: child,
    });
    assert.equal(grandchild.status, 200);
    assert.equal(grandchild.body.parent_provider_uuid, child);
    assert.equal(grandchild.body.root_provider_uuid, root);
  });

  it('415 for a non-JSON body, before the policy is asked', async () => {
    const response = await ctx.api().request('POST', '/resource_providers', 'name=x', {
      token: 'user',
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(response.status, 415);
  });

  it('403 for a caller the policy refuses', async () => {
    const response = await ctx
      .api()
      .post('/resource_providers', { name: 'nope' }, { token: 'user' });
    assert.equal(response.status, 403);
  });
});

forEachPlacementBackend('GET /resource_providers/{uuid}', (ctx) => {
  it('shows the fields and links of each microversion', async () => {
    const id = await provider(ctx);
    const cases: [string, number, number][] = [
      ['1.0', 3, 4],
      ['1.1', 4, 4],
      ['1.6', 5, 4],
      ['1.11', 6, 4],
      ['1.13', 6, 4],
      ['1.14', 6, 6],
    ];
    for (const [version, links, keys] of cases) {
      const response = await ctx.api().get(`/resource_providers/${id}`, { version });
      assert.equal(response.status, 200);
      assert.equal(response.body.links.length, links, version);
      assert.equal(Object.keys(response.body).length, keys, version);
    }
    const latest = await ctx.api().get(`/resource_providers/${id}`, { version: LATEST });
    assert.deepEqual(
      latest.body.links.map((link: { rel: string }) => link.rel),
      ['self', 'inventories', 'usages', 'aggregates', 'traits', 'allocations'],
    );
    assert.equal(latest.body.root_provider_uuid, id);
  });

  it('last-modified and cache-control from 1.15 only', async () => {
    const id = await provider(ctx);
    const old = await ctx.api().get(`/resource_providers/${id}`, { version: '1.14' });
    assert.equal(old.headers['cache-control'], undefined);
    assert.equal(old.headers['last-modified'], undefined);
    const response = await ctx.api().get(`/resource_providers/${id}`, { version: '1.15' });
    assert.equal(response.headers['cache-control'], 'no-cache');
    assert.match(String(response.headers['last-modified']), LAST_MODIFIED);
  });

  it('404 for an unknown uuid, and for something that is not one', async () => {
    const missing = uuid();
    const response = await ctx.api().get(`/resource_providers/${missing}`);
    assert.equal(response.status, 404);
    assert.match(detail(response), new RegExp(`No resource provider with uuid ${missing} found`));
    assert.equal((await ctx.api().get('/resource_providers/random_sauce')).status, 404);
  });

  it('406 when Accept rules out JSON; 405 with Allow for other methods', async () => {
    const id = await provider(ctx);
    const refused = await ctx.api().get(`/resource_providers/${id}`, {
      headers: { accept: 'text/plain' },
    });
    assert.equal(refused.status, 406);
    const patch = await ctx.api().request('PATCH', `/resource_providers/${id}`);
    assert.equal(patch.status, 405);
    assert.equal(patch.headers.allow, 'GET, DELETE, PUT');
    const collection = await ctx.api().request('DELETE', '/resource_providers');
    assert.equal(collection.status, 405);
    assert.equal(collection.headers.allow, 'GET, POST');
  });
});

forEachPlacementBackend('GET /resource_providers', (ctx) => {
  it('lists providers with cache headers from 1.15 (none before)', async () => {
    const id = await provider(ctx);
    const response = await ctx.api().get('/resource_providers', { version: '1.15' });
    assert.equal(response.status, 200);
    assert.equal(response.headers['cache-control'], 'no-cache');
    assert.match(String(response.headers['last-modified']), LAST_MODIFIED);
    const listed = response.body.resource_providers.find((p: { uuid: string }) => p.uuid === id);
    assert.equal(listed.links.length, 6);
    assert.equal(listed.root_provider_uuid, id);
    const old = await ctx.api().get('/resource_providers', { version: '1.14' });
    assert.equal(old.headers['cache-control'], undefined);
    assert.equal(old.headers['last-modified'], undefined);
    const ancient = await ctx.api().get('/resource_providers', { version: '1.0' });
    const first = ancient.body.resource_providers[0];
    assert.deepEqual(Object.keys(first).sort(), ['generation', 'links', 'name', 'uuid']);
    assert.equal(first.links.length, 3);
  });

  it('403 for a caller the policy refuses', async () => {
    const response = await ctx.api().get('/resource_providers', { token: 'user' });
    assert.equal(response.status, 403);
    assert.equal(response.body.errors[0].title, 'Forbidden');
  });
});

forEachPlacementBackend('PUT /resource_providers/{uuid}', (ctx) => {
  const put = (id: string, body: unknown, version = LATEST) =>
    ctx.api().put(`/resource_providers/${id}`, body, { version });

  it('renames without touching the generation; no Location; cache headers from 1.15', async () => {
    const id = await provider(ctx);
    const name = `renamed-${id}`;
    const response = await put(id, { name }, '1.15');
    assert.equal(response.status, 200);
    assert.equal(response.body.name, name);
    assert.equal(response.body.generation, 0);
    assert.equal(response.headers.location, undefined);
    assert.equal(response.headers['cache-control'], 'no-cache');
    // A root was stamped at creation (its root link is an update): last-modified is sent.
    assert.match(String(response.headers['last-modified']), LAST_MODIFIED);
    assert.equal((await ctx.api().get(`/resource_providers/${id}`)).body.name, name);
    const old = await put(id, { name }, '1.14');
    assert.equal(old.headers['cache-control'], undefined);
    assert.equal(Object.keys(old.body).length, 6);
  });

  it('no last-modified for a provider never updated before (as the real service)', async () => {
    const root = await provider(ctx);
    const child = await provider(ctx, root);
    const response = await put(child, { name: `child-${child}` });
    assert.equal(response.status, 200);
    assert.equal(response.headers['cache-control'], 'no-cache');
    assert.equal(response.headers['last-modified'], undefined);
  });

  it('400 for bodies the schema refuses; 404 for an unknown provider first', async () => {
    const id = await provider(ctx);
    for (const body of [
      {},
      { badfield: 'x' },
      { name: 'x', uuid: uuid() },
      { name: 'x'.repeat(201) },
    ]) {
      const response = await put(id, body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.match(detail(response), /JSON does not validate/);
    }
    const rootField = await put(id, { name: 'x', root_provider_uuid: id });
    assert.equal(rootField.status, 400);
    const missing = uuid();
    const notFound = await put(missing, { badfield: 'x' });
    assert.equal(notFound.status, 404);
    assert.match(detail(notFound), new RegExp(`No resource provider with uuid ${missing} found`));
  });

  it('409 placement.duplicate_name when renaming to a name in use', async () => {
    const taken = await provider(ctx);
    const id = await provider(ctx);
    const response = await put(id, { name: `rp-${taken}` });
    assert.equal(response.status, 409);
    assert.equal(response.body.errors[0].code, 'placement.duplicate_name');
    assert.match(
      detail(response),
      new RegExp(`Conflicting resource provider rp-${taken} already exists\\.`),
    );
  });

  it('gives a root a parent from 1.14 (not before); an unknown parent is 400', async () => {
    const parent = await provider(ctx);
    const id = await provider(ctx);
    const early = await put(id, { name: `rp-${id}`, parent_provider_uuid: parent }, '1.13');
    assert.equal(early.status, 400);
    assert.match(detail(early), /JSON does not validate/);
    const missing = uuid();
    const unknown = await put(id, { name: `rp-${id}`, parent_provider_uuid: missing }, '1.14');
    assert.equal(unknown.status, 400);
    assert.match(
      detail(unknown),
      new RegExp(
        `Unable to save resource provider ${id}: Object action create failed because: parent provider UUID does not exist\\.`,
      ),
    );
    const response = await put(id, { name: `rp-${id}`, parent_provider_uuid: parent }, '1.14');
    assert.equal(response.status, 200);
    assert.equal(response.body.parent_provider_uuid, parent);
    assert.equal(response.body.root_provider_uuid, parent);
    // Naming the same parent again, or leaving it out, keeps it at any version.
    assert.equal(
      (await put(id, { name: `rp-${id}`, parent_provider_uuid: parent }, '1.14')).status,
      200,
    );
    const kept = await put(id, { name: `rp-${id}` }, '1.36');
    assert.equal(kept.status, 200);
    assert.equal(kept.body.parent_provider_uuid, parent);
  });

  it('re-parenting and un-parenting are 400 before 1.37', async () => {
    const parent = await provider(ctx);
    const other = await provider(ctx);
    const id = await provider(ctx, parent);
    const move = await put(id, { name: `rp-${id}`, parent_provider_uuid: other }, '1.36');
    assert.equal(move.status, 400);
    assert.match(detail(move), /re-parenting a provider is not currently allowed\./);
    const orphan = await put(id, { name: `rp-${id}`, parent_provider_uuid: null }, '1.36');
    assert.equal(orphan.status, 400);
    assert.match(
      detail(orphan),
      new RegExp(
        `Unable to save resource provider ${id}: Object action update failed because: un-parenting a provider is not currently allowed\\.`,
      ),
    );
  });

  it('from 1.37 moves a provider with its whole subtree, and un-parents it', async () => {
    const oldRoot = await provider(ctx);
    const newRoot = await provider(ctx);
    const newParent = await provider(ctx, newRoot);
    const moving = await provider(ctx, oldRoot);
    const child = await provider(ctx, moving);
    const grandchild = await provider(ctx, child);
    const sibling = await provider(ctx, oldRoot);

    const moved = await put(
      moving,
      { name: `rp-${moving}`, parent_provider_uuid: newParent },
      '1.37',
    );
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.body.parent_provider_uuid, newParent);
    assert.equal(moved.body.root_provider_uuid, newRoot);
    for (const id of [child, grandchild]) {
      const shown = await ctx.api().get(`/resource_providers/${id}`, { version: LATEST });
      assert.equal(shown.body.root_provider_uuid, newRoot);
    }
    const stayed = await ctx.api().get(`/resource_providers/${sibling}`, { version: LATEST });
    assert.equal(stayed.body.root_provider_uuid, oldRoot);
    const tree = await ctx.api().get(`/resource_providers?in_tree=${newRoot}`, { version: LATEST });
    assert.equal(tree.body.resource_providers.length, 5);

    const freed = await put(moving, { name: `rp-${moving}`, parent_provider_uuid: null }, '1.37');
    assert.equal(freed.status, 200);
    assert.equal(freed.body.parent_provider_uuid, null);
    assert.equal(freed.body.root_provider_uuid, moving);
    const shown = await ctx.api().get(`/resource_providers/${grandchild}`, { version: LATEST });
    assert.equal(shown.body.root_provider_uuid, moving);
  });

  it('refuses loops: a provider under itself or under its own descendant', async () => {
    const root = await provider(ctx);
    const child = await provider(ctx, root);
    const grandchild = await provider(ctx, child);
    const self = await put(root, { name: `rp-${root}`, parent_provider_uuid: root });
    assert.equal(self.status, 400);
    assert.match(detail(self), /creating loop in the provider tree is not allowed\./);
    const below = await put(root, { name: `rp-${root}`, parent_provider_uuid: grandchild });
    assert.equal(below.status, 400);
    assert.match(detail(below), /creating loop in the provider tree is not allowed\./);
    // Before 1.37 too: a root may take a parent, but not one of its descendants.
    const early = await put(root, { name: `rp-${root}`, parent_provider_uuid: child }, '1.14');
    assert.equal(early.status, 400);
    assert.match(detail(early), /creating loop/);
  });

  it('415 for a non-JSON body', async () => {
    const id = await provider(ctx);
    const response = await ctx.api().request('PUT', `/resource_providers/${id}`, 'x', {
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(response.status, 415);
  });
});

forEachPlacementBackend('DELETE /resource_providers/{uuid}', (ctx) => {
  it('deletes a provider with its inventories, traits and aggregate links', async () => {
    const id = await provider(ctx);
    const internal = await providerId(ctx, id);
    const db = ctx.placementDb().kysely;
    const now = new Date();
    await db
      .insertInto('inventories')
      .values({
        resource_provider_id: internal,
        resource_class_id: 0,
        total: 4,
        reserved: 0,
        min_unit: 1,
        max_unit: 4,
        step_size: 1,
        allocation_ratio: 1,
        created_at: now,
        updated_at: null,
      })
      .execute();
    const trait = await db
      .selectFrom('traits')
      .select('id')
      .where('name', '=', 'HW_CPU_X86_AVX')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('resource_provider_traits')
      .values({
        resource_provider_id: internal,
        trait_id: Number(trait.id),
        created_at: now,
        updated_at: null,
      })
      .execute();
    const aggregates = await ctx
      .api()
      .put(`/resource_providers/${id}/aggregates`, [uuid()], { version: '1.1' });
    assert.equal(aggregates.status, 200);

    const response = await ctx.api().delete(`/resource_providers/${id}`);
    assert.equal(response.status, 204);
    assert.equal(response.text, '');
    assert.equal(response.headers['content-type'], undefined);
    for (const table of [
      'inventories',
      'resource_provider_traits',
      'resource_provider_aggregates',
    ] as const) {
      const left = await db
        .selectFrom(table)
        .select('resource_provider_id')
        .where('resource_provider_id', '=', internal)
        .execute();
      assert.equal(left.length, 0, table);
    }
    const again = await ctx.api().delete(`/resource_providers/${id}`);
    assert.equal(again.status, 404);
    assert.match(
      detail(again),
      new RegExp(`No resource provider with uuid ${id} found for delete`),
    );
  });

  it('409 cannot_delete_parent for a provider with children', async () => {
    const parent = await provider(ctx);
    const child = await provider(ctx, parent);
    const response = await ctx.api().delete(`/resource_providers/${parent}`, { version: LATEST });
    assert.equal(response.status, 409);
    assert.equal(response.body.errors[0].code, 'placement.resource_provider.cannot_delete_parent');
    assert.match(
      detail(response),
      new RegExp(
        `Unable to delete parent resource provider ${parent}: It has child resource providers\\.`,
      ),
    );
    assert.equal((await ctx.api().delete(`/resource_providers/${child}`)).status, 204);
    assert.equal((await ctx.api().delete(`/resource_providers/${parent}`)).status, 204);
  });

  it('409 inuse for a provider with allocations', async () => {
    const id = await provider(ctx);
    const now = new Date();
    await ctx
      .placementDb()
      .kysely.insertInto('allocations')
      .values({
        resource_provider_id: await providerId(ctx, id),
        consumer_id: uuid(),
        resource_class_id: 0,
        used: 1,
        created_at: now,
        updated_at: null,
      })
      .execute();
    const response = await ctx.api().delete(`/resource_providers/${id}`, { version: LATEST });
    assert.equal(response.status, 409);
    assert.equal(response.body.errors[0].code, 'placement.resource_provider.inuse');
    assert.match(
      detail(response),
      new RegExp(`Unable to delete resource provider ${id}: Resource provider has allocations\\.`),
    );
  });

  it('403 for a caller the policy refuses', async () => {
    const id = await provider(ctx);
    assert.equal(
      (await ctx.api().delete(`/resource_providers/${id}`, { token: 'user' })).status,
      403,
    );
  });
});
