import assert from 'node:assert/strict';
import { it } from 'node:test';
import { insertProvider, withRuleDenied } from '../support/direct-rows.ts';
import { forEachPlacementBackend, uuid } from '../support/placement-api.ts';

const GMT_DATE = /^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

forEachPlacementBackend('placement /resource_providers/{uuid}/traits', (ctx) => {
  const api = () => ctx.api();
  const v = { version: '1.6' };
  const url = (provider: string) => `/resource_providers/${provider}/traits`;
  const generationOf = async (provider: string) => {
    const row = await ctx
      .placementDb()
      .kysely.selectFrom('resource_providers')
      .select('generation')
      .where('uuid', '=', provider)
      .executeTakeFirstOrThrow();
    return Number(row.generation);
  };

  it('answers 404 below 1.6 on every method', async () => {
    const { uuid: provider } = await insertProvider(ctx);
    const old = { version: '1.5' };
    for (const response of [
      await api().get(url(provider), old),
      await api().put(url(provider), { traits: [], resource_provider_generation: 0 }, old),
      await api().delete(url(provider), old),
    ]) {
      assert.equal(response.status, 404);
    }
  });

  it('GET lists no traits and the generation of a new provider', async () => {
    const { uuid: provider } = await insertProvider(ctx);
    const response = await api().get(url(provider), v);
    assert.equal(response.status, 200);
    assert.equal(response.headers['content-type'], 'application/json');
    assert.deepEqual(response.body, { traits: [], resource_provider_generation: 0 });
    assert.equal(response.headers['cache-control'], undefined);
    assert.equal(response.headers['last-modified'], undefined);
    const refused = await api().get(url(provider), { ...v, headers: { accept: 'text/plain' } });
    assert.equal(refused.status, 406);
  });

  it('PUT replaces the set and bumps the generation; GET shows it', async () => {
    await api().put('/traits/CUSTOM_RPT_1', undefined, v);
    await api().put('/traits/CUSTOM_RPT_2', undefined, v);
    const { uuid: provider } = await insertProvider(ctx);
    const set = await api().put(
      url(provider),
      { traits: ['CUSTOM_RPT_1', 'CUSTOM_RPT_2'], resource_provider_generation: 0 },
      v,
    );
    assert.equal(set.status, 200);
    assert.equal(set.headers['content-type'], 'application/json');
    assert.equal(set.body.resource_provider_generation, 1);
    assert.deepEqual([...set.body.traits].sort(), ['CUSTOM_RPT_1', 'CUSTOM_RPT_2']);
    assert.equal(set.headers['last-modified'], undefined);
    assert.equal(await generationOf(provider), 1);

    const shown = await api().get(url(provider), v);
    assert.equal(shown.body.resource_provider_generation, 1);
    assert.deepEqual([...shown.body.traits].sort(), ['CUSTOM_RPT_1', 'CUSTOM_RPT_2']);

    const swapped = await api().put(
      url(provider),
      {
        traits: ['CUSTOM_RPT_2', 'HW_CPU_X86_SSE', 'HW_CPU_X86_SSE'],
        resource_provider_generation: 1,
      },
      v,
    );
    assert.equal(swapped.status, 200);
    assert.equal(swapped.body.resource_provider_generation, 2);
    assert.deepEqual([...swapped.body.traits].sort(), ['CUSTOM_RPT_2', 'HW_CPU_X86_SSE']);
    const after = await api().get(url(provider), v);
    assert.deepEqual([...after.body.traits].sort(), ['CUSTOM_RPT_2', 'HW_CPU_X86_SSE']);
  });

  it('PUT of the same set leaves the generation alone, as the real service', async () => {
    await api().put('/traits/CUSTOM_SAME', undefined, v);
    const { uuid: provider } = await insertProvider(ctx);
    const body = { traits: ['CUSTOM_SAME'], resource_provider_generation: 0 };
    assert.equal((await api().put(url(provider), body, v)).body.resource_provider_generation, 1);
    const same = await api().put(
      url(provider),
      { traits: ['CUSTOM_SAME'], resource_provider_generation: 1 },
      v,
    );
    assert.equal(same.status, 200);
    assert.equal(same.body.resource_provider_generation, 1);
    assert.equal(await generationOf(provider), 1);
  });

  it('PUT: 409 concurrent_update on a stale generation, before unknown traits', async () => {
    const { uuid: provider } = await insertProvider(ctx);
    const response = await api().put(
      url(provider),
      { traits: ['NON_EXISTED_TRAIT'], resource_provider_generation: 5 },
      { version: '1.23' },
    );
    assert.equal(response.status, 409);
    const [error] = response.body.errors;
    assert.equal(error.code, 'placement.concurrent_update');
    assert.match(
      error.detail,
      /Resource provider's generation already changed\. Please update the generation and try again\./,
    );
    assert.equal(await generationOf(provider), 0);
  });

  it('PUT: 400 naming every unknown trait, nothing changed', async () => {
    await api().put('/traits/CUSTOM_KNOWN', undefined, v);
    const { uuid: provider } = await insertProvider(ctx);
    const response = await api().put(
      url(provider),
      {
        traits: ['NON_EXISTED_TRAIT1', 'NON_EXISTED_TRAIT2', 'CUSTOM_KNOWN'],
        resource_provider_generation: 0,
      },
      v,
    );
    assert.equal(response.status, 400);
    const { detail } = response.body.errors[0];
    assert.match(detail, /No such trait /);
    assert.match(detail, /NON_EXISTED_TRAIT1/);
    assert.match(detail, /NON_EXISTED_TRAIT2/);
    assert.doesNotMatch(detail, /CUSTOM_KNOWN/);
    assert.equal(await generationOf(provider), 0);
    assert.deepEqual((await api().get(url(provider), v)).body.traits, []);
  });

  it('PUT refuses bodies the schema refuses, and needs JSON', async () => {
    const { uuid: provider } = await insertProvider(ctx);
    const cases: [unknown, RegExp][] = [
      [{ traits: ['CUSTOM_A'] }, /'resource_provider_generation' is a required property/],
      [{ resource_provider_generation: 0 }, /'traits' is a required property/],
      [
        { traits: ['CUSTOM_A'], resource_provider_generation: 'invalid_generation' },
        /'invalid_generation' is not of type 'integer'/,
      ],
      [
        { traits: 'invalid_type', resource_provider_generation: 0 },
        /'invalid_type' is not of type 'array'/,
      ],
      [{ traits: [''], resource_provider_generation: 0 }, /'' is too short/],
      [
        { traits: [], resource_provider_generation: 0, additional: 'additional' },
        /Additional properties are not allowed/,
      ],
    ];
    for (const [body, message] of cases) {
      const response = await api().put(url(provider), body, v);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.match(response.body.errors[0].detail, /JSON does not validate/);
      assert.match(response.body.errors[0].detail, message);
    }
    const noType = await api().request('PUT', url(provider), undefined, v);
    assert.equal(noType.status, 415);
  });

  it('404 with the real messages for an unknown provider', async () => {
    const missing = uuid();
    const shown = await api().get(url(missing), v);
    assert.equal(shown.status, 404);
    assert.match(
      shown.body.errors[0].detail,
      new RegExp(
        `No resource provider with uuid ${missing} found: No resource provider with uuid ${missing} found`,
      ),
    );
    for (const response of [
      await api().put(url('non_existed'), { traits: [], resource_provider_generation: 1 }, v),
      await api().delete(url('non_existed'), v),
    ]) {
      assert.equal(response.status, 404);
      assert.match(
        response.body.errors[0].detail,
        /No resource provider with uuid non_existed found/,
      );
    }
  });

  it('DELETE clears the traits and bumps the generation (204), untouched when empty', async () => {
    await api().put('/traits/CUSTOM_CLEARED', undefined, v);
    const { uuid: provider } = await insertProvider(ctx);
    await api().put(
      url(provider),
      { traits: ['CUSTOM_CLEARED', 'HW_CPU_X86_AVX'], resource_provider_generation: 0 },
      v,
    );
    const cleared = await api().delete(url(provider), v);
    assert.equal(cleared.status, 204);
    assert.equal(cleared.text, '');
    assert.equal(cleared.headers['content-type'], undefined);
    assert.deepEqual((await api().get(url(provider), v)).body, {
      traits: [],
      resource_provider_generation: 2,
    });
    const again = await api().delete(url(provider), v);
    assert.equal(again.status, 204);
    assert.equal(await generationOf(provider), 2);
    // The trait is free again.
    assert.equal((await api().delete('/traits/CUSTOM_CLEARED', v)).status, 204);
  });

  it('cache headers from 1.15 on GET and PUT', async () => {
    const { uuid: provider } = await insertProvider(ctx);
    const old = await api().put(
      url(provider),
      { traits: ['HW_CPU_X86_SSE'], resource_provider_generation: 0 },
      { version: '1.14' },
    );
    assert.equal(old.status, 200);
    assert.equal(old.headers['last-modified'], undefined);
    assert.equal(
      (await api().get(url(provider), { version: '1.14' })).headers['cache-control'],
      undefined,
    );
    for (const response of [
      await api().get(url(provider), { version: '1.15' }),
      await api().put(
        url(provider),
        { traits: ['HW_CPU_X86_SSE', 'HW_CPU_X86_AVX'], resource_provider_generation: 1 },
        { version: '1.15' },
      ),
    ]) {
      assert.equal(response.status, 200);
      assert.equal(response.headers['cache-control'], 'no-cache');
      assert.match(String(response.headers['last-modified']), GMT_DATE);
    }
    const cleared = await api().delete(url(provider), { version: '1.15' });
    assert.equal(cleared.headers['last-modified'], undefined);
    const empty = await api().get(url(provider), { version: '1.15' });
    assert.match(String(empty.headers['last-modified']), GMT_DATE);
  });

  it('concurrent PUTs with the same generation: one wins, the other gets 409', async () => {
    await api().put('/traits/CUSTOM_RACE_A', undefined, v);
    await api().put('/traits/CUSTOM_RACE_B', undefined, v);
    const { uuid: provider } = await insertProvider(ctx);
    const results = await Promise.all(
      ['CUSTOM_RACE_A', 'CUSTOM_RACE_B', 'HW_CPU_X86_SSE', 'HW_CPU_X86_AVX'].map((trait) =>
        api().put(
          url(provider),
          { traits: [trait], resource_provider_generation: 0 },
          {
            version: '1.23',
          },
        ),
      ),
    );
    const won = results.filter((r) => r.status === 200);
    const lost = results.filter((r) => r.status === 409);
    assert.equal(won.length, 1);
    assert.equal(lost.length, 3);
    for (const r of lost) assert.equal(r.body.errors[0].code, 'placement.concurrent_update');
    assert.equal(await generationOf(provider), 1);
    const shown = await api().get(url(provider), v);
    assert.deepEqual(shown.body.traits, won[0]?.body.traits);
  });

  it('405 with Allow for other methods', async () => {
    const response = await api().request('POST', url(uuid()), {}, v);
    assert.equal(response.status, 405);
    assert.equal(response.headers.allow, 'GET, PUT, DELETE');
  });

  it('checks each endpoint against its own policy rule', async () => {
    const { uuid: provider } = await insertProvider(ctx);
    const cases: [string, () => ReturnType<ReturnType<typeof api>['get']>][] = [
      ['placement:resource_providers:traits:list', () => api().get(url(provider), v)],
      [
        'placement:resource_providers:traits:update',
        () =>
          api().put(
            url(provider),
            { traits: ['HW_CPU_X86_SSE'], resource_provider_generation: 0 },
            v,
          ),
      ],
      ['placement:resource_providers:traits:delete', () => api().delete(url(provider), v)],
    ];
    for (const [rule, call] of cases) {
      const refused = await withRuleDenied(ctx, rule, call);
      assert.equal(refused.status, 403, rule);
      assert.match(refused.body.errors[0].detail, new RegExp(`Policy does not allow ${rule}`));
    }
    assert.equal(await generationOf(provider), 0);
    assert.equal((await api().get(url(provider), { ...v, token: 'user' })).status, 403);
  });
});
