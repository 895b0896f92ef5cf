import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import {
  consumerRecord,
  createProvider,
  providerGeneration,
} from '../support/allocation-fixtures.ts';
import { forEachPlacementBackend, uuid } from '../support/placement-api.ts';

const PROJECT = 'c4d3e2f1-aaaa-4bbb-8ccc-000000000001';
const USER = 'c4d3e2f1-aaaa-4bbb-8ccc-000000000002';

function detail(response: { body: { errors: { detail: string }[] } }): string {
  return response.body.errors[0]?.detail ?? '';
}

forEachPlacementBackend('allocations: GET, PUT, DELETE per microversion', (ctx) => {
  let rp: { uuid: string; id: number };
  let small: { uuid: string; id: number };
  before(async () => {
    rp = await createProvider(ctx.placementDb(), {
      VCPU: { total: 8, max_unit: 4 },
      MEMORY_MB: { total: 4096, step_size: 256, min_unit: 256, max_unit: 2048 },
      DISK_GB: { total: 100, reserved: 10, allocation_ratio: 1.5, max_unit: 200 },
    });
    small = await createProvider(ctx.placementDb(), { VCPU: { total: 1 } });
  });

  it('GET of an unknown consumer is an empty dict at every version', async () => {
    for (const version of ['1.0', '1.12', '1.28', '1.38']) {
      const response = await ctx.api().get(`/allocations/${uuid()}`, { version });
      assert.equal(response.status, 200);
      assert.deepEqual(response.body, { allocations: {} });
      assert.equal(response.headers['content-type'], 'application/json');
    }
  });

  it('PUT 1.0 takes the list form; the consumer gets the incomplete project and user', async () => {
    const consumer = uuid();
    const put = await ctx
      .api()
      .put(
        `/allocations/${consumer}`,
        { allocations: [{ resource_provider: { uuid: rp.uuid }, resources: { VCPU: 1 } }] },
        { version: '1.0' },
      );
    assert.equal(put.status, 204);
    assert.equal(put.text, '');
    const old = await ctx.api().get(`/allocations/${consumer}`, { version: '1.11' });
    assert.deepEqual(Object.keys(old.body), ['allocations']);
    assert.deepEqual(old.body.allocations[rp.uuid].resources, { VCPU: 1 });
    const later = await ctx.api().get(`/allocations/${consumer}`, { version: '1.12' });
    assert.equal(later.body.project_id, '00000000-0000-0000-0000-000000000000');
    assert.equal(later.body.user_id, '00000000-0000-0000-0000-000000000000');
    assert.equal(later.body.consumer_generation, undefined);
    const record = await consumerRecord(ctx.placementDb(), consumer);
    assert.equal(record?.generation, 1);
  });

  it('PUT 1.8 requires project_id and user_id; 1.12 refuses the list form', async () => {
    const consumer = uuid();
    const list = {
      allocations: [{ resource_provider: { uuid: rp.uuid }, resources: { VCPU: 1 } }],
    };
    const missing = await ctx.api().put(`/allocations/${consumer}`, list, { version: '1.8' });
    assert.equal(missing.status, 400);
    assert.match(detail(missing), /JSON does not validate: 'project_id' is a required property/);
    const ok = await ctx
      .api()
      .put(
        `/allocations/${consumer}`,
        { ...list, project_id: PROJECT, user_id: USER },
        { version: '1.8' },
      );
    assert.equal(ok.status, 204);
    const asList = await ctx
      .api()
      .put(
        `/allocations/${consumer}`,
        { ...list, project_id: PROJECT, user_id: USER },
        { version: '1.12' },
      );
    assert.equal(asList.status, 400);
    assert.match(detail(asList), /JSON does not validate: \[.*\] is not of type 'object'/);
  });

  it('PUT 1.12 dict form, GET shows provider generation, project and user', async () => {
    const consumer = uuid();
    const before = await providerGeneration(ctx.placementDb(), rp.id);
    const put = await ctx.api().put(
      `/allocations/${consumer}`,
      {
        allocations: { [rp.uuid]: { resources: { VCPU: 2, MEMORY_MB: 512 } } },
        project_id: PROJECT,
        user_id: USER,
      },
      { version: '1.12' },
    );
    assert.equal(put.status, 204);
    assert.equal(await providerGeneration(ctx.placementDb(), rp.id), before + 1);
    const got = await ctx.api().get(`/allocations/${consumer}`, { version: '1.12' });
    assert.deepEqual(got.body, {
      allocations: {
        [rp.uuid]: { resources: { VCPU: 2, MEMORY_MB: 512 }, generation: before + 1 },
      },
      project_id: PROJECT,
      user_id: USER,
    });
    assert.equal(got.headers['last-modified'], undefined);
    const cached = await ctx.api().get(`/allocations/${consumer}`, { version: '1.15' });
    assert.equal(cached.headers['cache-control'], 'no-cache');
    assert.ok(!Number.isNaN(Date.parse(String(cached.headers['last-modified']))));
  });

  it('PUT 1.28 needs consumer_generation, GET shows it; 1.38 needs and shows consumer_type', async () => {
    const consumer = uuid();
    const body = {
      allocations: { [rp.uuid]: { resources: { VCPU: 1 } } },
      project_id: PROJECT,
      user_id: USER,
    };
    const none = await ctx.api().put(`/allocations/${consumer}`, body, { version: '1.28' });
    assert.equal(none.status, 400);
    assert.match(detail(none), /'consumer_generation' is a required property/);
    const first = await ctx
      .api()
      .put(`/allocations/${consumer}`, { ...body, consumer_generation: null }, { version: '1.28' });
    assert.equal(first.status, 204);
    const got = await ctx.api().get(`/allocations/${consumer}`, { version: '1.28' });
    assert.equal(got.body.consumer_generation, 1);
    assert.equal(got.body.consumer_type, undefined);
    const typed = await ctx.api().get(`/allocations/${consumer}`, { version: '1.38' });
    assert.equal(typed.body.consumer_type, 'unknown');
    const untyped = await ctx
      .api()
      .put(`/allocations/${consumer}`, { ...body, consumer_generation: 1 }, { version: '1.38' });
    assert.equal(untyped.status, 400);
    assert.match(detail(untyped), /'consumer_type' is a required property/);
    const lower = await ctx
      .api()
      .put(
        `/allocations/${consumer}`,
        { ...body, consumer_generation: 1, consumer_type: 'instance' },
        { version: '1.38' },
      );
    assert.equal(lower.status, 400);
    assert.match(detail(lower), /'instance' does not match '\^\[A-Z0-9_\]\+\$'/);
    const withType = await ctx
      .api()
      .put(
        `/allocations/${consumer}`,
        { ...body, consumer_generation: 1, consumer_type: 'INSTANCE' },
        { version: '1.38' },
      );
    assert.equal(withType.status, 204);
    const shown = await ctx.api().get(`/allocations/${consumer}`, { version: '1.38' });
    assert.equal(shown.body.consumer_type, 'INSTANCE');
    assert.equal(shown.body.consumer_generation, 2);
    const rows = await ctx
      .placementDb()
      .kysely.selectFrom('consumer_types')
      .select('name')
      .where('name', '=', 'INSTANCE')
      .execute();
    assert.equal(rows.length, 1);
    const before137 = await ctx
      .api()
      .put(
        `/allocations/${consumer}`,
        { ...body, consumer_generation: 2, consumer_type: 'INSTANCE' },
        { version: '1.37' },
      );
    assert.equal(before137.status, 400);
    assert.match(detail(before137), /'consumer_type' was unexpected/);
  });

  it('PUT 1.34 accepts mappings, but not an empty mappings object', async () => {
    const body = {
      allocations: { [rp.uuid]: { resources: { VCPU: 1 } } },
      project_id: PROJECT,
      user_id: USER,
      consumer_generation: null,
    };
    const empty = await ctx
      .api()
      .put(`/allocations/${uuid()}`, { ...body, mappings: {} }, { version: '1.34' });
    assert.equal(empty.status, 400);
    assert.match(
      detail(empty),
      /JSON does not validate: \{\} does not have enough properties {2}Failed validating 'minProperties' in schema\['properties'\]\['mappings'\]:/,
    );
    const response = await ctx
      .api()
      .put(
        `/allocations/${uuid()}`,
        { ...body, mappings: { _group1: [rp.uuid] } },
        { version: '1.34' },
      );
    assert.equal(response.status, 204);
  });

  it('malformed JSON is refused in the words of Python', async () => {
    const response = await ctx.api().put(`/allocations/${uuid()}`, '{"allocations": [', {
      version: '1.7',
    });
    assert.equal(response.status, 400);
    assert.match(
      detail(response),
      /Malformed JSON: Expecting value: line 1 column 18 \(char 17\) {2}$/,
    );
  });

  it('400 for a malformed consumer uuid, an unknown provider or class', async () => {
    const body = {
      allocations: { [rp.uuid]: { resources: { VCPU: 1 } } },
      project_id: PROJECT,
      user_id: USER,
    };
    const malformed = await ctx.api().put('/allocations/not-a-uuid', body, { version: '1.12' });
    assert.equal(malformed.status, 400);
    assert.match(detail(malformed), /Malformed consumer_uuid: not-a-uuid/);
    const ghost = uuid();
    const noProvider = await ctx
      .api()
      .put(
        `/allocations/${uuid()}`,
        { ...body, allocations: { [ghost]: { resources: { VCPU: 1 } } } },
        { version: '1.12' },
      );
    assert.equal(noProvider.status, 400);
    assert.match(
      detail(noProvider),
      new RegExp(`Allocation for resource provider '${ghost}' that does not exist\\.`),
    );
    const consumer = uuid();
    const noClass = await ctx
      .api()
      .put(
        `/allocations/${consumer}`,
        { ...body, allocations: { [rp.uuid]: { resources: { CUSTOM_NOPE: 1 } } } },
        { version: '1.12' },
      );
    assert.equal(noClass.status, 400);
    assert.match(
      detail(noClass),
      new RegExp(
        `Unable to allocate inventory for consumer ${consumer}: No such resource class CUSTOM_NOPE\\.`,
      ),
    );
    assert.equal(await consumerRecord(ctx.placementDb(), consumer), undefined);
  });

  it('PUT canonicalizes an upper-case, dash-less consumer uuid', async () => {
    const consumer = uuid();
    const raw = consumer.replace(/-/g, '').toUpperCase();
    const put = await ctx.api().put(
      `/allocations/${raw}`,
      {
        allocations: { [rp.uuid]: { resources: { VCPU: 1 } } },
        project_id: PROJECT,
        user_id: USER,
      },
      { version: '1.12' },
    );
    assert.equal(put.status, 204);
    const got = await ctx.api().get(`/allocations/${consumer}`, { version: '1.12' });
    assert.deepEqual(got.body.allocations[rp.uuid].resources, { VCPU: 1 });
  });

  it('409 for missing inventory, constraints and capacity, with the real words', async () => {
    const body = { project_id: PROJECT, user_id: USER };
    const put = (allocations: unknown) =>
      ctx.api().put(`/allocations/${uuid()}`, { ...body, allocations }, { version: '1.23' });
    const noInventory = await put({ [small.uuid]: { resources: { DISK_GB: 1 } } });
    assert.equal(noInventory.status, 409);
    assert.match(
      detail(noInventory),
      new RegExp(
        `Unable to allocate inventory: Inventory for 'DISK_GB' on resource provider '${small.uuid}' invalid\\.`,
      ),
    );
    assert.equal(noInventory.body.errors[0].code, 'placement.undefined_code');
    const noClass = await put({ [small.uuid]: { resources: { VCPU: 1, MEMORY_MB: 256 } } });
    assert.equal(noClass.status, 409);
    assert.match(detail(noClass), /Inventory for 'MEMORY_MB' on resource provider/);
    const step = await put({ [rp.uuid]: { resources: { MEMORY_MB: 300 } } });
    assert.equal(step.status, 409);
    assert.match(
      detail(step),
      new RegExp(
        `Unable to create allocation for 'MEMORY_MB' on resource provider '${rp.uuid}'\\. The requested amount would violate inventory constraints\\.`,
      ),
    );
    const max = await put({ [rp.uuid]: { resources: { VCPU: 5 } } });
    assert.match(detail(max), /would violate inventory constraints/);
    // DISK_GB: (100 - 10) * 1.5 = 135
    const over = await put({ [rp.uuid]: { resources: { DISK_GB: 136 } } });
    assert.equal(over.status, 409);
    assert.match(
      detail(over),
      new RegExp(
        `Unable to create allocation for 'DISK_GB' on resource provider '${rp.uuid}'\\. The requested amount would exceed the capacity\\.`,
      ),
    );
    const fits = await put({ [rp.uuid]: { resources: { DISK_GB: 135 } } });
    assert.equal(fits.status, 204);
    const full = await put({ [rp.uuid]: { resources: { DISK_GB: 1 } } });
    assert.match(detail(full), /would exceed the capacity/);
  });

  it('409, not a database error, for an amount beyond any column (2^40), by PUT and POST', async () => {
    const huge = 2 ** 40;
    const consumer = uuid();
    const put = await ctx.api().put(
      `/allocations/${consumer}`,
      {
        project_id: PROJECT,
        user_id: USER,
        allocations: { [small.uuid]: { resources: { VCPU: huge } } },
      },
      { version: '1.12' },
    );
    assert.equal(put.status, 409);
    assert.match(
      detail(put),
      new RegExp(
        `Unable to create allocation for 'VCPU' on resource provider '${small.uuid}'\\. The requested amount would violate inventory constraints\\.`,
      ),
    );
    const post = await ctx.api().post(
      '/allocations',
      {
        [consumer]: {
          project_id: PROJECT,
          user_id: USER,
          consumer_generation: null,
          consumer_type: 'INSTANCE',
          allocations: { [small.uuid]: { resources: { VCPU: huge } } },
        },
      },
      { version: '1.38' },
    );
    assert.equal(post.status, 409);
    assert.match(detail(post), /would violate inventory constraints/);
    const nothing = await ctx.api().get(`/allocations/${consumer}`, { version: '1.12' });
    assert.deepEqual(nothing.body.allocations, {});
  });

  it("replacing a consumer's allocations frees what it held", async () => {
    const consumer = uuid();
    const body = { project_id: PROJECT, user_id: USER };
    const first = await ctx
      .api()
      .put(
        `/allocations/${consumer}`,
        { ...body, allocations: { [small.uuid]: { resources: { VCPU: 1 } } } },
        { version: '1.12' },
      );
    assert.equal(first.status, 204);
    // The same consumer may rewrite its own single unit: its old allocation does not count.
    const again = await ctx
      .api()
      .put(
        `/allocations/${consumer}`,
        { ...body, allocations: { [small.uuid]: { resources: { VCPU: 1 } } } },
        { version: '1.12' },
      );
    assert.equal(again.status, 204);
    const other = await ctx
      .api()
      .put(
        `/allocations/${uuid()}`,
        { ...body, allocations: { [small.uuid]: { resources: { VCPU: 1 } } } },
        { version: '1.12' },
      );
    assert.equal(other.status, 409);
    const moved = await ctx
      .api()
      .put(
        `/allocations/${consumer}`,
        { ...body, allocations: { [rp.uuid]: { resources: { VCPU: 1 } } } },
        { version: '1.12' },
      );
    assert.equal(moved.status, 204);
    const got = await ctx.api().get(`/allocations/${consumer}`, { version: '1.12' });
    assert.deepEqual(Object.keys(got.body.allocations), [rp.uuid]);
    const delete1 = await ctx.api().delete(`/allocations/${consumer}`);
    assert.equal(delete1.status, 204);
  });

  it('PUT 1.28 with empty allocations deletes them and the consumer; earlier versions refuse', async () => {
    const consumer = uuid();
    const body = { project_id: PROJECT, user_id: USER };
    await ctx.api().put(
      `/allocations/${consumer}`,
      {
        ...body,
        consumer_generation: null,
        allocations: { [rp.uuid]: { resources: { VCPU: 1 } } },
      },
      { version: '1.28' },
    );
    const refused = await ctx
      .api()
      .put(`/allocations/${consumer}`, { ...body, allocations: {} }, { version: '1.27' });
    assert.equal(refused.status, 400);
    assert.match(detail(refused), /\{\} does not have enough properties/);
    const gen = await providerGeneration(ctx.placementDb(), rp.id);
    const emptied = await ctx
      .api()
      .put(
        `/allocations/${consumer}`,
        { ...body, consumer_generation: 1, allocations: {} },
        { version: '1.28' },
      );
    assert.equal(emptied.status, 204);
    assert.equal(await providerGeneration(ctx.placementDb(), rp.id), gen + 1);
    assert.deepEqual((await ctx.api().get(`/allocations/${consumer}`, { version: '1.28' })).body, {
      allocations: {},
    });
    assert.equal(await consumerRecord(ctx.placementDb(), consumer), undefined);
  });

  it('DELETE: 204 then 404 with the real message; the consumer record goes too', async () => {
    const consumer = uuid();
    await ctx.api().put(
      `/allocations/${consumer}`,
      {
        allocations: { [rp.uuid]: { resources: { VCPU: 1 } } },
        project_id: PROJECT,
        user_id: USER,
      },
      { version: '1.12' },
    );
    const deleted = await ctx.api().delete(`/allocations/${consumer}`);
    assert.equal(deleted.status, 204);
    assert.equal(deleted.text, '');
    assert.equal(await consumerRecord(ctx.placementDb(), consumer), undefined);
    const again = await ctx.api().delete(`/allocations/${consumer}`);
    assert.equal(again.status, 404);
    assert.match(detail(again), new RegExp(`No allocations for consumer '${consumer}'`));
  });

  it('405 for other methods, with Allow; POST /allocations is 404 before 1.13', async () => {
    const get = await ctx.api().get('/allocations');
    assert.equal(get.status, 405);
    assert.equal(get.headers.allow, 'POST');
    const patch = await ctx.api().request('PATCH', `/allocations/${uuid()}`);
    assert.equal(patch.status, 405);
    assert.equal(patch.headers.allow, 'GET, PUT, DELETE');
    const early = await ctx.api().post('/allocations', {}, { version: '1.12' });
    assert.equal(early.status, 404);
  });

  it('415 for a non-JSON body, 406 for a GET that refuses JSON, 403 for a non-admin', async () => {
    const put = await ctx.api().request('PUT', `/allocations/${uuid()}`, undefined, {
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(put.status, 415);
    const get = await ctx
      .api()
      .get(`/allocations/${uuid()}`, { headers: { accept: 'text/plain' } });
    assert.equal(get.status, 406);
    const denied = await ctx.api().get(`/allocations/${uuid()}`, { token: 'someone' });
    assert.equal(denied.status, 403);
    assert.match(detail(denied), /placement:allocations:list/);
  });
});

forEachPlacementBackend('GET /resource_providers/{uuid}/allocations', (ctx) => {
  it('404 for an unknown provider, with the real message', async () => {
    const ghost = uuid();
    const response = await ctx.api().get(`/resource_providers/${ghost}/allocations`);
    assert.equal(response.status, 404);
    assert.match(
      detail(response),
      new RegExp(
        `Resource provider '${ghost}' not found: No resource provider with uuid ${ghost} found`,
      ),
    );
  });

  it('lists consumers with their resources, consumer_generation from 1.28', async () => {
    const rp = await createProvider(ctx.placementDb(), {
      VCPU: { total: 8 },
      MEMORY_MB: { total: 1024 },
    });
    const empty = await ctx.api().get(`/resource_providers/${rp.uuid}/allocations`);
    assert.deepEqual(empty.body, { allocations: {}, resource_provider_generation: 0 });
    const a = uuid();
    const b = uuid();
    for (const [consumer, vcpu] of [
      [a, 1],
      [b, 2],
    ] as const) {
      const put = await ctx.api().put(
        `/allocations/${consumer}`,
        {
          allocations: { [rp.uuid]: { resources: { VCPU: vcpu, MEMORY_MB: 128 } } },
          project_id: PROJECT,
          user_id: USER,
        },
        { version: '1.12' },
      );
      assert.equal(put.status, 204);
    }
    const old = await ctx
      .api()
      .get(`/resource_providers/${rp.uuid}/allocations`, { version: '1.27' });
    assert.deepEqual(old.body, {
      allocations: {
        [a]: { resources: { VCPU: 1, MEMORY_MB: 128 } },
        [b]: { resources: { VCPU: 2, MEMORY_MB: 128 } },
      },
      resource_provider_generation: 2,
    });
    const recent = await ctx
      .api()
      .get(`/resource_providers/${rp.uuid}/allocations`, { version: '1.28' });
    assert.equal(recent.body.allocations[a].consumer_generation, 1);
    assert.equal(recent.headers['cache-control'], 'no-cache');
  });
});
