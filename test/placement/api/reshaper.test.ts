/**
 * POST /reshaper: moving inventory and allocations from a provider to its new child in one
 * transaction, the checks before it (schema, providers, generations) and failures part-way
 * through that leave everything as it was, on the three backends.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { Scenario } from '../support/candidate-fixtures.ts';
import { withRuleDenied } from '../support/direct-rows.ts';
import { forEachPlacementBackend, uuid } from '../support/placement-api.ts';

forEachPlacementBackend('reshaper', (ctx) => {
  const s = new Scenario(ctx);
  const project = uuid();
  const user = uuid();
  const c0 = uuid();
  const c1 = uuid();
  const c2 = uuid();
  const put = (consumer: string, allocations: Record<string, Record<string, number>>) =>
    ctx.api().put(
      `/allocations/${consumer}`,
      {
        allocations: Object.fromEntries(
          Object.entries(allocations).map(([name, resources]) => [
            s.uuid(name),
            {
              resources: Object.fromEntries(Object.entries(resources).map(([c, n]) => [s.n(c), n])),
            },
          ]),
        ),
        project_id: project,
        user_id: user,
        consumer_generation: null,
      },
      { version: '1.28' },
    );
  const generation = async (name: string) =>
    (await ctx.api().get(`/resource_providers/${s.uuid(name)}`, { version: '1.14' })).body
      .generation as number;
  const usages = async (name: string) =>
    (await ctx.api().get(`/resource_providers/${s.uuid(name)}/usages`)).body.usages;
  const inventoryClasses = async (name: string) =>
    Object.keys(
      (await ctx.api().get(`/resource_providers/${s.uuid(name)}/inventories`)).body.inventories,
    ).sort();

  /** The reshape of the reference's gabbit: CPU moves from cn to its child. */
  const moveBody = async (
    overrides: { cnDiskMax?: number; extra?: Record<string, unknown> } = {},
  ) => ({
    inventories: {
      [s.uuid('cn')]: {
        resource_provider_generation: await generation('cn'),
        inventories: {
          [s.n('DISK')]: {
            total: 2048,
            step_size: 10,
            min_unit: 10,
            max_unit: overrides.cnDiskMax ?? 1200,
          },
        },
      },
      [s.uuid('child')]: {
        resource_provider_generation: await generation('child'),
        inventories: { [s.n('CPU')]: { total: 10, max_unit: 8 } },
      },
    },
    allocations: {
      [c0]: {
        allocations: { [s.uuid('cn')]: { resources: { [s.n('DISK')]: 1000 } } },
        project_id: project,
        user_id: user,
        consumer_generation: 1,
      },
      [c1]: {
        allocations: { [s.uuid('child')]: { resources: { [s.n('CPU')]: 8 } } },
        project_id: project,
        user_id: user,
        consumer_generation: 1,
      },
      [c2]: {
        allocations: {
          [s.uuid('cn')]: { resources: { [s.n('DISK')]: 20 } },
          [s.uuid('child')]: { resources: { [s.n('CPU')]: 1 } },
        },
        project_id: project,
        user_id: user,
        consumer_generation: 1,
      },
      ...overrides.extra,
    },
  });

  before(async () => {
    await s.classes('CPU', 'DISK');
    await s.provider('cn', {
      inventory: { CPU: 10, DISK: { total: 2048, step_size: 10, min_unit: 10, max_unit: 1200 } },
    });
    for (const [consumer, allocations] of [
      [c0, { cn: { DISK: 1000 } }],
      [c1, { cn: { CPU: 8 } }],
      [c2, { cn: { DISK: 20, CPU: 1 } }],
    ] as const) {
      assert.equal((await put(consumer, allocations)).status, 204);
    }
    await s.provider('child', { parent: 'cn' });
  });

  describe('refusals before any write', () => {
    it('is POST only, from 1.30, under its policy rule, JSON only', async () => {
      assert.equal((await ctx.api().get('/reshaper', { version: '1.30' })).status, 405);
      assert.equal((await ctx.api().post('/reshaper', {}, { version: '1.29' })).status, 404);
      const denied = await withRuleDenied(ctx, 'placement:reshaper:reshape', () =>
        ctx.api().post('/reshaper', {}, { version: '1.30' }),
      );
      assert.equal(denied.status, 403);
      const text = await ctx.api().request('POST', '/reshaper', 'x', {
        version: '1.30',
        headers: { 'content-type': 'text/plain' },
      });
      assert.equal(text.status, 415);
    });

    it('validates the body per microversion', async () => {
      let response = await ctx.api().post('/reshaper', { cows: 'moo' }, { version: '1.30' });
      assert.equal(response.status, 400);
      assert.match(response.body.errors[0].detail, /JSON does not validate/);
      const body = await moveBody();
      response = await ctx
        .api()
        .post('/reshaper', { inventories: body.inventories }, { version: '1.30' });
      assert.equal(response.status, 400);
      assert.match(response.body.errors[0].detail, /'allocations' is a required property/);
      // consumer_type is required from 1.38.
      response = await ctx.api().post('/reshaper', body, { version: '1.38' });
      assert.equal(response.status, 400);
      assert.match(response.body.errors[0].detail, /'consumer_type' is a required property/);
    });

    it('refuses an unknown provider and a stale provider generation', async () => {
      const body = await moveBody();
      const missing = uuid();
      let response = await ctx.api().post(
        '/reshaper',
        {
          ...body,
          inventories: {
            ...body.inventories,
            [missing]: { resource_provider_generation: 0, inventories: {} },
          },
        },
        { version: '1.30' },
      );
      assert.equal(response.status, 400);
      assert.equal(response.body.errors[0].code, 'placement.resource_provider.not_found');
      assert.match(
        response.body.errors[0].detail,
        new RegExp(
          `Resource provider ${missing} in inventories not found: No resource provider with uuid ${missing} found`,
        ),
      );
      const gen = await generation('cn');
      const stale = structuredClone(body);
      (
        stale.inventories[s.uuid('cn')] as { resource_provider_generation: number }
      ).resource_provider_generation = gen - 1;
      response = await ctx.api().post('/reshaper', stale, { version: '1.30' });
      assert.equal(response.status, 409);
      assert.equal(response.body.errors[0].code, 'placement.concurrent_update');
      assert.match(
        response.body.errors[0].detail,
        new RegExp(
          `resource provider generation conflict for provider ${s.uuid('cn')}: actual: ${gen}, given: ${gen - 1}`,
        ),
      );
    });
  });

  describe('failures part-way leave nothing changed', () => {
    const snapshot = async () => ({
      cnGeneration: await generation('cn'),
      childGeneration: await generation('child'),
      cnUsages: await usages('cn'),
      childUsages: await usages('child'),
      cnClasses: await inventoryClasses('cn'),
      childClasses: await inventoryClasses('child'),
      c1: (await ctx.api().get(`/allocations/${c1}`, { version: '1.28' })).body,
    });
    const newConsumer = uuid();
    const extra = () => ({
      [newConsumer]: {
        allocations: { [s.uuid('child')]: { resources: { [s.n('CPU')]: 1 } } },
        project_id: project,
        user_id: user,
        consumer_generation: null,
      },
    });
    const assertNothingChanged = async (before: Awaited<ReturnType<typeof snapshot>>) => {
      assert.deepEqual(await snapshot(), before);
      const created = await ctx.api().get(`/allocations/${newConsumer}`, { version: '1.28' });
      assert.deepEqual(created.body, { allocations: {} });
    };

    it('rolls back when an allocation breaks the new inventory (after the interim write)', async () => {
      const before = await snapshot();
      const response = await ctx
        .api()
        .post('/reshaper', await moveBody({ cnDiskMax: 600, extra: extra() }), { version: '1.30' });
      assert.equal(response.status, 409);
      assert.match(response.body.errors[0].detail, /Unable to allocate inventory/);
      await assertNothingChanged(before);
    });

    it('rolls back when the final inventory drops a class still allocated', async () => {
      const before = await snapshot();
      const body = await moveBody({ extra: extra() });
      // c1 keeps its CPU on cn, whose final inventory has no CPU.
      (body.allocations as Record<string, unknown>)[c1] = {
        allocations: { [s.uuid('cn')]: { resources: { [s.n('CPU')]: 8 } } },
        project_id: project,
        user_id: user,
        consumer_generation: 1,
      };
      const response = await ctx.api().post('/reshaper', body, { version: '1.30' });
      assert.equal(response.status, 409);
      assert.equal(response.body.errors[0].code, 'placement.inventory.inuse');
      assert.match(
        response.body.errors[0].detail,
        new RegExp(
          `update conflict: Inventory for '${s.n('CPU')}' on resource provider '${s.uuid('cn')}' in use\\.`,
        ),
      );
      await assertNothingChanged(before);
    });

    it('rolls back on a consumer generation conflict and on unknown classes', async () => {
      const before = await snapshot();
      const body = await moveBody({ extra: extra() });
      (body.allocations[c2] as { consumer_generation: number }).consumer_generation = 7;
      let response = await ctx.api().post('/reshaper', body, { version: '1.30' });
      assert.equal(response.status, 409);
      assert.match(response.body.errors[0].detail, /consumer generation conflict/);
      const badClass = await moveBody({ extra: extra() });
      (badClass.inventories[s.uuid('cn')] as { inventories: Record<string, unknown> }).inventories =
        {
          DISK_OF_STEEL: { total: 2048 },
        };
      response = await ctx.api().post('/reshaper', badClass, { version: '1.30' });
      assert.equal(response.status, 400);
      assert.match(
        response.body.errors[0].detail,
        /malformed reshaper data: No such resource class DISK_OF_STEEL\./,
      );
      await assertNothingChanged(before);
    });
  });

  describe('a successful reshape', () => {
    it('moves inventory and allocations, bumping generations as the reference does', async () => {
      const cnBefore = await generation('cn');
      const response = await ctx.api().post('/reshaper', await moveBody(), { version: '1.30' });
      assert.equal(response.status, 204);
      assert.equal(response.text, '');
      assert.deepEqual(await usages('cn'), { [s.n('DISK')]: 1020 });
      assert.deepEqual(await usages('child'), { [s.n('CPU')]: 9 });
      assert.deepEqual(await inventoryClasses('cn'), [s.n('DISK')]);
      assert.equal(await generation('cn'), cnBefore + 3);
      assert.equal(await generation('child'), 3);
      const c2Now = await ctx.api().get(`/allocations/${c2}`, { version: '1.28' });
      assert.equal(c2Now.body.consumer_generation, 2);
    });

    it('sets consumer types from 1.38', async () => {
      const body = {
        inventories: {
          [s.uuid('child')]: {
            resource_provider_generation: await generation('child'),
            inventories: { [s.n('CPU')]: { total: 12, max_unit: 8 } },
          },
        },
        allocations: {
          [c1]: {
            allocations: { [s.uuid('child')]: { resources: { [s.n('CPU')]: 4 } } },
            project_id: project,
            user_id: user,
            consumer_generation: 2,
            consumer_type: 'INSTANCE',
          },
        },
      };
      const response = await ctx.api().post('/reshaper', body, { version: '1.38' });
      assert.equal(response.status, 204);
      const c1Now = await ctx.api().get(`/allocations/${c1}`, { version: '1.38' });
      assert.equal(c1Now.body.consumer_type, 'INSTANCE');
      assert.equal(c1Now.body.consumer_generation, 3);
      assert.deepEqual(await usages('child'), { [s.n('CPU')]: 5 });
    });
  });
});
