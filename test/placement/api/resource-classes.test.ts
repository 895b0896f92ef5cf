import assert from 'node:assert/strict';
import { it } from 'node:test';
import { CUSTOM_RESOURCE_CLASS_MIN_ID } from '../../../src/placement/store/standard-data.ts';
import { insertInventory, insertProvider, withRuleDenied } from '../support/direct-rows.ts';
import { forEachPlacementBackend } from '../support/placement-api.ts';

const GMT_DATE = /^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

forEachPlacementBackend('placement /resource_classes', (ctx) => {
  const api = () => ctx.api();
  const v17 = { version: '1.7' };
  const classId = async (name: string) => {
    const row = await ctx
      .placementDb()
      .kysely.selectFrom('resource_classes')
      .select('id')
      .where('name', '=', name)
      .executeTakeFirst();
    return row === undefined ? undefined : Number(row.id);
  };

  it('answers 404 below 1.2 on every method, before checking the content type', async () => {
    const v = { version: '1.1' };
    for (const response of [
      await api().get('/resource_classes', v),
      await api().post('/resource_classes', { name: 'CUSTOM_A' }, v),
      await api().request('POST', '/resource_classes', 'data', {
        ...v,
        headers: { 'content-type': 'text/plain' },
      }),
      await api().get('/resource_classes/VCPU', v),
      await api().put('/resource_classes/CUSTOM_A', { name: 'CUSTOM_B' }, v),
      await api().delete('/resource_classes/CUSTOM_A', v),
    ]) {
      assert.equal(response.status, 404);
      assert.equal(response.body.errors[0].title, 'Not Found');
    }
  });

  it('lists the 21 standard classes in id order with self links (1.2)', async () => {
    const response = await api().get('/resource_classes', { version: '1.2' });
    assert.equal(response.status, 200);
    assert.equal(response.headers['content-type'], 'application/json');
    const classes = response.body.resource_classes;
    assert.ok(classes.length >= 21);
    assert.deepEqual(classes[0], {
      name: 'VCPU',
      links: [{ rel: 'self', href: '/resource_classes/VCPU' }],
    });
    assert.deepEqual(
      classes.slice(0, 3).map((c: { name: string }) => c.name),
      ['VCPU', 'MEMORY_MB', 'DISK_GB'],
    );
    assert.equal(response.headers['cache-control'], undefined);
    assert.equal(response.headers['last-modified'], undefined);
  });

  it('adds cache headers to GETs from 1.15 only', async () => {
    const old = await api().get('/resource_classes/VCPU', { version: '1.14' });
    assert.equal(old.headers['last-modified'], undefined);
    for (const url of ['/resource_classes', '/resource_classes/VCPU']) {
      const response = await api().get(url, { version: '1.15' });
      assert.equal(response.status, 200);
      assert.equal(response.headers['cache-control'], 'no-cache');
      assert.match(String(response.headers['last-modified']), GMT_DATE);
    }
  });

  it('406 for a GET that does not accept JSON', async () => {
    for (const url of ['/resource_classes', '/resource_classes/VCPU']) {
      const response = await api().get(url, {
        version: '1.2',
        headers: { accept: 'text/plain' },
      });
      assert.equal(response.status, 406);
    }
  });

  it('creates a custom class: 201, Location, no body, ids from 10000 up', async () => {
    const response = await api().post(
      '/resource_classes',
      { name: 'CUSTOM_FPGA' },
      { version: '1.2' },
    );
    assert.equal(response.status, 201);
    assert.equal(response.text, '');
    assert.equal(response.headers['content-type'], undefined);
    assert.match(
      String(response.headers.location),
      /^http:\/\/[^/]+\/resource_classes\/CUSTOM_FPGA$/,
    );
    const second = await api().post(
      '/resource_classes',
      { name: 'CUSTOM_FPGA_2' },
      { version: 'latest' },
    );
    assert.equal(second.status, 201);
    assert.equal(await classId('CUSTOM_FPGA'), CUSTOM_RESOURCE_CLASS_MIN_ID);
    assert.equal(await classId('CUSTOM_FPGA_2'), CUSTOM_RESOURCE_CLASS_MIN_ID + 1);

    const listed = await api().get('/resource_classes', { version: '1.2' });
    const names = listed.body.resource_classes.map((c: { name: string }) => c.name);
    assert.equal(names.length, 23);
    assert.deepEqual(names.slice(-2), ['CUSTOM_FPGA', 'CUSTOM_FPGA_2']);

    const shown = await api().get('/resource_classes/CUSTOM_FPGA', { version: '1.2' });
    assert.equal(shown.status, 200);
    assert.deepEqual(shown.body, {
      name: 'CUSTOM_FPGA',
      links: [{ rel: 'self', href: '/resource_classes/CUSTOM_FPGA' }],
    });
  });

  it('refreshes the shared class cache when classes are created and deleted', async () => {
    const cache = api().app.placement.resourceClasses;
    const db = ctx.placementDb().kysely;
    await cache.all(db);
    await api().post('/resource_classes', { name: 'CUSTOM_CACHED' }, { version: '1.2' });
    assert.ok((await cache.all(db)).has('CUSTOM_CACHED'));
    await api().delete('/resource_classes/CUSTOM_CACHED', { version: '1.2' });
    assert.equal((await cache.all(db)).has('CUSTOM_CACHED'), false);
  });

  it('409 for a duplicate name (undefined code, as the real service)', async () => {
    await api().post('/resource_classes', { name: 'CUSTOM_DUP' }, { version: '1.2' });
    const response = await api().post(
      '/resource_classes',
      { name: 'CUSTOM_DUP' },
      { version: '1.23' },
    );
    assert.equal(response.status, 409);
    const [error] = response.body.errors;
    assert.equal(error.title, 'Conflict');
    assert.match(error.detail, /Conflicting resource class already exists: CUSTOM_DUP/);
    assert.equal(error.code, 'placement.undefined_code');
  });

  it('refuses bad bodies: 415, malformed JSON, and names the schema refuses', async () => {
    const v = { version: '1.2' };
    const textPlain = await api().request('POST', '/resource_classes', 'data', {
      ...v,
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(textPlain.status, 415);
    const malformed = await api().post('/resource_classes', '{"foo": }', v);
    assert.equal(malformed.status, 400);
    assert.match(malformed.body.errors[0].detail, /Malformed JSON:/);
    for (const body of [
      { name: 'FOO' },
      { name: 'IRON_NFV' },
      { name: 'VCPU' },
      { name: 'CUSTOM_Illegal&@!Name?' },
      { name: `CUSTOM_${'X'.repeat(249)}` },
      { name: 'CUSTOM_NFV_BAR', additional: 'additional' },
      {},
    ]) {
      const response = await api().post('/resource_classes', body, v);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.match(response.body.errors[0].detail, /JSON does not validate/);
    }
    const extra = await api().post(
      '/resource_classes',
      { name: 'CUSTOM_NFV_BAR', additional: 'additional' },
      v,
    );
    assert.match(extra.body.errors[0].detail, /Additional properties are not allowed/);
    const long = await api().post('/resource_classes', { name: `CUSTOM_${'X'.repeat(249)}` }, v);
    assert.match(long.body.errors[0].detail, /is too long/);
    // 255 characters is still fine.
    const longest = await api().post('/resource_classes', { name: `CUSTOM_${'X'.repeat(248)}` }, v);
    assert.equal(longest.status, 201);
  });

  it('404 with the real message for an unknown class', async () => {
    for (const response of [
      await api().get('/resource_classes/CUSTOM_NOPE', { version: '1.2' }),
      await api().delete('/resource_classes/CUSTOM_NOPE', { version: '1.2' }),
      await api().put('/resource_classes/CUSTOM_NOPE', { name: 'CUSTOM_X' }, { version: '1.6' }),
    ]) {
      assert.equal(response.status, 404);
      assert.match(response.body.errors[0].detail, /No such resource class CUSTOM_NOPE\./);
    }
  });

  it('PUT renames a custom class from 1.2 to 1.6', async () => {
    await api().post('/resource_classes', { name: 'CUSTOM_OLD' }, { version: '1.2' });
    const oldId = await classId('CUSTOM_OLD');
    const response = await api().put(
      '/resource_classes/CUSTOM_OLD',
      { name: 'CUSTOM_NEW' },
      { version: '1.6' },
    );
    assert.equal(response.status, 200);
    assert.equal(response.headers['content-type'], 'application/json');
    assert.deepEqual(response.body, {
      name: 'CUSTOM_NEW',
      links: [{ rel: 'self', href: '/resource_classes/CUSTOM_NEW' }],
    });
    assert.equal(await classId('CUSTOM_NEW'), oldId);
    assert.equal(await classId('CUSTOM_OLD'), undefined);
    const again = await api().put(
      '/resource_classes/CUSTOM_NEW',
      { name: 'CUSTOM_NEWER' },
      { version: '1.2' },
    );
    assert.equal(again.status, 200);
    assert.equal(again.body.name, 'CUSTOM_NEWER');
  });

  it('PUT before 1.7 refuses standard classes, taken names and bad bodies', async () => {
    const v = { version: '1.6' };
    await api().post('/resource_classes', { name: 'CUSTOM_TAKEN' }, v);
    await api().post('/resource_classes', { name: 'CUSTOM_MOVER' }, v);
    const standard = await api().put('/resource_classes/VCPU', { name: 'CUSTOM_VCPU' }, v);
    assert.equal(standard.status, 400);
    assert.match(standard.body.errors[0].detail, /Cannot update standard resource class VCPU/);
    const badJson = await api().put('/resource_classes/VCPU', { name: 'VCPU_ALTERNATE' }, v);
    assert.equal(badJson.status, 400);
    assert.match(badJson.body.errors[0].detail, /JSON does not validate/);
    const toStandard = await api().put('/resource_classes/CUSTOM_MOVER', { name: 'VCPU' }, v);
    assert.equal(toStandard.status, 400);
    assert.match(toStandard.body.errors[0].detail, /JSON does not validate/);
    const taken = await api().put(
      '/resource_classes/CUSTOM_MOVER',
      { name: 'CUSTOM_TAKEN' },
      { version: '1.6' },
    );
    assert.equal(taken.status, 409);
    assert.match(taken.body.errors[0].detail, /Resource class already exists: CUSTOM_TAKEN/);
    const extra = await api().put(
      '/resource_classes/CUSTOM_MOVER',
      { name: 'CUSTOM_X', additional: 1 },
      v,
    );
    assert.equal(extra.status, 400);
    assert.match(extra.body.errors[0].detail, /Additional properties are not allowed/);
    const noBody = await api().request('PUT', '/resource_classes/CUSTOM_MOVER', undefined, v);
    assert.equal(noBody.status, 415);
  });

  it('PUT from 1.7 creates idempotently: 201 then 204, Location, body ignored', async () => {
    for (const version of ['1.7', 'latest']) {
      const name = `CUSTOM_ENSURED_${version === 'latest' ? 'L' : '7'}`;
      const created = await api().put(`/resource_classes/${name}`, undefined, { version });
      assert.equal(created.status, 201);
      assert.equal(created.text, '');
      assert.equal(created.headers['content-type'], undefined);
      assert.match(String(created.headers.location), new RegExp(`/resource_classes/${name}$`));
      const again = await api().put(
        `/resource_classes/${name}`,
        { name: 'CUSTOM_IGNORED' },
        {
          version,
        },
      );
      assert.equal(again.status, 204);
      assert.match(String(again.headers.location), new RegExp(`/resource_classes/${name}$`));
      assert.equal(await classId('CUSTOM_IGNORED'), undefined);
      assert.ok(((await classId(name)) ?? 0) >= CUSTOM_RESOURCE_CLASS_MIN_ID);
    }
  });

  it('PUT from 1.7 takes names up to 255 characters from the path', async () => {
    const longest = `CUSTOM_${'L'.repeat(248)}`;
    assert.equal((await api().put(`/resource_classes/${longest}`, undefined, v17)).status, 201);
    assert.equal((await api().get(`/resource_classes/${longest}`, v17)).status, 200);
    const tooLong = await api().put(`/resource_classes/${longest}L`, undefined, v17);
    assert.equal(tooLong.status, 400);
    assert.match(tooLong.body.errors[0].detail, /JSON does not validate: '.*' is too long/);
  });

  it('PUT from 1.7 refuses standard and malformed names with 400', async () => {
    for (const name of ['VCPU', 'FOO', 'CUSTOM_lower']) {
      const response = await api().put(`/resource_classes/${name}`, undefined, { version: '1.7' });
      assert.equal(response.status, 400, name);
      assert.match(response.body.errors[0].detail, /JSON does not validate/);
    }
  });

  it('DELETE: 204 for a free custom class, 400 standard, 409 in use by an inventory', async () => {
    const v = { version: '1.2' };
    await api().post('/resource_classes', { name: 'CUSTOM_GONE' }, v);
    const gone = await api().delete('/resource_classes/CUSTOM_GONE', v);
    assert.equal(gone.status, 204);
    assert.equal(gone.text, '');
    assert.equal((await api().delete('/resource_classes/CUSTOM_GONE', v)).status, 404);

    const standard = await api().delete('/resource_classes/VCPU', v);
    assert.equal(standard.status, 400);
    assert.match(
      standard.body.errors[0].detail,
      /Error in delete resource class: Cannot delete standard resource class VCPU\./,
    );

    await api().post('/resource_classes', { name: 'CUSTOM_USED' }, v);
    const provider = await insertProvider(ctx);
    await insertInventory(ctx, provider.id, (await classId('CUSTOM_USED')) as number);
    const used = await api().delete('/resource_classes/CUSTOM_USED', v);
    assert.equal(used.status, 409);
    assert.match(
      used.body.errors[0].detail,
      /Error in delete resource class: Cannot delete resource class CUSTOM_USED\. Class is in use in inventory\./,
    );
    assert.notEqual(await classId('CUSTOM_USED'), undefined);
  });

  it('405 with Allow for other methods', async () => {
    const list = await api().request('PATCH', '/resource_classes', undefined, { version: '1.2' });
    assert.equal(list.status, 405);
    assert.equal(list.headers.allow, 'GET, POST');
    const one = await api().request('POST', '/resource_classes/VCPU', {}, { version: '1.2' });
    assert.equal(one.status, 405);
    assert.equal(one.headers.allow, 'GET, PUT, DELETE');
  });

  it('403 for a caller without the admin role', async () => {
    const response = await api().get('/resource_classes', { version: '1.2', token: 'user' });
    assert.equal(response.status, 403);
    assert.equal(response.body.errors[0].title, 'Forbidden');
  });

  it('checks each endpoint against its own policy rule', async () => {
    await api().post('/resource_classes', { name: 'CUSTOM_RULED' }, { version: '1.2' });
    const cases: [string, () => ReturnType<ReturnType<typeof api>['get']>][] = [
      ['placement:resource_classes:list', () => api().get('/resource_classes', { version: '1.2' })],
      [
        'placement:resource_classes:create',
        () => api().post('/resource_classes', { name: 'CUSTOM_NO' }, { version: '1.2' }),
      ],
      [
        'placement:resource_classes:show',
        () => api().get('/resource_classes/CUSTOM_RULED', { version: '1.2' }),
      ],
      [
        'placement:resource_classes:update',
        () =>
          api().put('/resource_classes/CUSTOM_RULED', { name: 'CUSTOM_NO' }, { version: '1.6' }),
      ],
      [
        'placement:resource_classes:update',
        () => api().put('/resource_classes/CUSTOM_NO', undefined, { version: '1.7' }),
      ],
      [
        'placement:resource_classes:delete',
        () => api().delete('/resource_classes/CUSTOM_RULED', { version: '1.2' }),
      ],
    ];
    for (const [rule, call] of cases) {
      const refused = await withRuleDenied(ctx, rule, call);
      assert.equal(refused.status, 403, rule);
      assert.match(refused.body.errors[0].detail, new RegExp(`Policy does not allow ${rule}`));
    }
    assert.equal(await classId('CUSTOM_NO'), undefined);
    assert.notEqual(await classId('CUSTOM_RULED'), undefined);
  });
});
