/**
 * Resource providers: create (201 below 1.20, 200 with the provider from it; Location),
 * every validation and conflict, show at each window of the representation, the list with
 * every filter in each window (name, uuid, member_of with in: and !, resources, in_tree,
 * required with ! and in:), update and re-parenting (1.37) with their errors, delete with
 * children and allocations, and generations moving as a provider changes.
 */
import type { Pair, PairRequest } from '../pair.ts';
import {
  allocate,
  around,
  atVersions,
  createProvider,
  g,
  generationOf,
  LATEST,
  p,
  setAggregates,
  setInventories,
  setTraits,
  u,
} from './a-support.ts';

async function creation(pair: Pair): Promise<void> {
  const post = (title: string, version: string, body: unknown) =>
    pair.req(title, { method: 'POST', path: '/resource_providers', version, body });
  await post('create @1.0', '1.0', { name: 'p1', uuid: p(1) });
  await post('create @1.19', '1.19', { name: 'p2', uuid: p(2) });
  await post('create @1.20', '1.20', { name: 'p3', uuid: p(3) });
  await post('create without uuid @1.0', '1.0', { name: 'no uuid 1.0' });
  await post('create without uuid @1.20', '1.20', { name: 'no uuid 1.20' });
  await post('create with uuid without dashes', LATEST, {
    name: 'undashed',
    uuid: p(4).replaceAll('-', ''),
  });
  await post('create with upper-case uuid', LATEST, { name: 'upper', uuid: p(5).toUpperCase() });
  await post('create with braces uuid', LATEST, { name: 'braces', uuid: `{${p(6)}}` });
  await post('create with urn uuid', LATEST, { name: 'urn', uuid: `urn:uuid:${p(7)}` });
  await post('child @1.14', '1.14', {
    name: 'child of p3',
    uuid: p(10),
    parent_provider_uuid: p(3),
  });
  await post('grandchild', LATEST, {
    name: 'grandchild',
    uuid: p(11),
    parent_provider_uuid: p(10),
  });
  await post('parent null', LATEST, {
    name: 'parent null',
    uuid: p(12),
    parent_provider_uuid: null,
  });
  await post('parent field @1.13', '1.13', { name: 'early child', parent_provider_uuid: p(3) });
  await post('unknown parent', LATEST, {
    name: 'orphan',
    uuid: p(13),
    parent_provider_uuid: p(99),
  });
  await post('parent is itself', LATEST, {
    name: 'self',
    uuid: p(14),
    parent_provider_uuid: p(14),
  });
  await post('parent not a uuid', LATEST, { name: 'bad parent', parent_provider_uuid: 'x' });
  for (const version of ['1.0', '1.22', '1.23', LATEST]) {
    await post(`duplicate name @${version}`, version, { name: 'p1' });
    await post(`duplicate uuid @${version}`, version, { name: 'other', uuid: p(1) });
    await post(`duplicate both @${version}`, version, { name: 'p1', uuid: p(1) });
  }
  const invalid: [string, unknown][] = [
    ['no name', { uuid: p(20) }],
    ['empty name', { name: '', uuid: p(20) }],
    ['name of 200', { name: 'n'.repeat(200), uuid: p(21) }],
    ['name of 201', { name: 'n'.repeat(201) }],
    ['name not a string', { name: 5 }],
    ['name null', { name: null }],
    ['uuid not a uuid', { name: 'bad uuid', uuid: 'not-a-uuid' }],
    ['uuid a number', { name: 'bad uuid', uuid: 7 }],
    ['uuid empty', { name: 'empty uuid', uuid: '' }],
    ['unknown field', { name: 'extra', generation: 1 }],
    ['array body', []],
    ['string body', '"name"'],
    ['unicode name', { name: 'ünïcødé ☃', uuid: p(22) }],
  ];
  for (const [title, body] of invalid) {
    for (const version of ['1.0', LATEST]) await post(`${title} @${version}`, version, body);
  }
}

async function shows(pair: Pair): Promise<void> {
  await atVersions(pair, 'show child', around('1.1', '1.6', '1.11', '1.14', '1.15'), {
    method: 'GET',
    path: `/resource_providers/${p(10)}`,
  });
  for (const version of ['1.0', '1.22', '1.23', LATEST]) {
    await pair.req(`show unknown @${version}`, {
      method: 'GET',
      path: `/resource_providers/${p(99)}`,
      version,
    });
  }
  await pair.req('show not a uuid', {
    method: 'GET',
    path: '/resource_providers/not-a-uuid',
    version: LATEST,
  });
  await pair.req('show undashed uuid', {
    method: 'GET',
    path: `/resource_providers/${p(1).replaceAll('-', '')}`,
    version: LATEST,
  });
  await pair.req('show upper-case uuid', {
    method: 'GET',
    path: `/resource_providers/${p(1).toUpperCase()}`,
    version: LATEST,
  });
}

async function filters(pair: Pair): Promise<void> {
  await setInventories(pair, p(1), { VCPU: { total: 8 }, MEMORY_MB: { total: 1024 } });
  await setInventories(pair, p(2), { VCPU: { total: 2 }, DISK_GB: { total: 100, reserved: 90 } });
  await setInventories(pair, p(10), { VCPU: { total: 4 } });
  await setTraits(pair, p(1), ['HW_CPU_X86_AVX', 'CUSTOM_GOLD']);
  await setTraits(pair, p(2), ['HW_CPU_X86_AVX2']);
  await setTraits(pair, p(10), ['CUSTOM_GOLD', 'HW_CPU_X86_AVX2']);
  await setAggregates(pair, p(1), [g(1)]);
  await setAggregates(pair, p(2), [g(1), g(2)]);
  await setAggregates(pair, p(11), [g(3)]);
  await allocate(pair, u(1), { [p(1)]: { VCPU: 6 }, [p(2)]: { DISK_GB: 5 } });
  const list = (title: string, query: string, versions: readonly string[]) =>
    atVersions(pair, `list ${title}`, versions, {
      method: 'GET',
      path: `/resource_providers${query}`,
    });
  await list('all', '', around('1.11', '1.14', '1.15'));
  await list('by name', '?name=p1', ['1.0', LATEST]);
  await list('by unknown name', '?name=nobody', [LATEST]);
  await list('by empty name', '?name=', [LATEST]);
  await list('by uuid', `?uuid=${p(2)}`, ['1.0', LATEST]);
  await list('by bad uuid', '?uuid=nope', ['1.0', LATEST]);
  await list('by empty uuid', '?uuid=', [LATEST]);
  await list('by undashed uuid', `?uuid=${p(2).replaceAll('-', '')}`, [LATEST]);
  await list('by name and uuid', `?name=p1&uuid=${p(2)}`, [LATEST]);
  await list('repeated name', '?name=p2&name=p1', [LATEST]);
  await list('member_of', `?member_of=${g(1)}`, around('1.3'));
  await list('member_of in:', `?member_of=in:${g(2)},${g(3)}`, ['1.3', LATEST]);
  await list('member_of in: spaced', `?member_of=in:${g(2)}, ${g(3)}`, [LATEST]);
  await list('member_of bad uuid', '?member_of=nope', ['1.3', LATEST]);
  await list('member_of in: bad uuid', `?member_of=in:${g(1)},nope`, ['1.3', LATEST]);
  await list('member_of empty', '?member_of=', ['1.3', LATEST]);
  await list('member_of in: empty', '?member_of=in:', [LATEST]);
  await list('member_of twice', `?member_of=${g(1)}&member_of=${g(2)}`, around('1.24'));
  await list('member_of forbidden', `?member_of=!${g(2)}`, around('1.32'));
  await list('member_of forbidden in:', `?member_of=!in:${g(2)},${g(3)}`, around('1.32'));
  await list('member_of in:!', `?member_of=in:!${g(2)}`, ['1.32']);
  await list('member_of forbidden and required', `?member_of=${g(1)}&member_of=!${g(2)}`, ['1.32']);
  await list('member_of forbidden bad', '?member_of=!nope', ['1.32']);
  await list('resources', '?resources=VCPU:2', around('1.4'));
  await list('resources too much', '?resources=VCPU:3', [LATEST]);
  await list('resources two classes', '?resources=VCPU:1,DISK_GB:5', [LATEST]);
  await list('resources reserved left', '?resources=DISK_GB:11', [LATEST]);
  await list('resources unknown class', '?resources=FOO:1', [LATEST]);
  await list('resources custom unknown', '?resources=CUSTOM_NOPE:1', [LATEST]);
  await list('resources bad form', '?resources=VCPU', [LATEST]);
  await list('resources bad amount', '?resources=VCPU:x', [LATEST]);
  await list('resources zero', '?resources=VCPU:0', [LATEST]);
  await list('resources negative', '?resources=VCPU:-1', [LATEST]);
  await list('resources repeated class', '?resources=VCPU:1,VCPU:2', [LATEST]);
  await list('resources empty', '?resources=', [LATEST]);
  await list('resources trailing comma', '?resources=VCPU:1,', [LATEST]);
  await list('resources spaced', '?resources=VCPU: 1, MEMORY_MB:1', [LATEST]);
  await list('in_tree', `?in_tree=${p(10)}`, around('1.14'));
  await list('in_tree undashed', `?in_tree=${p(10).replaceAll('-', '')}`, [LATEST]);
  await list('in_tree upper case', `?in_tree=${p(10).toUpperCase()}`, [LATEST]);
  await list('in_tree braced', `?in_tree={${p(10)}}`, [LATEST]);
  await list('uuid upper case', `?uuid=${p(1).toUpperCase()}`, [LATEST]);
  await list('member_of upper case', `?member_of=${g(1).toUpperCase()}`, [LATEST]);
  await list('member_of undashed', `?member_of=in:${g(1).replaceAll('-', '')},${g(2)}`, [LATEST]);
  await list('in_tree root', `?in_tree=${p(3)}`, [LATEST]);
  await list('in_tree unknown', `?in_tree=${p(99)}`, [LATEST]);
  await list('in_tree bad', '?in_tree=nope', [LATEST]);
  await list('in_tree with resources', `?in_tree=${p(3)}&resources=VCPU:1`, [LATEST]);
  await list('required', '?required=HW_CPU_X86_AVX2', around('1.18'));
  await list('required two', '?required=HW_CPU_X86_AVX2,CUSTOM_GOLD', [LATEST]);
  await list('required unknown', '?required=CUSTOM_NOPE', ['1.18', LATEST]);
  await list('required empty', '?required=', ['1.18', LATEST]);
  await list('required forbidden', '?required=!CUSTOM_GOLD', around('1.22'));
  await list('required forbidden only', '?required=!HW_CPU_X86_AVX', [LATEST]);
  await list('required same both', '?required=CUSTOM_GOLD,!CUSTOM_GOLD', [LATEST]);
  await list('required twice', '?required=CUSTOM_GOLD&required=HW_CPU_X86_AVX2', ['1.18', LATEST]);
  await list('required in:', '?required=in:HW_CPU_X86_AVX,HW_CPU_X86_AVX2', around('1.39'));
  await list(
    'required in: and more',
    '?required=in:HW_CPU_X86_AVX,CUSTOM_GOLD&required=!HW_CPU_X86_AVX2',
    [LATEST],
  );
  await list('required !in:', '?required=!in:HW_CPU_X86_AVX', [LATEST]);
  await list('required in: unknown', '?required=in:CUSTOM_NOPE,HW_CPU_X86_AVX', [LATEST]);
  await list('required in: empty', '?required=in:', [LATEST]);
  await list('required lower case', '?required=custom_gold', [LATEST]);
  await list('unknown parameter', '?foo=bar', ['1.0', LATEST]);
  for (const key of ['name', 'uuid', 'member_of', 'resources', 'in_tree', 'required']) {
    await list(`bare ${key}`, `?${key}`, [LATEST]);
  }
  await list('plus as space', '?name=p2+renamed+once+more', [LATEST]);
  await list('encoded unicode name', `?name=${encodeURIComponent('ünïcødé ☃')}`, [LATEST]);
  await list('empty query', '?', [LATEST]);
  await list('stray ampersands', '?&&name=p1&', [LATEST]);
  await list(
    'everything',
    `?member_of=${g(1)}&resources=VCPU:1&required=CUSTOM_GOLD&in_tree=${p(1)}&name=p1&uuid=${p(1)}`,
    [LATEST],
  );
}

async function updates(pair: Pair): Promise<void> {
  const post = (title: string, version: string, body: unknown) =>
    pair.req(title, { method: 'POST', path: '/resource_providers', version, body });
  const put = (title: string, uuid: string, version: string, body: unknown) =>
    pair.req(title, {
      method: 'PUT',
      path: `/resource_providers/${uuid}`,
      version,
      body,
    } satisfies PairRequest);
  await put('rename @1.0', p(2), '1.0', { name: 'p2 renamed' });
  await put('rename @1.14', p(2), '1.14', { name: 'p2 renamed again' });
  await put('rename @latest', p(2), LATEST, { name: 'p2 renamed once more' });
  await put('same name', p(2), LATEST, { name: 'p2 renamed once more' });
  for (const version of ['1.0', '1.23']) {
    await put(`duplicate name @${version}`, p(2), version, { name: 'p1' });
  }
  await put('unknown provider', p(99), LATEST, { name: 'ghost' });
  await put('no name', p(2), LATEST, {});
  await put('uuid in body', p(2), LATEST, { name: 'x', uuid: p(2) });
  await put('name too long', p(2), LATEST, { name: 'n'.repeat(201) });
  await put('parent @1.13', p(2), '1.13', { name: 'p2', parent_provider_uuid: p(1) });
  await put('adopt @1.14', p(12), '1.14', { name: 'parent null', parent_provider_uuid: p(1) });
  await put('same parent', p(12), '1.14', { name: 'parent null', parent_provider_uuid: p(1) });
  await put('re-parent @1.36', p(12), '1.36', { name: 'parent null', parent_provider_uuid: p(2) });
  await put('orphan @1.36', p(12), '1.36', { name: 'parent null', parent_provider_uuid: null });
  await put('re-parent @1.37', p(12), '1.37', { name: 'parent null', parent_provider_uuid: p(2) });
  await put('orphan @1.37', p(12), '1.37', { name: 'parent null', parent_provider_uuid: null });
  await put('parent omitted', p(10), LATEST, { name: 'child of p3' });
  await put('parent unknown', p(12), LATEST, { name: 'parent null', parent_provider_uuid: p(99) });
  await put('parent is itself', p(12), LATEST, {
    name: 'parent null',
    parent_provider_uuid: p(12),
  });
  await put('parent is a descendant', p(3), LATEST, { name: 'p3', parent_provider_uuid: p(11) });
  await put('parent not a uuid', p(12), LATEST, { name: 'parent null', parent_provider_uuid: 'x' });
  await put('parent undashed', p(12), LATEST, {
    name: 'parent null',
    parent_provider_uuid: p(2).replaceAll('-', ''),
  });
  await post('child of an undashed parent', LATEST, {
    name: 'undashed parent',
    parent_provider_uuid: p(3).replaceAll('-', ''),
  });
  await put('move a subtree', p(10), LATEST, { name: 'child of p3', parent_provider_uuid: p(1) });
  await atVersions(pair, 'tree after move', ['1.14', LATEST], {
    method: 'GET',
    path: `/resource_providers?in_tree=${p(1)}`,
  });
  await pair.req('show after updates @1.15', {
    method: 'GET',
    path: `/resource_providers/${p(2)}`,
    version: '1.15',
  });
}

async function generations(pair: Pair): Promise<void> {
  await createProvider(pair, p(30), 'generations');
  await generationOf(pair, p(30));
  await setInventories(pair, p(30), { VCPU: { total: 1 } });
  await generationOf(pair, p(30));
  await setTraits(pair, p(30), ['HW_CPU_X86_AVX']);
  await generationOf(pair, p(30));
  await setAggregates(pair, p(30), [g(1)]);
  await generationOf(pair, p(30));
  await allocate(pair, u(2), { [p(30)]: { VCPU: 1 } });
  await generationOf(pair, p(30));
  await pair.req('rename does not move the generation', {
    method: 'PUT',
    path: `/resource_providers/${p(30)}`,
    version: LATEST,
    body: { name: 'generations renamed' },
  });
}

async function deletes(pair: Pair): Promise<void> {
  const del = (title: string, uuid: string, version = LATEST) =>
    pair.req(title, { method: 'DELETE', path: `/resource_providers/${uuid}`, version });
  for (const version of ['1.0', '1.23']) {
    await del(`parent with children @${version}`, p(1), version);
    await del(`provider with allocations @${version}`, p(30), version);
    await del(`unknown @${version}`, p(99), version);
  }
  await del('not a uuid', 'not-a-uuid');
  await del('leaf', p(11));
  await del('leaf again', p(11));
  await pair.req('free p30', { method: 'DELETE', path: `/allocations/${u(2)}`, version: LATEST });
  await del('after its allocations went', p(30));
  await del('provider with inventory only', p(2), '1.0');
  await pair.req('list after deletes', {
    method: 'GET',
    path: '/resource_providers',
    version: LATEST,
  });
}

export const aProviders = {
  name: 'a-providers',
  async run(pair: Pair) {
    await creation(pair);
    await shows(pair);
    await filters(pair);
    await updates(pair);
    await generations(pair);
    await deletes(pair);
  },
};
