/**
 * The envelope every endpoint shares: microversion negotiation (every header form the real
 * parser accepts or refuses), noauth2, routing (404, 405 with Allow, HEAD), content types
 * (415, 400 for a body without a type), and how each kind of error is worded for each Accept.
 */
import type { Pair, PairRequest } from '../pair.ts';
import { LATEST, p } from './a-support.ts';

const VERSION_TEXTS = [
  '1.0',
  '1.39',
  'latest',
  '1.40',
  '0.9',
  '2.0',
  '-1.5',
  '01.05',
  '1.05',
  '+1.5',
  '1_0.5',
  '1.1_0',
  '1__0.5',
  'garbage',
  '1.2.3',
  '1',
  '1.',
  '.5',
  'LATEST',
  '1.5 extra',
  "a'b.c",
  '1. 5',
  'latest ',
  '0.0',
  '1.-1',
];

const VERSION_HEADERS = [
  'compute 2.1',
  'compute 2.1, placement 1.20',
  'placement 1.20, compute 2.1',
  'placement 1.20, placement 1.21',
  'PLACEMENT 1.20',
  'placement',
  'placement  1.20',
  'placement 1.20,',
  ',placement 1.20',
  'placement 1.40, placement 1.20',
  'placement 1.20, placement 1.40',
];

/** Each route with one method it does not have. */
const ROUTES: [string, string][] = [
  ['/', 'POST'],
  ['/resource_classes', 'PUT'],
  ['/resource_classes/CUSTOM_X', 'POST'],
  ['/resource_providers', 'PUT'],
  ['/resource_providers', 'DELETE'],
  [`/resource_providers/${p(99)}`, 'POST'],
  [`/resource_providers/${p(99)}/inventories`, 'PATCH'],
  [`/resource_providers/${p(99)}/inventories/VCPU`, 'POST'],
  [`/resource_providers/${p(99)}/usages`, 'PUT'],
  [`/resource_providers/${p(99)}/aggregates`, 'DELETE'],
  [`/resource_providers/${p(99)}/allocations`, 'PUT'],
  [`/resource_providers/${p(99)}/traits`, 'POST'],
  ['/allocations', 'GET'],
  [`/allocations/${p(98)}`, 'POST'],
  ['/allocation_candidates', 'POST'],
  ['/traits', 'PUT'],
  ['/traits/CUSTOM_X', 'POST'],
  ['/usages', 'DELETE'],
  ['/reshaper', 'GET'],
];

const UNKNOWN_PATHS = [
  `/resource_providers/${p(99)}%2Finventories`,
  '/traits/CUSTOM_%E2%98%83',
  '/resource_classes/VCPU%00',
  '/traits/CUSTOM_%00',
  '/reso%75rce_classes/VCPU',
  '/resource_classes/CUSTOM%5FX',
  '/nothing-here',
  '/resource_providers/',
  `/resource_providers/${p(99)}/`,
  `/resource_providers/${p(99)}/nothing`,
  '/traits/',
  '//resource_providers',
  '/resource_classes/CUSTOM_X/extra',
  '/placement',
  '/v1/resource_providers',
];

/** One request per kind of error, each answered by a different layer of the real service. */
const ERROR_KINDS: [string, PairRequest][] = [
  ['no token', { method: 'GET', path: '/resource_providers', token: null }],
  ['bad version', { method: 'GET', path: '/resource_providers', version: '1.2.3' }],
  ['version out of range', { method: 'GET', path: '/resource_providers', version: '1.99' }],
  ['unknown path', { method: 'GET', path: '/nothing', version: LATEST }],
  ['unknown provider', { method: 'GET', path: `/resource_providers/${p(99)}`, version: LATEST }],
  ['bad query', { method: 'GET', path: '/resource_providers?bogus=1', version: LATEST }],
  ['method', { method: 'PATCH', path: '/traits', version: LATEST }],
  [
    'media type',
    {
      method: 'POST',
      path: '/resource_providers',
      version: LATEST,
      body: '{"name": "x"}',
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    },
  ],
  ['policy', { method: 'GET', path: '/resource_providers', version: LATEST, token: 'demo' }],
  ['bad json', { method: 'POST', path: '/resource_providers', version: LATEST, body: '{"name": ' }],
  [
    'conflict',
    {
      method: 'PUT',
      path: `/resource_providers/${p(1)}/traits`,
      version: LATEST,
      body: { resource_provider_generation: 99, traits: [] },
    },
  ],
];

const ACCEPTS = [
  'application/json',
  'text/plain',
  'text/html',
  'application/xml',
  '*/*;q=0.5',
  'text/*',
  'application/*',
  'garbage',
  'application/json;q=0, text/plain',
  'text/html;q=0.5, application/json',
  'application/json, text/html',
  'text/html, application/json',
  'application/json;q=0.001',
  '*/*, application/json;q=0',
];

async function versions(pair: Pair): Promise<void> {
  await pair.req('root without token', { method: 'GET', path: '/', token: null });
  await pair.req('root with an empty path', { method: 'GET', path: '', token: null });
  for (const v of ['latest', '1.0', '1.14', '1.15', '1.40', 'garbage']) {
    await pair.req(`root @${v}`, { method: 'GET', path: '/', version: v, token: null });
  }
  await pair.req('root not acceptable', {
    method: 'GET',
    path: '/',
    headers: { accept: 'text/plain' },
  });
  for (const v of VERSION_TEXTS) {
    await pair.req(`version ${JSON.stringify(v)}`, {
      method: 'GET',
      path: '/resource_providers',
      version: v,
    });
  }
  for (const h of VERSION_HEADERS) {
    await pair.req(`version header ${JSON.stringify(h)}`, {
      method: 'GET',
      path: '/resource_providers',
      headers: { 'openstack-api-version': h },
    });
  }
  await pair.req('legacy version header is not read', {
    method: 'GET',
    path: '/resource_providers',
    headers: {
      'openstack-placement-api-version': '1.20',
      'x-openstack-placement-api-version': '1.20',
    },
  });
  await pair.req('bad version on an unknown path', {
    method: 'GET',
    path: '/nothing',
    version: '1.99',
  });
  await pair.req('bad version without a token', {
    method: 'GET',
    path: '/resource_providers',
    version: 'garbage',
    token: null,
  });
}

async function auth(pair: Pair): Promise<void> {
  await pair.req('empty token', { method: 'GET', path: '/resource_providers', token: '' });
  await pair.req('no token, unknown path', { method: 'GET', path: '/nothing', token: null });
  await pair.req('no token, 1.23', {
    method: 'GET',
    path: '/resource_providers',
    token: null,
    version: '1.23',
  });
  const reads: [string, string | null, Record<string, string>][] = [
    ['non-admin', 'demo', {}],
    ['non-admin with project', 'demo:proj', {}],
    ['X-Roles admin', 'demo', { 'x-roles': 'admin' }],
    ['X-Roles spaced', 'demo', { 'x-roles': 'member, admin' }],
    ['X-Roles empty', 'admin', { 'x-roles': '' }],
    ['X-Roles reader', 'demo', { 'x-roles': 'reader' }],
    ['system reader', 'demo', { 'x-roles': 'reader', 'openstack-system-scope': 'all' }],
    ['system admin', 'demo', { 'x-roles': 'admin', 'openstack-system-scope': 'all' }],
    ['admin token, member role', 'admin', { 'x-roles': 'member' }],
  ];
  for (const [title, token, headers] of reads) {
    for (const version of ['1.22', LATEST]) {
      await pair.req(`${title} lists providers @${version}`, {
        method: 'GET',
        path: '/resource_providers',
        version,
        token,
        headers,
      });
    }
    await pair.req(`${title} reads own usages`, {
      method: 'GET',
      path: '/usages?project_id=proj',
      version: '1.37',
      token,
      headers,
    });
    await pair.req(`${title} creates a provider`, {
      method: 'POST',
      path: '/resource_providers',
      version: LATEST,
      token,
      headers,
      body: { name: `by ${title}` },
    });
  }
  await pair.req('project reader reads own usages', {
    method: 'GET',
    path: '/usages?project_id=proj',
    version: '1.37',
    token: 'demo:proj',
    headers: { 'x-roles': 'reader' },
  });
  await pair.req('project reader reads another project', {
    method: 'GET',
    path: '/usages?project_id=other',
    version: '1.37',
    token: 'demo:proj',
    headers: { 'x-roles': 'reader' },
  });
  await pair.req('X-Project-Id overrides the token', {
    method: 'GET',
    path: '/usages?project_id=other',
    version: '1.37',
    token: 'demo:proj',
    headers: { 'x-roles': 'reader', 'x-project-id': 'other' },
  });
  await pair.req('policy refusal on a write with a bad body', {
    method: 'PUT',
    path: '/traits/CUSTOM_X',
    version: LATEST,
    token: 'demo',
  });
}

async function routing(pair: Pair): Promise<void> {
  for (const [path, method] of ROUTES) {
    for (const version of ['1.0', LATEST]) {
      await pair.req(`${method} not allowed on ${path} @${version}`, { method, path, version });
    }
  }
  await pair.req('HEAD', { method: 'HEAD', path: '/resource_providers', version: LATEST });
  await pair.req('HEAD unknown', { method: 'HEAD', path: '/nothing', version: LATEST });
  await pair.req('OPTIONS', { method: 'OPTIONS', path: '/resource_providers', version: LATEST });
  await pair.req('405 without a token', { method: 'PATCH', path: '/traits', token: null });
  for (const path of UNKNOWN_PATHS) {
    await pair.req(`unknown ${path}`, { method: 'GET', path, version: LATEST });
  }
  await pair.req('unknown path with a query', {
    method: 'GET',
    path: '/nothing?x=1',
    version: '1.0',
  });
  await pair.req('query on root', { method: 'GET', path: '/?x=1', token: null });
}

async function bodies(pair: Pair): Promise<void> {
  const post = (title: string, extra: Partial<PairRequest>) =>
    pair.req(title, {
      method: 'POST',
      path: '/resource_providers',
      version: LATEST,
      body: '{"name": "body test"}',
      ...extra,
    });
  await post('no content type', { headers: { 'content-type': '' } });
  await post('text/plain', { headers: { 'content-type': 'text/plain' } });
  await post('json with charset', {
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: '{"name": "charset test"}',
  });
  await post('JSON upper case', {
    headers: { 'content-type': 'APPLICATION/JSON' },
    body: '{"name": "upper test"}',
  });
  await post('json+something', { headers: { 'content-type': 'application/json-patch+json' } });
  await post('empty content type with body', { headers: { 'content-type': ' ' } });
  await pair.req('no body, no content type', {
    method: 'POST',
    path: '/resource_providers',
    version: LATEST,
  });
  await pair.req('body without content type on an unknown path', {
    method: 'POST',
    path: '/nothing',
    version: LATEST,
    body: '{}',
    headers: { 'content-type': '' },
  });
  for (const raw of ['', '{', '[]', 'null', '"x"', '{"name": "a",}', '{"name": NaN}', '\ufeff{}']) {
    await post(`body ${JSON.stringify(raw)}`, { body: raw });
  }
}

async function accepts(pair: Pair): Promise<void> {
  // One provider for the conflict answers.
  await pair.req('provider for conflicts', {
    method: 'POST',
    path: '/resource_providers',
    version: LATEST,
    body: { uuid: p(1), name: 'conflicts' },
  });
  for (const [kind, request] of ERROR_KINDS) {
    for (const accept of ACCEPTS) {
      await pair.req(`${kind} with Accept ${accept}`, {
        ...request,
        headers: { ...request.headers, accept },
      });
    }
    for (const version of ['1.22', '1.23']) {
      if (request.version === undefined) continue;
      await pair.req(`${kind} @${version}`, { ...request, version });
    }
  }
  for (const accept of ACCEPTS) {
    await pair.req(`success with Accept ${accept}`, {
      method: 'GET',
      path: '/resource_providers',
      version: LATEST,
      headers: { accept },
    });
  }
}

/** Every route and method, with a body where it takes one, for the ordering of checks. */
const ENDPOINTS: [string, string, unknown][] = [
  ['GET', '/resource_classes', undefined],
  ['POST', '/resource_classes', { name: 'CUSTOM_P' }],
  ['GET', '/resource_classes/VCPU', undefined],
  ['PUT', '/resource_classes/CUSTOM_P', undefined],
  ['DELETE', '/resource_classes/CUSTOM_P', undefined],
  ['GET', '/resource_providers', undefined],
  ['POST', '/resource_providers', { name: 'policy' }],
  ['GET', `/resource_providers/${p(1)}`, undefined],
  ['PUT', `/resource_providers/${p(1)}`, { name: 'x' }],
  ['DELETE', `/resource_providers/${p(1)}`, undefined],
  ['GET', `/resource_providers/${p(1)}/inventories`, undefined],
  ['POST', `/resource_providers/${p(1)}/inventories`, { resource_class: 'VCPU', total: 1 }],
  [
    'PUT',
    `/resource_providers/${p(1)}/inventories`,
    { resource_provider_generation: 0, inventories: {} },
  ],
  ['DELETE', `/resource_providers/${p(1)}/inventories`, undefined],
  ['GET', `/resource_providers/${p(1)}/inventories/VCPU`, undefined],
  [
    'PUT',
    `/resource_providers/${p(1)}/inventories/VCPU`,
    { resource_provider_generation: 0, total: 1 },
  ],
  ['DELETE', `/resource_providers/${p(1)}/inventories/VCPU`, undefined],
  ['GET', `/resource_providers/${p(1)}/usages`, undefined],
  ['GET', `/resource_providers/${p(1)}/aggregates`, undefined],
  [
    'PUT',
    `/resource_providers/${p(1)}/aggregates`,
    { resource_provider_generation: 0, aggregates: [] },
  ],
  ['GET', `/resource_providers/${p(1)}/allocations`, undefined],
  ['GET', `/resource_providers/${p(1)}/traits`, undefined],
  ['PUT', `/resource_providers/${p(1)}/traits`, { resource_provider_generation: 0, traits: [] }],
  ['DELETE', `/resource_providers/${p(1)}/traits`, undefined],
  ['POST', '/allocations', {}],
  ['GET', `/allocations/${p(2)}`, undefined],
  [
    'PUT',
    `/allocations/${p(2)}`,
    { allocations: {}, project_id: 'p', user_id: 'u', consumer_generation: null },
  ],
  ['DELETE', `/allocations/${p(2)}`, undefined],
  ['GET', '/allocation_candidates?resources=VCPU:1', undefined],
  ['GET', '/traits', undefined],
  ['GET', '/traits/HW_CPU_X86_AVX', undefined],
  ['PUT', '/traits/CUSTOM_P', undefined],
  ['DELETE', '/traits/CUSTOM_P', undefined],
  ['GET', '/usages?project_id=x', undefined],
  ['POST', '/reshaper', {}],
];

/** Which check answers first: policy, version windows, Accept, content type. */
async function checkOrder(pair: Pair): Promise<void> {
  for (const [method, path, body] of ENDPOINTS) {
    const request = { method, path, body } as PairRequest;
    await pair.req(`policy ${method} ${path}`, { ...request, version: '1.37', token: 'demo' });
    await pair.req(`policy @1.0 ${method} ${path}`, { ...request, version: '1.0', token: 'demo' });
    if (method === 'GET') {
      await pair.req(`policy and Accept ${method} ${path}`, {
        ...request,
        version: '1.37',
        token: 'demo',
        headers: { accept: 'text/plain' },
      });
      await pair.req(`Accept @1.0 ${method} ${path}`, {
        ...request,
        version: '1.0',
        headers: { accept: 'text/plain' },
      });
    } else {
      await pair.req(`policy and media type ${method} ${path}`, {
        ...request,
        version: '1.37',
        token: 'demo',
        body: body === undefined ? '' : JSON.stringify(body),
        headers: { 'content-type': 'text/plain' },
      });
      await pair.req(`media type @1.0 ${method} ${path}`, {
        ...request,
        version: '1.0',
        body: body === undefined ? '' : JSON.stringify(body),
        headers: { 'content-type': 'text/plain' },
      });
    }
  }
}

export const aEnvelope = {
  name: 'a-envelope',
  async run(pair: Pair) {
    await versions(pair);
    await auth(pair);
    await routing(pair);
    await bodies(pair);
    await accepts(pair);
    await checkOrder(pair);
  },
};
