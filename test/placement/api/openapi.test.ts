/**
 * Placement's OpenAPI documents: valid OpenAPI 3.1 at every microversion, the same routes as
 * the app registers, version facts of the reference (traits from 1.6, consumer_type from
 * 1.38…), each gated route refused just below its gate, and real answers (through the app,
 * on SQLite: the document does not depend on the backend) matching the document's schemas.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Database } from '../../../src/db/index.ts';
import { buildPlacementApp } from '../../../src/placement/api/app.ts';
import {
  PLACEMENT_OPENAPI,
  placementOpenApi,
} from '../../../src/placement/api/openapi-operations.ts';
import { registerOpenApiRoute } from '../../../src/placement/api/openapi-route.ts';
import { registerRoot } from '../../../src/placement/api/root.ts';
import { RESOURCE_ROUTES } from '../../../src/placement/api/routes.ts';
import { PLACEMENT_VERSIONS } from '../../../src/placement/api/versions.ts';
import { defaultPlacementConfig } from '../../../src/placement/config.ts';
import { createPolicyEnforcer } from '../../../src/placement/policy/index.ts';
import { preparePlacementDatabase } from '../../../src/placement/store/prepare-database.ts';
import { ResourceClassCache } from '../../../src/placement/store/resource-class-cache.ts';
import type { PlacementTables } from '../../../src/placement/store/tables.ts';
import { createScratchDatabase } from '../../db/support/backends.ts';
import { bodyProblem, errorBodyProblem, openApiProblems } from '../../support/openapi-documents.ts';
import { PlacementTestClient } from '../support/placement-api.ts';

const paths = (version: string) => Object.keys(placementOpenApi(version).paths);
const operation = (version: string, path: string, method: string) =>
  placementOpenApi(version).paths[path]?.[method];
const queryNames = (version: string, path: string, method: string) => {
  const document = placementOpenApi(version);
  return (operation(version, path, method).parameters as { name?: string; $ref?: string }[])
    .map((p) => p.name ?? document.components.parameters[p.$ref?.split('/').pop() ?? '']?.name)
    .filter((name) => name !== undefined);
};
const bodyFields = (version: string, path: string, method: string): string[] => {
  const schema = operation(version, path, method).requestBody.content['application/json'].schema;
  // A consumer's section in a POST /allocations body, or a PUT body itself.
  const section = schema.patternProperties
    ? (Object.values(schema.patternProperties)[0] as { properties: object })
    : schema;
  return Object.keys(section.properties);
};

/** The (method, path) pairs the app answers with a handler of their own (not the 405s). */
function registeredRoutes(): string[] {
  // As the app declares them: HEAD is a method of its own (a 405), not GET's shadow.
  const app = Fastify({ exposeHeadRoutes: false });
  const routes: string[] = [];
  app.addHook('onRoute', (route) => {
    if (typeof route.method !== 'string') return;
    routes.push(`${route.method.toLowerCase()} ${route.url.replace(/:(\w+)/g, '{$1}')}`);
  });
  registerRoot(app);
  registerOpenApiRoute(app);
  for (const register of RESOURCE_ROUTES) register(app);
  return routes.sort();
}

describe('Placement OpenAPI documents', () => {
  test('every microversion has a valid OpenAPI 3.1 document', async () => {
    for (const version of PLACEMENT_VERSIONS) {
      const document = placementOpenApi(version);
      assert.deepEqual(await openApiProblems(document), [], version);
      assert.equal(document.info.version, version);
    }
  });

  test('the documents list the routes the app registers, no more, no less', () => {
    const documented = PLACEMENT_OPENAPI.operations.map((o) => `${o.method} ${o.path}`).sort();
    assert.deepEqual(documented, registeredRoutes());
  });

  test('routes appear at the version that brought them', () => {
    assert.ok(!paths('1.0').includes('/traits'));
    assert.ok(paths('1.6').includes('/traits'));
    assert.ok(paths('1.6').includes('/resource_providers/{uuid}/traits'));
    assert.ok(!paths('1.0').includes('/resource_providers/{uuid}/aggregates'));
    assert.ok(paths('1.1').includes('/resource_providers/{uuid}/aggregates'));
    assert.ok(!paths('1.1').includes('/resource_classes'));
    assert.ok(paths('1.2').includes('/resource_classes'));
    assert.equal(operation('1.4', '/resource_providers/{uuid}/inventories', 'delete'), undefined);
    assert.ok(operation('1.5', '/resource_providers/{uuid}/inventories', 'delete'));
    assert.ok(!paths('1.8').includes('/usages') && paths('1.9').includes('/usages'));
    assert.ok(!paths('1.9').includes('/allocation_candidates'));
    assert.ok(paths('1.10').includes('/allocation_candidates'));
    assert.equal(operation('1.12', '/allocations', 'post'), undefined);
    assert.ok(operation('1.13', '/allocations', 'post'));
    assert.ok(!paths('1.29').includes('/reshaper') && paths('1.30').includes('/reshaper'));
  });

  test('bodies, query parameters and answers change at their versions', () => {
    const put = '/allocations/{consumer_uuid}';
    assert.ok(!bodyFields('1.7', put, 'put').includes('project_id'));
    assert.ok(bodyFields('1.8', put, 'put').includes('project_id'));
    assert.ok(!bodyFields('1.27', put, 'put').includes('consumer_generation'));
    assert.ok(bodyFields('1.28', put, 'put').includes('consumer_generation'));
    assert.ok(!bodyFields('1.37', put, 'put').includes('consumer_type'));
    assert.ok(bodyFields('1.38', put, 'put').includes('consumer_type'));
    assert.ok(bodyFields('1.38', '/allocations', 'post').includes('consumer_type'));
    const shown = (version: string) =>
      Object.keys(
        operation(version, put, 'get').responses['200'].content['application/json'].schema
          .properties,
      );
    assert.ok(!shown('1.37').includes('consumer_type'));
    assert.ok(shown('1.38').includes('consumer_type'));
    assert.ok(!queryNames('1.37', '/usages', 'get').includes('consumer_type'));
    assert.ok(queryNames('1.38', '/usages', 'get').includes('consumer_type'));
    assert.ok(!queryNames('1.15', '/allocation_candidates', 'get').includes('limit'));
    assert.ok(queryNames('1.16', '/allocation_candidates', 'get').includes('limit'));
    assert.ok(!queryNames('1.17', '/resource_providers', 'get').includes('required'));
    assert.ok(queryNames('1.18', '/resource_providers', 'get').includes('required'));
    const patterns = (version: string) =>
      operation(version, '/allocation_candidates', 'get')['x-pattern-query-parameters'];
    assert.equal(patterns('1.24'), undefined);
    assert.ok(
      patterns('1.25').some((p: { pattern: string }) => p.pattern.startsWith('^resources')),
    );
    const created = (version: string) =>
      Object.keys(operation(version, '/resource_providers', 'post').responses);
    assert.deepEqual(created('1.19'), ['201', 'default']);
    assert.deepEqual(created('1.20'), ['200', 'default']);
  });

  test('the error format is the API-SIG one, the version header documented', () => {
    const document = placementOpenApi('1.39');
    assert.deepEqual(document.components.schemas.Error.required, ['errors']);
    assert.deepEqual(document.components.schemas.Error.properties.errors.items.required, [
      'status',
      'title',
      'detail',
    ]);
    assert.equal(document.components.parameters.microversion.name, 'OpenStack-API-Version');
    assert.equal(document.components.parameters.microversion.example, 'placement 1.39');
  });
});

describe('Placement OpenAPI documents against the app [sqlite]', () => {
  let app: FastifyInstance;
  let database: Database<PlacementTables>;
  let drop: () => Promise<void>;
  let api: PlacementTestClient;

  before(async () => {
    const scratch = await createScratchDatabase('sqlite');
    drop = scratch.drop;
    const config = defaultPlacementConfig(scratch.url);
    database = await preparePlacementDatabase(config.databaseUrl, { poolSize: 2 });
    const policy = await createPolicyEnforcer(config);
    app = await buildPlacementApp({
      services: { db: database, config, policy, resourceClasses: new ResourceClassCache() },
    });
    api = new PlacementTestClient(app);
  });
  after(async () => {
    await app?.close();
    await database?.close();
    await drop?.();
  });

  /** A request whose answer must be one the document lists, with a body matching it. */
  async function checked(
    version: string,
    method: 'GET' | 'PUT' | 'POST' | 'DELETE',
    template: string,
    url: string,
    body?: unknown,
  ) {
    const response = await api.request(method, url, body, { version });
    assert.ok(response.status < 300, `${method} ${url} at ${version}: ${response.text}`);
    const problem = bodyProblem(
      placementOpenApi(version),
      { path: template, method: method.toLowerCase(), status: response.status },
      response.body,
    );
    assert.equal(problem, undefined, `${method} ${url} at ${version}: ${response.text}`);
    return response;
  }

  test('serves each document without a token; an unknown one is a 404 in its format', async () => {
    const served = await api.get('/openapi/1.39.json', { token: null });
    assert.equal(served.status, 200);
    assert.equal(served.headers['content-type'], 'application/json');
    const committed = join(import.meta.dirname, '../../../docs/openapi/placement/1.39.json');
    assert.equal(served.text, readFileSync(committed, 'utf8'));
    // Other paths want one (noauth2 answers 401 without it).
    assert.equal((await api.get('/resource_providers', { token: null })).status, 401);
    const old = await api.get('/openapi/1.0.json', { token: null, version: '1.39' });
    assert.equal(old.body.info.version, '1.0');
    for (const file of ['1.40.json', 'latest.json', '1.39']) {
      const missing = await api.get(`/openapi/${file}`, { token: null, version: '1.39' });
      assert.equal(missing.status, 404, file);
      assert.equal(missing.body.errors[0].status, 404);
      assert.equal(missing.body.errors[0].code, 'placement.undefined_code');
      assert.match(missing.body.errors[0].detail, /No OpenAPI document/);
    }
    const post = await api.post('/openapi/1.39.json', {}, { token: null });
    assert.equal(post.status, 405);
  });

  test('errors at 1.0 and 1.39 match the documented error body', async () => {
    for (const version of ['1.0', '1.39']) {
      const document = placementOpenApi(version);
      const answers = [
        await api.get(`/resource_providers/${randomUUID()}`, { version }),
        await api.post('/resource_providers', { nom: 'x' }, { version }),
        await api.request('PATCH', '/resource_providers', undefined, { version }),
      ];
      for (const answer of answers) {
        assert.ok(answer.status >= 400, answer.text);
        assert.equal(errorBodyProblem(document, answer.body), undefined, answer.text);
      }
      assert.notEqual(errorBodyProblem(document, { error_message: 'x' }), undefined);
    }
  });

  test('each route with a gate answers as absent just below it', async () => {
    for (const op of PLACEMENT_OPENAPI.operations) {
      if (op.since === undefined) continue;
      const below = PLACEMENT_VERSIONS[PLACEMENT_VERSIONS.indexOf(op.since.text as never) - 1];
      assert.ok(below !== undefined);
      const url = op.path.replace(/\{(\w+)\}/g, (_, name: string) =>
        name === 'name' || name === 'resource_class' ? 'CUSTOM_OPENAPI' : randomUUID(),
      );
      const method = op.method.toUpperCase() as 'GET' | 'PUT' | 'POST' | 'DELETE';
      const body = method === 'PUT' || method === 'POST' ? {} : undefined;
      const response = await api.request(method, url, body, { version: below });
      // The real service answers 405 to DELETE of all inventories below 1.5.
      const absent = op.path.endsWith('/inventories') ? 405 : 404;
      assert.equal(response.status, absent, `${op.method} ${op.path} at ${below}`);
    }
  });

  test('each GET with a gate answers at its gate (and as absent just below)', async () => {
    const uuid = randomUUID();
    const made = await api.post(
      '/resource_providers',
      { name: `gated-${uuid}`, uuid },
      {
        version: '1.39',
      },
    );
    assert.ok(made.status < 300);
    // A URL per gated GET, naming things that exist; a new gated GET needs its line here.
    const urls: Record<string, string> = {
      '/resource_providers/{uuid}/aggregates': `/resource_providers/${uuid}/aggregates`,
      '/resource_classes': '/resource_classes',
      '/resource_classes/{name}': '/resource_classes/VCPU',
      '/traits': '/traits',
      '/traits/{name}': '/traits/HW_CPU_X86_SSE',
      '/resource_providers/{uuid}/traits': `/resource_providers/${uuid}/traits`,
      '/usages': `/usages?project_id=${randomUUID()}`,
      '/allocation_candidates': '/allocation_candidates?resources=VCPU:1',
    };
    const gated = PLACEMENT_OPENAPI.operations.filter(
      (op) => op.method === 'get' && op.since !== undefined,
    );
    assert.deepEqual(gated.map((op) => op.path).sort(), Object.keys(urls).sort());
    for (const op of gated) {
      const since = op.since?.text as string;
      const url = urls[op.path] as string;
      const at = await api.get(url, { version: since });
      assert.ok(at.status === 200 || at.status === 204, `${url} at ${since}: ${at.text}`);
      const below = PLACEMENT_VERSIONS[PLACEMENT_VERSIONS.indexOf(since as never) - 1] as string;
      assert.equal((await api.get(url, { version: below })).status, 404, `${url} at ${below}`);
    }
  });

  test('real answers at 1.0, 1.10, 1.14, 1.28 and 1.39 match the documents', async () => {
    for (const version of ['1.0', '1.10', '1.14', '1.28', '1.39']) {
      const at = Number(version.split('.')[1]);
      const uuid = randomUUID();
      await checked(version, 'GET', '/', '/');
      await checked(version, 'POST', '/resource_providers', '/resource_providers', {
        name: `rp-${uuid}`,
        uuid,
      });
      await checked(version, 'GET', '/resource_providers', '/resource_providers');
      const shown = await checked(
        version,
        'GET',
        '/resource_providers/{uuid}',
        `/resource_providers/${uuid}`,
      );
      const inventories = `/resource_providers/${uuid}/inventories`;
      await checked(version, 'PUT', '/resource_providers/{uuid}/inventories', inventories, {
        resource_provider_generation: shown.body.generation,
        inventories: { VCPU: { total: 8 }, MEMORY_MB: { total: 4096 } },
      });
      await checked(version, 'GET', '/resource_providers/{uuid}/inventories', inventories);
      await checked(
        version,
        'GET',
        '/resource_providers/{uuid}/inventories/{resource_class}',
        `${inventories}/VCPU`,
      );
      const consumer = randomUUID();
      const owner = { project_id: randomUUID(), user_id: randomUUID() };
      const allocation =
        at < 12
          ? {
              allocations: [{ resource_provider: { uuid }, resources: { VCPU: 1 } }],
              ...(at >= 8 ? owner : {}),
            }
          : {
              allocations: { [uuid]: { resources: { VCPU: 1 } } },
              ...owner,
              ...(at >= 28 ? { consumer_generation: null } : {}),
              ...(at >= 38 ? { consumer_type: 'INSTANCE' } : {}),
            };
      await checked(
        version,
        'PUT',
        '/allocations/{consumer_uuid}',
        `/allocations/${consumer}`,
        allocation,
      );
      const read = await checked(
        version,
        'GET',
        '/allocations/{consumer_uuid}',
        `/allocations/${consumer}`,
      );
      if (at >= 38) assert.equal(read.body.consumer_type, 'INSTANCE');
      await checked(
        version,
        'GET',
        '/resource_providers/{uuid}/allocations',
        `/resource_providers/${uuid}/allocations`,
      );
      await checked(
        version,
        'GET',
        '/resource_providers/{uuid}/usages',
        `/resource_providers/${uuid}/usages`,
      );
      if (at >= 1) {
        await checked(
          version,
          'GET',
          '/resource_providers/{uuid}/aggregates',
          `/resource_providers/${uuid}/aggregates`,
        );
      }
      if (at >= 6) {
        await checked(version, 'GET', '/traits', '/traits?name=startswith:HW_CPU_X86_SSE');
        await checked(
          version,
          'GET',
          '/resource_providers/{uuid}/traits',
          `/resource_providers/${uuid}/traits`,
        );
        await checked(version, 'GET', '/resource_classes', '/resource_classes');
      }
      if (at >= 10) {
        await checked(
          version,
          'GET',
          '/allocation_candidates',
          '/allocation_candidates?resources=VCPU:1',
        );
        await checked(version, 'GET', '/usages', `/usages?project_id=${owner.project_id}`);
      }
      await checked(version, 'DELETE', '/allocations/{consumer_uuid}', `/allocations/${consumer}`);
    }
  });
});
