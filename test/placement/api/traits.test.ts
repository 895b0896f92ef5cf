import assert from 'node:assert/strict';
import { it } from 'node:test';
import { insertProvider, withRuleDenied } from '../support/direct-rows.ts';
import { forEachPlacementBackend } from '../support/placement-api.ts';

const GMT_DATE = /^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/;
const INVALID =
  'The trait is invalid. A valid trait must be no longer than 255 characters, start with the prefix "CUSTOM_" and use following characters: "A"-"Z", "0"-"9" and "_"';

forEachPlacementBackend('placement /traits', (ctx) => {
  const api = () => ctx.api();
  const v = { version: '1.6' };

  /** Gives a fresh provider these traits straight in the database. */
  async function associate(...names: string[]) {
    const provider = await insertProvider(ctx);
    const db = ctx.placementDb().kysely;
    const rows = await db.selectFrom('traits').select('id').where('name', 'in', names).execute();
    await db
      .insertInto('resource_provider_traits')
      .values(
        rows.map((row) => ({
          trait_id: Number(row.id),
          resource_provider_id: provider.id,
          created_at: new Date(),
          updated_at: null,
        })),
      )
      .execute();
    return provider;
  }

  it('answers 404 below 1.6 on every method', async () => {
    const old = { version: '1.5' };
    for (const response of [
      await api().get('/traits', old),
      await api().get('/traits/HW_CPU_X86_SSE', old),
      await api().put('/traits/CUSTOM_TRAIT_1', undefined, old),
      await api().delete('/traits/CUSTOM_TRAIT_1', old),
    ]) {
      assert.equal(response.status, 404);
    }
    const none = await api().get('/traits/CUSTOM_TRAIT_1', v);
    assert.equal(none.status, 404);
  });

  it('PUT creates a custom trait (201) and then finds it (204), with Location', async () => {
    const created = await api().put('/traits/CUSTOM_TRAIT_1', undefined, v);
    assert.equal(created.status, 201);
    assert.equal(created.text, '');
    assert.equal(created.headers['content-type'], undefined);
    assert.match(String(created.headers.location), /^http:\/\/[^/]+\/traits\/CUSTOM_TRAIT_1$/);
    assert.equal(created.headers['cache-control'], undefined);
    assert.equal(created.headers['last-modified'], undefined);
    const again = await api().put('/traits/CUSTOM_TRAIT_1', undefined, v);
    assert.equal(again.status, 204);
    assert.match(String(again.headers.location), /\/traits\/CUSTOM_TRAIT_1$/);
    assert.equal(again.headers['content-type'], undefined);
  });

  it('PUT refuses names outside the custom namespace with the real message', async () => {
    const long = `CUSTOM_${'A'.repeat(249)}`;
    for (const name of ['TRAIT_X', 'CUSTOM_ABC:1', 'HW_CPU_X86_SSE', 'CUSTOM_lower', long]) {
      const response = await api().put(`/traits/${encodeURIComponent(name)}`, undefined, v);
      assert.equal(response.status, 400, name);
      assert.equal(
        response.body.errors[0].detail,
        `The server could not comply with the request since it is either malformed or otherwise incorrect.\n\n ${INVALID}  `,
      );
    }
    const longest = await api().put(`/traits/CUSTOM_${'A'.repeat(248)}`, undefined, v);
    assert.equal(longest.status, 201);
  });

  it('GET one: 204 without body, 404 with the real message', async () => {
    await api().put('/traits/CUSTOM_SHOWN', undefined, v);
    const found = await api().get('/traits/CUSTOM_SHOWN', v);
    assert.equal(found.status, 204);
    assert.equal(found.text, '');
    assert.equal(found.headers['content-type'], undefined);
    const standard = await api().get('/traits/HW_CPU_X86_SSE', v);
    assert.equal(standard.status, 204);
    const missing = await api().get('/traits/NON_EXISTED', v);
    assert.equal(missing.status, 404);
    assert.match(missing.body.errors[0].detail, /No such trait\(s\): NON_EXISTED\./);
  });

  it('cache headers on GET and PUT from 1.15, never on DELETE', async () => {
    await api().put('/traits/CUSTOM_CACHED', undefined, v);
    for (const version of ['1.6', '1.14']) {
      for (const response of [
        await api().get('/traits', { version }),
        await api().get('/traits/CUSTOM_CACHED', { version }),
        await api().put('/traits/CUSTOM_CACHED', undefined, { version }),
      ]) {
        assert.equal(response.headers['cache-control'], undefined);
        assert.equal(response.headers['last-modified'], undefined);
      }
    }
    for (const response of [
      await api().get('/traits', { version: '1.15' }),
      await api().get('/traits/CUSTOM_CACHED', { version: '1.15' }),
      await api().put('/traits/CUSTOM_CACHED', undefined, { version: '1.15' }),
      await api().put('/traits/CUSTOM_CACHED_NEW', undefined, { version: '1.15' }),
    ]) {
      assert.equal(response.headers['cache-control'], 'no-cache');
      assert.match(String(response.headers['last-modified']), GMT_DATE);
    }
    const deleted = await api().delete('/traits/CUSTOM_CACHED_NEW', { version: '1.15' });
    assert.equal(deleted.status, 204);
    assert.equal(deleted.headers['cache-control'], undefined);
    assert.equal(deleted.headers['last-modified'], undefined);
  });

  it('lists standard and custom traits', async () => {
    await api().put('/traits/CUSTOM_LIST_1', undefined, v);
    await api().put('/traits/CUSTOM_LIST_2', undefined, v);
    const response = await api().get('/traits', v);
    assert.equal(response.status, 200);
    assert.equal(response.headers['content-type'], 'application/json');
    for (const name of [
      'CUSTOM_LIST_1',
      'CUSTOM_LIST_2',
      'MISC_SHARES_VIA_AGGREGATE',
      'HW_CPU_X86_SHA',
    ]) {
      assert.ok(response.body.traits.includes(name), name);
    }
    assert.ok(response.body.traits.length >= 347);
    const refused = await api().get('/traits', { ...v, headers: { accept: 'text/plain' } });
    assert.equal(refused.status, 406);
  });

  it('filters by name=in: and name=startswith:', async () => {
    for (const name of ['CUSTOM_FILTER_1', 'CUSTOM_FILTER_2', 'CUSTOM_ANOTHER']) {
      await api().put(`/traits/${name}`, undefined, v);
    }
    const chosen = await api().get('/traits?name=in:CUSTOM_FILTER_1,CUSTOM_FILTER_2,NOPE', v);
    assert.equal(chosen.status, 200);
    assert.deepEqual([...chosen.body.traits].sort(), ['CUSTOM_FILTER_1', 'CUSTOM_FILTER_2']);
    const prefixed = await api().get('/traits?name=startswith:CUSTOM_FILTER', v);
    assert.deepEqual([...prefixed.body.traits].sort(), ['CUSTOM_FILTER_1', 'CUSTOM_FILTER_2']);
    const empty = await api().get('/traits?name=in:', v);
    assert.deepEqual(empty.body.traits, []);
    // Another operator filters nothing, as in the real service.
    const other = await api().get('/traits?name=other:CUSTOM_FILTER_1', v);
    assert.equal(other.status, 200);
    assert.ok(other.body.traits.length > 300);
    // The last of repeated values counts.
    const last = await api().get('/traits?name=in:CUSTOM_ANOTHER&name=in:CUSTOM_FILTER_1', v);
    assert.deepEqual(last.body.traits, ['CUSTOM_FILTER_1']);
  });

  it('400 for a name filter without an operator, or unknown parameters', async () => {
    const bad = await api().get('/traits?name=in_abc', v);
    assert.equal(bad.status, 400);
    assert.match(
      bad.body.errors[0].detail,
      /Badly formatted name parameter\. Expected name query string parameter in form: \?name=\[in\|startswith\]:\[name1,name2\|prefix\]\. Got: "in_abc"/,
    );
    const unknown = await api().get('/traits?invalid=abc', v);
    assert.equal(unknown.status, 400);
    assert.match(
      unknown.body.errors[0].detail,
      /Invalid query string parameters: Additional properties are not allowed/,
    );
  });

  it('filters by associated=true|false (any case) and refuses other values', async () => {
    await api().put('/traits/CUSTOM_ASSOC_YES', undefined, v);
    await api().put('/traits/CUSTOM_ASSOC_NO', undefined, v);
    await associate('CUSTOM_ASSOC_YES', 'HW_CPU_X86_AVX');
    await associate('CUSTOM_ASSOC_YES');
    const yes = await api().get('/traits?associated=true', v);
    assert.deepEqual(yes.body.traits, ['CUSTOM_ASSOC_YES', 'HW_CPU_X86_AVX']);
    const yesUpper = await api().get('/traits?associated=TRUE&name=startswith:CUSTOM_ASSOC', v);
    assert.deepEqual(yesUpper.body.traits, ['CUSTOM_ASSOC_YES']);
    const no = await api().get('/traits?associated=False&name=startswith:CUSTOM_ASSOC', v);
    assert.deepEqual(no.body.traits, ['CUSTOM_ASSOC_NO']);
    const all = await api().get('/traits?associated=false', v);
    assert.ok(!all.body.traits.includes('HW_CPU_X86_AVX'));
    assert.ok(all.body.traits.includes('HW_CPU_X86_SSE'));
    const bad = await api().get('/traits?associated=xyz', v);
    assert.equal(bad.status, 400);
    assert.match(
      bad.body.errors[0].detail,
      /The query parameter "associated" only accepts "true" or "false"/,
    );
  });

  it('DELETE: 204 for a free custom trait, 404 unknown, 400 standard, 409 in use', async () => {
    await api().put('/traits/CUSTOM_DOOMED', undefined, v);
    const deleted = await api().delete('/traits/CUSTOM_DOOMED', v);
    assert.equal(deleted.status, 204);
    assert.equal(deleted.text, '');
    assert.equal(deleted.headers['content-type'], undefined);
    const gone = await api().delete('/traits/CUSTOM_DOOMED', v);
    assert.equal(gone.status, 404);
    assert.match(gone.body.errors[0].detail, /No such trait\(s\): CUSTOM_DOOMED\./);
    const standard = await api().delete('/traits/HW_CPU_X86_SSE', v);
    assert.equal(standard.status, 400);
    assert.match(standard.body.errors[0].detail, /Cannot delete standard trait HW_CPU_X86_SSE\./);
    const unknownStandardLooking = await api().delete('/traits/NOT_A_TRAIT', v);
    assert.equal(unknownStandardLooking.status, 404);

    await api().put('/traits/CUSTOM_BUSY', undefined, v);
    await associate('CUSTOM_BUSY');
    const busy = await api().delete('/traits/CUSTOM_BUSY', v);
    assert.equal(busy.status, 409);
    assert.match(
      busy.body.errors[0].detail,
      /The trait CUSTOM_BUSY is in use by a resource provider\./,
    );
    assert.equal((await api().get('/traits/CUSTOM_BUSY', v)).status, 204);
  });

  it('405 with Allow for other methods', async () => {
    const list = await api().request('POST', '/traits', {}, v);
    assert.equal(list.status, 405);
    assert.equal(list.headers.allow, 'GET');
    const one = await api().request('POST', '/traits/CUSTOM_X', {}, v);
    assert.equal(one.status, 405);
    assert.equal(one.headers.allow, 'GET, PUT, DELETE');
  });

  it('checks each endpoint against its own policy rule', async () => {
    await api().put('/traits/CUSTOM_RULED', undefined, v);
    const cases: [string, () => ReturnType<ReturnType<typeof api>['get']>][] = [
      ['placement:traits:list', () => api().get('/traits', v)],
      ['placement:traits:show', () => api().get('/traits/CUSTOM_RULED', v)],
      ['placement:traits:update', () => api().put('/traits/CUSTOM_NO', undefined, v)],
      ['placement:traits:delete', () => api().delete('/traits/CUSTOM_RULED', v)],
    ];
    for (const [rule, call] of cases) {
      const refused = await withRuleDenied(ctx, rule, call);
      assert.equal(refused.status, 403, rule);
      assert.match(refused.body.errors[0].detail, new RegExp(`Policy does not allow ${rule}`));
    }
    assert.equal((await api().get('/traits/CUSTOM_NO', v)).status, 404);
    assert.equal((await api().get('/traits/CUSTOM_RULED', v)).status, 204);
    const user = await api().get('/traits', { ...v, token: 'user' });
    assert.equal(user.status, 403);
  });
});
