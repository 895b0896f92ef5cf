/**
 * Resource classes (1.2; PUT creates from 1.7) and traits (1.6): the standard lists, custom
 * ones created, renamed, deleted, refused; trait filters (`name=in:`, `startswith:`,
 * `associated`); a provider's traits with generations; in-use refusals.
 */
import type { Pair, PairRequest } from '../pair.ts';
import {
  allocate,
  around,
  atVersions,
  createProvider,
  generationOf,
  LATEST,
  p,
  setInventories,
  u,
} from './a-support.ts';

async function resourceClasses(pair: Pair): Promise<void> {
  const req = (title: string, request: PairRequest) => pair.req(title, request);
  await atVersions(pair, 'list classes', around('1.2', '1.7', '1.15'), {
    method: 'GET',
    path: '/resource_classes',
  });
  await atVersions(pair, 'show VCPU', around('1.2', '1.15'), {
    method: 'GET',
    path: '/resource_classes/VCPU',
  });
  for (const name of ['CUSTOM_NOPE', 'NOPE', 'vcpu']) {
    await req(`show ${name}`, {
      method: 'GET',
      path: `/resource_classes/${name}`,
      version: LATEST,
    });
  }
  const post = (title: string, body: unknown, version = LATEST) =>
    req(title, { method: 'POST', path: '/resource_classes', version, body });
  await post('create @1.1', { name: 'CUSTOM_EARLY' }, '1.1');
  await post('create @1.2', { name: 'CUSTOM_A' }, '1.2');
  await post('create @latest', { name: 'CUSTOM_B' });
  for (const version of ['1.2', '1.22', '1.23']) {
    await post(`duplicate @${version}`, { name: 'CUSTOM_A' }, version);
  }
  await post('standard name', { name: 'VCPU' });
  const bad: [string, unknown][] = [
    ['no prefix', { name: 'FOO' }],
    ['lower case', { name: 'CUSTOM_a' }],
    ['just the prefix', { name: 'CUSTOM_' }],
    ['dash', { name: 'CUSTOM_A-B' }],
    ['255 long', { name: `CUSTOM_${'X'.repeat(248)}` }],
    ['256 long', { name: `CUSTOM_${'X'.repeat(249)}` }],
    ['no name', {}],
    ['name a number', { name: 1 }],
    ['extra field', { name: 'CUSTOM_C', x: 1 }],
  ];
  for (const [title, body] of bad) await post(title, body);
  await req('show custom @1.15', {
    method: 'GET',
    path: '/resource_classes/CUSTOM_A',
    version: '1.15',
  });
  // PUT renames up to 1.6, creates from 1.7.
  const put = (title: string, name: string, version: string, body?: unknown) =>
    req(title, { method: 'PUT', path: `/resource_classes/${name}`, version, body });
  await put('rename @1.6', 'CUSTOM_B', '1.6', { name: 'CUSTOM_B2' });
  await put('rename to a taken name @1.6', 'CUSTOM_B2', '1.6', { name: 'CUSTOM_A' });
  await put('rename unknown @1.6', 'CUSTOM_NOPE', '1.6', { name: 'CUSTOM_X' });
  await put('rename standard @1.6', 'VCPU', '1.6', { name: 'CUSTOM_VCPU' });
  await put('rename to bad name @1.6', 'CUSTOM_B2', '1.6', { name: 'B3' });
  await put('rename without body @1.6', 'CUSTOM_B2', '1.6');
  await put('create @1.7', 'CUSTOM_D', '1.7');
  await put('create again @1.7', 'CUSTOM_D', '1.7');
  await put('create with a body @1.7', 'CUSTOM_E', '1.7', { name: 'CUSTOM_F' });
  await put('standard @1.7', 'VCPU', '1.7');
  await put('bad name @1.7', 'NOT_CUSTOM', '1.7');
  await put('lower-case name @1.7', 'CUSTOM_lower', '1.7');
  await put('create @1.15', 'CUSTOM_G', '1.15');
  await put('again @1.15', 'CUSTOM_G', '1.15');
  await put('long name @1.7', `CUSTOM_${'Y'.repeat(249)}`, '1.7');
  await req('list after changes', { method: 'GET', path: '/resource_classes', version: LATEST });
  // Deletes: custom, standard, in use, unknown.
  await createProvider(pair, p(1), 'class user');
  await setInventories(pair, p(1), { CUSTOM_A: { total: 1 } });
  const del = (title: string, name: string, version = LATEST) =>
    req(title, { method: 'DELETE', path: `/resource_classes/${name}`, version });
  await del('delete in use', 'CUSTOM_A');
  await del('delete in use @1.23', 'CUSTOM_A', '1.23');
  await del('delete standard', 'VCPU');
  await del('delete unknown', 'CUSTOM_NOPE');
  await del('delete custom', 'CUSTOM_D');
  await del('delete custom again', 'CUSTOM_D');
  await del('delete @1.1', 'CUSTOM_G', '1.1');
}

async function traits(pair: Pair): Promise<void> {
  const req = (title: string, request: PairRequest) => pair.req(title, request);
  await atVersions(pair, 'list traits', around('1.6'), { method: 'GET', path: '/traits' });
  await atVersions(pair, 'show a standard trait', around('1.6', '1.15'), {
    method: 'GET',
    path: '/traits/HW_CPU_X86_AVX',
  });
  for (const name of ['CUSTOM_NOPE', 'NOPE', 'hw_cpu_x86_avx']) {
    await req(`show ${name}`, { method: 'GET', path: `/traits/${name}`, version: LATEST });
  }
  const put = (title: string, name: string, version = LATEST) =>
    req(title, { method: 'PUT', path: `/traits/${name}`, version });
  await put('create @1.6', 'CUSTOM_T1', '1.6');
  await put('again @1.6', 'CUSTOM_T1', '1.6');
  await put('create @1.15', 'CUSTOM_T2', '1.15');
  await put('again @1.15', 'CUSTOM_T2', '1.15');
  await put('create @1.5', 'CUSTOM_T3', '1.5');
  await put('standard name', 'HW_CPU_X86_AVX');
  await put('unknown standard-looking name', 'HW_NOPE');
  await put('lower case', 'CUSTOM_t');
  await put('just the prefix', 'CUSTOM_');
  await put('255 long', `CUSTOM_${'Z'.repeat(248)}`);
  await put('256 long', `CUSTOM_${'Z'.repeat(249)}`);
  await put('with a body', 'CUSTOM_T4');
  await req('show custom @1.15', { method: 'GET', path: '/traits/CUSTOM_T1', version: '1.15' });
  const list = (title: string, query: string, version = LATEST) =>
    req(`traits ${title}`, { method: 'GET', path: `/traits${query}`, version });
  await list('name in:', '?name=in:CUSTOM_T1,HW_CPU_X86_AVX,CUSTOM_NOPE');
  await list('name in: empty', '?name=in:');
  await list('name startswith CUSTOM_', '?name=startswith:CUSTOM_');
  await list('name startswith HW_CPU_X86_AV', '?name=startswith:HW_CPU_X86_AVX5');
  await list('name startswith nothing', '?name=startswith:');
  await list('name without prefix', '?name=CUSTOM_T1');
  await list('name bad prefix', '?name=is:CUSTOM_T1');
  await list('unknown parameter', '?foo=1');
  await createProvider(pair, p(2), 'trait holder');
  await createProvider(pair, p(3), 'trait holder 2');
  // A provider's traits.
  const rpTraits = (uuid: string) => `/resource_providers/${uuid}/traits`;
  await atVersions(pair, 'provider traits', around('1.6', '1.15'), {
    method: 'GET',
    path: rpTraits(p(2)),
  });
  await req('traits of unknown provider', {
    method: 'GET',
    path: rpTraits(p(99)),
    version: LATEST,
  });
  const set = (title: string, body: unknown, version = LATEST, uuid = p(2)) =>
    req(title, { method: 'PUT', path: rpTraits(uuid), version, body });
  let generation = await generationOf(pair, p(2));
  await set(
    'set traits @1.6',
    { resource_provider_generation: generation, traits: ['CUSTOM_T1', 'HW_CPU_X86_AVX'] },
    '1.6',
  );
  await set('stale generation', { resource_provider_generation: generation, traits: [] });
  await set(
    'stale generation @1.23',
    { resource_provider_generation: generation, traits: [] },
    '1.23',
  );
  generation = await generationOf(pair, p(2));
  await set('unknown trait', { resource_provider_generation: generation, traits: ['CUSTOM_NOPE'] });
  await set('unknown traits', {
    resource_provider_generation: generation,
    traits: ['CUSTOM_NOPE', 'CUSTOM_NADA'],
  });
  await set('duplicate traits', {
    resource_provider_generation: generation,
    traits: ['CUSTOM_T1', 'CUSTOM_T1'],
  });
  await set('bad trait name', { resource_provider_generation: generation, traits: ['bad'] });
  await set('no generation', { traits: [] });
  await set('no traits', { resource_provider_generation: generation });
  await set('traits not a list', { resource_provider_generation: generation, traits: 'CUSTOM_T1' });
  await set('generation null', { resource_provider_generation: null, traits: [] });
  await set('extra field', { resource_provider_generation: generation, traits: [], x: 1 });
  await set('unknown provider', { resource_provider_generation: 0, traits: [] }, LATEST, p(99));
  await set(
    'set @1.15',
    {
      resource_provider_generation: generation,
      traits: ['CUSTOM_T1', 'CUSTOM_T2', 'HW_CPU_X86_AVX'],
    },
    '1.15',
  );
  await set('set @1.5', { resource_provider_generation: generation, traits: [] }, '1.5');
  generation = await generationOf(pair, p(3));
  await set(
    'other provider',
    { resource_provider_generation: generation, traits: ['CUSTOM_T2'] },
    LATEST,
    p(3),
  );
  await list('associated', '?associated=true');
  await list('not associated, custom', '?associated=false&name=startswith:CUSTOM_');
  await list('associated bad', '?associated=yes');
  await list('associated and in:', '?associated=true&name=in:CUSTOM_T1,CUSTOM_T4');
  await req('provider traits after set', { method: 'GET', path: rpTraits(p(2)), version: '1.15' });
  // Deletes.
  const del = (title: string, path: string, version = LATEST) =>
    req(title, { method: 'DELETE', path, version });
  await del('delete trait in use', '/traits/CUSTOM_T1');
  await del('delete trait in use @1.23', '/traits/CUSTOM_T1', '1.23');
  await del('delete standard trait', '/traits/HW_CPU_X86_AVX');
  await del('delete unknown trait', '/traits/CUSTOM_NOPE');
  await del('delete free trait', '/traits/CUSTOM_T4');
  await del('delete it again', '/traits/CUSTOM_T4');
  await del('delete @1.5', '/traits/CUSTOM_T2', '1.5');
  await del('delete provider traits @1.5', rpTraits(p(2)), '1.5');
  await del('delete provider traits', rpTraits(p(2)));
  await del('delete provider traits again', rpTraits(p(2)));
  await del('delete traits of unknown provider', rpTraits(p(99)));
  await req('generation after delete', {
    method: 'GET',
    path: `/resource_providers/${p(2)}`,
    version: LATEST,
  });
  await del('delete trait no longer used', '/traits/CUSTOM_T1');
}

async function usedClass(pair: Pair): Promise<void> {
  await createProvider(pair, p(4), 'class in allocations');
  await pair.req('class for allocations', {
    method: 'PUT',
    path: '/resource_classes/CUSTOM_USED',
    version: LATEST,
  });
  await setInventories(pair, p(4), { CUSTOM_USED: { total: 4 } });
  await allocate(pair, u(1), { [p(4)]: { CUSTOM_USED: 1 } });
  await pair.req('delete class with allocations', {
    method: 'DELETE',
    path: '/resource_classes/CUSTOM_USED',
    version: LATEST,
  });
}

export const aClassesTraits = {
  name: 'a-classes-traits',
  async run(pair: Pair) {
    await resourceClasses(pair);
    await traits(pair);
    await usedClass(pair);
  },
};
