import assert from 'node:assert/strict';
import { it } from 'node:test';
import { forEachPlacementBackend, uuid } from '../support/placement-api.ts';
import { insertConsumer, insertProvider } from '../support/usage-fixtures.ts';

const MAX_INT = 2147483647;

forEachPlacementBackend('inventories of a resource provider', (ctx) => {
  const inventoriesOf = (rp: { uuid: string }) => `/resource_providers/${rp.uuid}/inventories`;
  const newProvider = () => insertProvider(ctx.placementDb());

  it('404 for a missing provider, worded as the list handler words it', async () => {
    const missing = uuid();
    const response = await ctx.api().get(`/resource_providers/${missing}/inventories`);
    assert.equal(response.status, 404);
    assert.equal(response.body.errors[0].title, 'Not Found');
    assert.match(
      response.body.errors[0].detail,
      new RegExp(`No resource provider with uuid ${missing} found : No resource provider`),
    );
  });

  it('lists no inventory at generation 0; cache-control but no last-modified from 1.15', async () => {
    const rp = await newProvider();
    const old = await ctx.api().get(inventoriesOf(rp), { version: '1.14' });
    assert.equal(old.status, 200);
    assert.equal(old.headers['content-type'], 'application/json');
    assert.deepEqual(old.body, { resource_provider_generation: 0, inventories: {} });
    assert.equal(old.headers['cache-control'], undefined);
    const recent = await ctx.api().get(inventoriesOf(rp), { version: '1.15' });
    assert.equal(recent.headers['cache-control'], 'no-cache');
    assert.equal(recent.headers['last-modified'], undefined);
  });

  it('POST creates one inventory: 201, absolute Location, defaults, generation bumped', async () => {
    const rp = await newProvider();
    const response = await ctx
      .api()
      .post(inventoriesOf(rp), { resource_class: 'DISK_GB', total: 2048, reserved: 512 });
    assert.equal(response.status, 201);
    assert.match(
      String(response.headers.location),
      new RegExp(`^http://localhost(:80)?/resource_providers/${rp.uuid}/inventories/DISK_GB$`),
    );
    assert.deepEqual(response.body, {
      total: 2048,
      reserved: 512,
      min_unit: 1,
      max_unit: MAX_INT,
      step_size: 1,
      allocation_ratio: 1,
      resource_provider_generation: 1,
    });
    assert.equal(response.headers['last-modified'], undefined);
    const shown = await ctx.api().get(`${inventoriesOf(rp)}/DISK_GB`, { version: '1.15' });
    assert.equal(shown.status, 200);
    assert.equal(shown.body.resource_provider_generation, 1);
    assert.equal(shown.body.total, 2048);
    assert.equal(shown.headers['cache-control'], 'no-cache');
    assert.ok(!Number.isNaN(Date.parse(String(shown.headers['last-modified']))));
    const listed = await ctx.api().get(inventoriesOf(rp), { version: '1.15' });
    assert.equal(listed.body.resource_provider_generation, 1);
    assert.equal(listed.body.inventories.DISK_GB.reserved, 512);
    assert.ok(!Number.isNaN(Date.parse(String(listed.headers['last-modified']))));
  });

  it('POST answers with cache headers from 1.15', async () => {
    const rp = await newProvider();
    const response = await ctx
      .api()
      .post(inventoriesOf(rp), { resource_class: 'VCPU', total: 8 }, { version: '1.15' });
    assert.equal(response.status, 201);
    assert.equal(response.headers['cache-control'], 'no-cache');
    assert.ok(response.headers['last-modified']);
  });

  it('POST refuses bodies the schema refuses, in jsonschema words', async () => {
    const rp = await newProvider();
    const cases: [unknown, RegExp][] = [
      [{ resource_class: 'DISK_GB' }, /'total' is a required property/],
      [{ resource_class: 'DISK_GB', total: -1 }, /-1 is less than the minimum of 1/],
      [{ resource_class: 'DISK_GB', total: 0 }, /0 is less than the minimum of 1/],
      [{ resource_class: 'DISK_GB', total: 10, min_unit: 0 }, /0 is less than the minimum of 1/],
      [{ resource_class: 'DISK_GB', total: 10, max_unit: 0 }, /0 is less than the minimum of 1/],
      [{ resource_class: 'DISK_GB', total: 10, step_size: 0 }, /0 is less than the minimum of 1/],
      [{ resource_class: 'DISK_GB', total: 10, reserved: -1 }, /-1 is less than the minimum of 0/],
      [{ resource_class: 'DISK_GB', total: MAX_INT + 1 }, /is greater than the maximum of/],
      [{ resource_class: 'DISK_GB', total: 10, reserved: MAX_INT + 1 }, /greater than the maximum/],
      [{ resource_class: 'DISK_GB', total: 10, allocation_ratio: 3.40282e39 }, /maximum/],
      [{ resource_class: 'bad_class', total: 10 }, /does not match/],
      [{ resource_class: 'DISK_GB', total: 10, color: 'red' }, /'color' was unexpected/],
    ];
    for (const [body, message] of cases) {
      const response = await ctx.api().post(inventoriesOf(rp), body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.match(response.body.errors[0].detail, /JSON does not validate/);
      assert.match(response.body.errors[0].detail, message);
    }
    const malformed = await ctx.api().post(inventoriesOf(rp), '{"foo": }');
    assert.equal(malformed.status, 400);
    assert.match(malformed.body.errors[0].detail, /Malformed JSON/);
  });

  it('POST: unknown class 400; an existing class 409 placement.concurrent_update', async () => {
    const rp = await newProvider();
    const unknown = await ctx.api().post(inventoriesOf(rp), {
      resource_class: 'NO_CLASS_14',
      total: 2048,
    });
    assert.equal(unknown.status, 400);
    assert.match(
      unknown.body.errors[0].detail,
      new RegExp(
        `Unable to create inventory for resource provider ${rp.uuid}: No such resource class NO_CLASS_14`,
      ),
    );
    const body = { resource_class: 'IPV4_ADDRESS', total: 255, reserved: 2 };
    assert.equal((await ctx.api().post(inventoriesOf(rp), body)).status, 201);
    const again = await ctx.api().post(inventoriesOf(rp), body, { version: '1.23' });
    assert.equal(again.status, 409);
    assert.match(again.body.errors[0].detail, /Update conflict/);
    assert.equal(again.body.errors[0].code, 'placement.concurrent_update');
    const listed = await ctx.api().get(inventoriesOf(rp));
    assert.equal(listed.body.resource_provider_generation, 1);
  });

  it('capacity: reserved may not reach total before 1.26; from 1.26 it may equal it', async () => {
    const rp = await newProvider();
    const equal = { resource_class: 'DISK_GB', total: 256, reserved: 256 };
    const old = await ctx.api().post(inventoriesOf(rp), equal, { version: '1.25' });
    assert.equal(old.status, 400);
    assert.match(
      old.body.errors[0].detail,
      new RegExp(
        `Unable to create inventory for resource provider ${rp.uuid}: Invalid inventory for 'DISK_GB' on resource provider '${rp.uuid}'. The reserved value is greater than or equal to total.`,
      ),
    );
    const above = { resource_class: 'DISK_GB', total: 256, reserved: 512 };
    const newer = await ctx.api().post(inventoriesOf(rp), above, { version: '1.26' });
    assert.equal(newer.status, 400);
    assert.match(newer.body.errors[0].detail, /The reserved value is greater than total\./);
    const allowed = await ctx.api().post(inventoriesOf(rp), equal, { version: '1.26' });
    assert.equal(allowed.status, 201);
    assert.equal(allowed.body.reserved, 256);
  });

  it('capacity counts the allocation ratio: a zero ratio is refused before 1.26', async () => {
    const rp = await newProvider();
    const body = { resource_class: 'VCPU', total: 4, allocation_ratio: 0 };
    assert.equal((await ctx.api().post(inventoriesOf(rp), body, { version: '1.25' })).status, 400);
    assert.equal((await ctx.api().post(inventoriesOf(rp), body, { version: '1.26' })).status, 201);
  });

  it('PUT one inventory: generation required and checked, record must exist', async () => {
    const rp = await newProvider();
    await ctx.api().post(inventoriesOf(rp), { resource_class: 'DISK_GB', total: 2048 });
    const url = `${inventoriesOf(rp)}/DISK_GB`;
    const updated = await ctx.api().put(url, {
      resource_provider_generation: 1,
      total: 2048,
      reserved: 1024,
      min_unit: 10,
      max_unit: 1024,
      step_size: 10,
      allocation_ratio: 1.5,
    });
    assert.equal(updated.status, 200);
    assert.deepEqual(updated.body, {
      total: 2048,
      reserved: 1024,
      min_unit: 10,
      max_unit: 1024,
      step_size: 10,
      allocation_ratio: 1.5,
      resource_provider_generation: 2,
    });
    const shown = await ctx.api().get(url);
    assert.equal(shown.body.resource_provider_generation, 2);
    assert.equal(shown.body.allocation_ratio, 1.5);

    const stale = await ctx
      .api()
      .put(url, { resource_provider_generation: 5, total: 2048 }, { version: '1.23' });
    assert.equal(stale.status, 409);
    assert.match(stale.body.errors[0].detail, /resource provider generation conflict/);
    assert.equal(stale.body.errors[0].code, 'placement.concurrent_update');

    const noGeneration = await ctx.api().put(url, { total: 2048 });
    assert.equal(noGeneration.status, 400);
    assert.match(
      noGeneration.body.errors[0].detail,
      /'resource_provider_generation' is a required/,
    );

    const noRecord = await ctx
      .api()
      .put(`${inventoriesOf(rp)}/MEMORY_MB`, { resource_provider_generation: 2, total: 2048 });
    assert.equal(noRecord.status, 400);
    assert.match(
      noRecord.body.errors[0].detail,
      new RegExp(
        `No inventory record with resource class for resource provider ${rp.uuid}: No inventory of class MEMORY_MB found.`,
      ),
    );

    const badCapacity = await ctx
      .api()
      .put(url, { resource_provider_generation: 2, total: 2048, reserved: 4096 });
    assert.equal(badCapacity.status, 400);
    assert.match(
      badCapacity.body.errors[0].detail,
      new RegExp(`Unable to update inventory for resource provider ${rp.uuid}`),
    );

    const unknownClass = await ctx
      .api()
      .put(`${inventoriesOf(rp)}/HOUSE`, { resource_provider_generation: 2, total: 10 });
    assert.equal(unknownClass.status, 404);
    assert.match(unknownClass.body.errors[0].detail, /No such resource class HOUSE\./);

    const after = await ctx.api().get(inventoriesOf(rp));
    assert.equal(after.body.resource_provider_generation, 2);
  });

  it('GET one inventory: 404 for a class without inventory or an unknown class', async () => {
    const rp = await newProvider();
    for (const name of ['IPV4_ADDRESS', 'HOUSE']) {
      const response = await ctx.api().get(`${inventoriesOf(rp)}/${name}`);
      assert.equal(response.status, 404);
      assert.match(
        response.body.errors[0].detail,
        new RegExp(`No inventory of class ${name} for ${rp.uuid}`),
      );
    }
    const missing = uuid();
    const noProvider = await ctx.api().get(`/resource_providers/${missing}/inventories/VCPU`);
    assert.equal(noProvider.status, 404);
    assert.match(noProvider.body.errors[0].detail, /No resource provider with uuid .* found : /);
  });

  it('DELETE one inventory: 204 without content-type, then 404; generation bumped', async () => {
    const rp = await newProvider();
    await ctx.api().post(inventoriesOf(rp), { resource_class: 'IPV4_ADDRESS', total: 255 });
    const url = `${inventoriesOf(rp)}/IPV4_ADDRESS`;
    const deleted = await ctx.api().delete(url);
    assert.equal(deleted.status, 204);
    assert.equal(deleted.headers['content-type'], undefined);
    assert.equal(deleted.text, '');
    const listed = await ctx.api().get(inventoriesOf(rp));
    assert.deepEqual(listed.body, { resource_provider_generation: 2, inventories: {} });
    const again = await ctx.api().delete(url);
    assert.equal(again.status, 404);
    assert.match(
      again.body.errors[0].detail,
      /No inventory of class IPV4_ADDRESS found for delete: No inventory of class IPV4_ADDRESS found for delete/,
    );
    const unknown = await ctx.api().delete(`${inventoriesOf(rp)}/HOUSE`);
    assert.equal(unknown.status, 404);
    assert.match(
      unknown.body.errors[0].detail,
      /No inventory of class HOUSE found for delete: No such resource class HOUSE\./,
    );
    const noProvider = await ctx.api().delete(`/resource_providers/${uuid()}/inventories/VCPU`);
    assert.equal(noProvider.status, 404);
  });

  it('DELETE one inventory in use: 409 with the concurrent-update code, as the real one', async () => {
    const rp = await newProvider();
    await ctx.api().post(inventoriesOf(rp), { resource_class: 'VCPU', total: 8 });
    await insertConsumer(ctx.placementDb(), {
      project: 'p1',
      user: 'u1',
      allocations: [{ provider: rp, resources: { VCPU: 2 } }],
    });
    const response = await ctx.api().delete(`${inventoriesOf(rp)}/VCPU`, { version: '1.23' });
    assert.equal(response.status, 409);
    assert.equal(response.body.errors[0].code, 'placement.concurrent_update');
    assert.match(
      response.body.errors[0].detail,
      new RegExp(
        `Unable to delete inventory of class VCPU: Inventory for 'VCPU' on resource provider '${rp.uuid}' in use.`,
      ),
    );
    const listed = await ctx.api().get(inventoriesOf(rp));
    assert.equal(listed.body.resource_provider_generation, 1);
    assert.equal(listed.body.inventories.VCPU.total, 8);
  });

  it('PUT all inventories replaces the set, with defaults, in one generation', async () => {
    const rp = await newProvider();
    await ctx.api().post(inventoriesOf(rp), { resource_class: 'DISK_GB', total: 10 });
    const response = await ctx.api().put(inventoriesOf(rp), {
      resource_provider_generation: 1,
      inventories: {
        MEMORY_MB: { total: 128, max_unit: 16, step_size: 4, allocation_ratio: 2.0 },
        VCPU: { total: 64, reserved: 2, allocation_ratio: 10.0 },
      },
    });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, {
      resource_provider_generation: 2,
      inventories: {
        MEMORY_MB: {
          total: 128,
          reserved: 0,
          min_unit: 1,
          max_unit: 16,
          step_size: 4,
          allocation_ratio: 2,
        },
        VCPU: {
          total: 64,
          reserved: 2,
          min_unit: 1,
          max_unit: MAX_INT,
          step_size: 1,
          allocation_ratio: 10,
        },
      },
    });
    const listed = await ctx.api().get(inventoriesOf(rp));
    assert.deepEqual(listed.body, response.body);
    // Updating existing records and a generation in a record (tolerated, ignored).
    const again = await ctx.api().put(
      inventoriesOf(rp),
      {
        resource_provider_generation: 2,
        inventories: { VCPU: { total: 32, resource_provider_generation: 99 } },
      },
      { version: '1.15' },
    );
    assert.equal(again.status, 200);
    assert.equal(again.body.resource_provider_generation, 3);
    assert.deepEqual(Object.keys(again.body.inventories), ['VCPU']);
    assert.equal(again.body.inventories.VCPU.total, 32);
    assert.equal(again.headers['cache-control'], 'no-cache');
    assert.ok(again.headers['last-modified']);
  });

  it('PUT all inventories: generation, unknown class, capacity and schema errors', async () => {
    const rp = await newProvider();
    const stale = await ctx
      .api()
      .put(
        inventoriesOf(rp),
        { resource_provider_generation: 99, inventories: { VCPU: { total: 1 } } },
        { version: '1.23' },
      );
    assert.equal(stale.status, 409);
    assert.match(stale.body.errors[0].detail, /resource provider generation conflict/);
    assert.equal(stale.body.errors[0].code, 'placement.concurrent_update');

    const unknown = await ctx.api().put(inventoriesOf(rp), {
      resource_provider_generation: 0,
      inventories: { HOUSE: { total: 253 } },
    });
    assert.equal(unknown.status, 400);
    assert.match(
      unknown.body.errors[0].detail,
      new RegExp(
        `Unknown resource class in inventory for resource provider ${rp.uuid}: No such resource class HOUSE\\.`,
      ),
    );

    const capacity = await ctx.api().put(inventoriesOf(rp), {
      resource_provider_generation: 0,
      inventories: { IPV4_ADDRESS: { total: 253, reserved: 512 } },
    });
    assert.equal(capacity.status, 400);
    assert.match(
      capacity.body.errors[0].detail,
      new RegExp(`Unable to update inventory for resource provider ${rp.uuid}: Invalid inventory`),
    );

    const tooBig = await ctx.api().put(inventoriesOf(rp), {
      resource_provider_generation: 0,
      inventories: { DISK_GB: { total: MAX_INT + 1 } },
    });
    assert.equal(tooBig.status, 400);
    assert.match(tooBig.body.errors[0].detail, /greater than the maximum of 2147483647/);

    const noInventories = await ctx
      .api()
      .put(inventoriesOf(rp), { resource_provider_generation: 0 });
    assert.equal(noInventories.status, 400);
    assert.match(noInventories.body.errors[0].detail, /'inventories' is a required property/);

    const oddKey = await ctx.api().put(inventoriesOf(rp), {
      resource_provider_generation: 0,
      inventories: { vcpu: 5 },
    });
    assert.equal(oddKey.status, 400);

    const lowerCase = await ctx.api().put(inventoriesOf(rp), {
      resource_provider_generation: 0,
      inventories: { vcpu: { total: 5 } },
    });
    assert.equal(lowerCase.status, 400);
    assert.match(lowerCase.body.errors[0].detail, /Unknown resource class in inventory/);

    const listed = await ctx.api().get(inventoriesOf(rp));
    assert.equal(listed.body.resource_provider_generation, 0);
  });

  it('PUT all inventories: removing an allocated class is 409 placement.inventory.inuse', async () => {
    const rp = await newProvider();
    await ctx.api().put(inventoriesOf(rp), {
      resource_provider_generation: 0,
      inventories: { VCPU: { total: 8 }, DISK_GB: { total: 100 }, MEMORY_MB: { total: 1024 } },
    });
    await insertConsumer(ctx.placementDb(), {
      project: 'p1',
      user: 'u1',
      allocations: [{ provider: rp, resources: { VCPU: 4, DISK_GB: 50 } }],
    });
    const removing = await ctx
      .api()
      .put(
        inventoriesOf(rp),
        { resource_provider_generation: 1, inventories: { MEMORY_MB: { total: 1024 } } },
        { version: '1.23' },
      );
    assert.equal(removing.status, 409);
    assert.equal(removing.body.errors[0].code, 'placement.inventory.inuse');
    assert.match(
      removing.body.errors[0].detail,
      new RegExp(
        `update conflict: Inventory for 'VCPU, DISK_GB' on resource provider '${rp.uuid}' in use\\.`,
      ),
    );
    // Shrinking below the usage is allowed (the real service only logs a warning).
    const shrinking = await ctx.api().put(inventoriesOf(rp), {
      resource_provider_generation: 1,
      inventories: { VCPU: { total: 2 }, DISK_GB: { total: 100 } },
    });
    assert.equal(shrinking.status, 200);
    assert.equal(shrinking.body.resource_provider_generation, 2);
  });

  it('DELETE all inventories: 405 before 1.5, 404 for a missing provider', async () => {
    const rp = await newProvider();
    const old = await ctx.api().delete(inventoriesOf(rp), { version: '1.4' });
    assert.equal(old.status, 405);
    assert.equal(old.headers.allow, undefined);
    assert.equal(old.body.errors[0].title, 'Method Not Allowed');
    const missing = await ctx
      .api()
      .delete(`/resource_providers/${uuid()}/inventories`, { version: '1.5' });
    assert.equal(missing.status, 404);
    assert.match(missing.body.errors[0].detail, /No resource provider with uuid .* found/);
  });

  it('DELETE all inventories: 204, bumps the generation even when there was none', async () => {
    const rp = await newProvider();
    await ctx.api().put(inventoriesOf(rp), {
      resource_provider_generation: 0,
      inventories: { VCPU: { total: 8 }, DISK_GB: { total: 100 } },
    });
    const deleted = await ctx.api().delete(inventoriesOf(rp), { version: '1.5' });
    assert.equal(deleted.status, 204);
    assert.equal(deleted.headers['content-type'], undefined);
    const listed = await ctx.api().get(inventoriesOf(rp));
    assert.deepEqual(listed.body, { resource_provider_generation: 2, inventories: {} });
    assert.equal((await ctx.api().delete(inventoriesOf(rp), { version: '1.5' })).status, 204);
    const again = await ctx.api().get(inventoriesOf(rp));
    assert.equal(again.body.resource_provider_generation, 3);
  });

  it('DELETE all inventories in use: 409 placement.inventory.inuse, nothing removed', async () => {
    const rp = await newProvider();
    await ctx.api().put(inventoriesOf(rp), {
      resource_provider_generation: 0,
      inventories: { VCPU: { total: 8 }, DISK_GB: { total: 100 } },
    });
    await insertConsumer(ctx.placementDb(), {
      project: 'p1',
      user: 'u1',
      allocations: [{ provider: rp, resources: { DISK_GB: 5 } }],
    });
    const response = await ctx.api().delete(inventoriesOf(rp), { version: 'latest' });
    assert.equal(response.status, 409);
    assert.equal(response.body.errors[0].code, 'placement.inventory.inuse');
    assert.match(
      response.body.errors[0].detail,
      new RegExp(`Inventory for 'DISK_GB' on resource provider '${rp.uuid}' in use\\.`),
    );
    const listed = await ctx.api().get(inventoriesOf(rp));
    assert.equal(listed.body.resource_provider_generation, 1);
    assert.deepEqual(Object.keys(listed.body.inventories).sort(), ['DISK_GB', 'VCPU']);
  });

  it('concurrent writers with the same generation: one wins, the others get 409', async () => {
    const rp = await newProvider();
    const writes = ['VCPU', 'DISK_GB', 'MEMORY_MB', 'IPV4_ADDRESS'].map((name) =>
      ctx
        .api()
        .put(
          inventoriesOf(rp),
          { resource_provider_generation: 0, inventories: { [name]: { total: 4 } } },
          { version: '1.23' },
        ),
    );
    const responses = await Promise.all(writes);
    const statuses = responses.map((response) => response.status).sort();
    assert.deepEqual(statuses, [200, 409, 409, 409]);
    for (const response of responses.filter((r) => r.status === 409)) {
      assert.equal(response.body.errors[0].code, 'placement.concurrent_update');
    }
    const listed = await ctx.api().get(inventoriesOf(rp));
    assert.equal(listed.body.resource_provider_generation, 1);
    assert.equal(Object.keys(listed.body.inventories).length, 1);
  });

  it('405 with Allow for other methods', async () => {
    const rp = await newProvider();
    const all = await ctx.api().request('PATCH', inventoriesOf(rp));
    assert.equal(all.status, 405);
    assert.equal(all.headers.allow, 'GET, POST, PUT, DELETE');
    const one = await ctx.api().request('POST', `${inventoriesOf(rp)}/VCPU`, {});
    assert.equal(one.status, 405);
    assert.equal(one.headers.allow, 'GET, PUT, DELETE');
  });

  it('415 for a non-JSON body before the provider is looked up; 406 for GET', async () => {
    const url = `/resource_providers/${uuid()}/inventories`;
    const response = await ctx.api().request('POST', url, 'total=1', {
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(response.status, 415);
    const put = await ctx.api().request('PUT', `${url}/VCPU`, 'total=1', {
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(put.status, 415);
    const notAcceptable = await ctx.api().get(url, { headers: { accept: 'text/plain' } });
    assert.equal(notAcceptable.status, 406);
  });

  it('each route checks its policy rule (403 for a caller without the admin role)', async () => {
    const rp = await newProvider();
    const token = 'someone';
    const url = inventoriesOf(rp);
    const calls = [
      ctx.api().get(url, { token }),
      ctx.api().post(url, { resource_class: 'VCPU', total: 1 }, { token }),
      ctx.api().put(url, { resource_provider_generation: 0, inventories: {} }, { token }),
      ctx.api().delete(url, { token, version: '1.5' }),
      ctx.api().get(`${url}/VCPU`, { token }),
      ctx.api().put(`${url}/VCPU`, { resource_provider_generation: 0, total: 1 }, { token }),
      ctx.api().delete(`${url}/VCPU`, { token }),
    ];
    const rules = ['list', 'create', 'update', 'delete', 'show', 'update', 'delete'];
    const responses = await Promise.all(calls);
    responses.forEach((response, index) => {
      assert.equal(response.status, 403);
      assert.match(
        response.body.errors[0].detail,
        new RegExp(`placement:resource_providers:inventories:${rules[index]}`),
      );
    });
  });
});
