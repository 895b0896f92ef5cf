/**
 * No bad input gets a 5xx: every route of the API, with every method, is sent malformed and
 * mistyped path segments, bodies, query parameters and version headers, against a database
 * holding a node, a port, a port group and a chassis; every answer must be below 500 and in
 * the service's error format. A 500 here is a bug (the catch-all answers it as the real one
 * does, but nothing should reach it). A seeded random walk (fast-check) adds combinations.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import Fastify from 'fastify';
import { registerRoutes } from '../../../src/baremetal/api/routes.ts';
import { type BatonApi, startBatonApi } from './support/baton-api.ts';

interface Route {
  readonly url: string;
  readonly methods: readonly string[];
}

/** The API's routes, read by registering them on a bare Fastify instance. */
async function apiRoutes(): Promise<Route[]> {
  const app = Fastify({ exposeHeadRoutes: false });
  const routes: Route[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    routes.push({ url: route.url, methods: methods as string[] });
  });
  registerRoutes(app);
  await app.ready();
  await app.close();
  return routes;
}

const SEGMENTS = [
  'x',
  'a b',
  '%00',
  '%ff',
  '..',
  '-1',
  '0',
  '99999999999999999999',
  'detail',
  'ports',
  '00000000-0000-0000-0000-000000000000',
  'é'.repeat(300),
  'n'.repeat(256),
  'CUSTOM_X',
  '52:54:00:00:00:01',
];

const BODIES: readonly (string | undefined)[] = [
  undefined,
  '',
  '{',
  'null',
  '1',
  '"s"',
  '[]',
  '{}',
  '[1]',
  '[{}]',
  '[{"op":"add"}]',
  '[{"op":"remove","path":"/"}]',
  '[{"op":"add","path":"/extra/a/b/c","value":1}]',
  '[{"op":"replace","path":"/name","value":null}]',
  '[{"op":"replace","path":"/properties","value":"x"}]',
  '{"target":null}',
  '{"target":1}',
  '{"target":"active","configdrive":[]}',
  '{"target":"clean","clean_steps":"x"}',
  '{"target":"clean","clean_steps":[1]}',
  '{"target":"rescue","rescue_password":1}',
  '{"traits":[1]}',
  '{"driver":"fake-hardware","properties":{"cpus":-1}}',
  '{"driver":"fake-hardware","name":1}',
  '{"driver":"fake-hardware","chassis_uuid":"x"}',
  '{"node_uuid":null,"address":null}',
  '{"node_uuid":"00000000-0000-0000-0000-000000000000","address":"52:54:00:00:00:01"}',
  '{"boot_device":null}',
  '{"id":null}',
  '{"reason":{}}',
  `{"deep":${'['.repeat(200)}${']'.repeat(200)}}`,
];

const QUERIES = [
  '',
  '?limit=x',
  '?limit=-1&marker=x',
  '?fields=&detail=x',
  '?sort_key=%00',
  '?node=%00&address=x',
  '?limit=1&limit=2&fields=a&fields=b',
  '?provision_state=&fault=&conductor=x',
  '?reset_interfaces=x',
  '?timeout=1e9',
];

const VERSIONS = [undefined, '1.1', '1.80', 'latest', '1.81', 'x'];

describe('bad input never gets a 5xx', () => {
  let api: BatonApi;
  let routes: Route[];
  const fill: Record<string, string> = {};

  before(async () => {
    api = await startBatonApi();
    routes = await apiRoutes();
    const headers = {
      'X-OpenStack-Ironic-API-Version': '1.80',
      'Content-Type': 'application/json',
    };
    const post = async (url: string, body: unknown) =>
      (
        await api.request({ method: 'POST', url, headers, payload: JSON.stringify(body) })
      ).json() as {
        uuid: string;
      };
    const node = await post('/v1/nodes', { driver: 'fake-hardware', name: 'walked' });
    const chassis = await post('/v1/chassis', {});
    const group = await post('/v1/portgroups', { node_uuid: node.uuid, name: 'walked-pg' });
    const port = await post('/v1/ports', { node_uuid: node.uuid, address: '52:54:00:00:00:77' });
    Object.assign(fill, {
      node: node.uuid,
      chassis_uuid: chassis.uuid,
      portgroup: group.uuid,
      port: port.uuid,
      driver_name: 'fake-hardware',
      hostname: '127.0.0.1',
      trait: 'CUSTOM_WALK',
      vif: 'vif-1',
      extra: 'name',
    });
  });
  after(() => api.close());

  async function check(method: string, url: string, body?: string, version?: string) {
    const headers: Record<string, string> = {};
    if (version !== undefined) headers['X-OpenStack-Ironic-API-Version'] = version;
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await api.request({
      method: method as 'GET',
      url,
      headers,
      ...(body === undefined ? {} : { payload: body }),
    });
    const where = `${method} ${url} ${body ?? ''} at ${version ?? '-'}`;
    assert.ok(response.statusCode < 500, `${where}: ${response.statusCode} ${response.body}`);
    if (response.statusCode >= 400 && method !== 'HEAD' && !url.startsWith('/healthcheck')) {
      const parsed = JSON.parse(response.body) as { error_message?: unknown };
      assert.equal(typeof parsed.error_message, 'string', `${where}: ${response.body}`);
    }
  }

  /** A route's URL with its parameters set to the known resources, or to `segment`. */
  const urlOf = (route: Route, segment?: string) =>
    route.url.replace(/:(\w+)/g, (_, name: string) =>
      encodeURIComponent(segment ?? fill[name] ?? name),
    );

  it('walks every route and method with each body, and each segment', async () => {
    assert.ok(routes.length > 40, `${routes.length} routes`);
    for (const route of routes) {
      for (const method of route.methods) {
        if (method === 'DELETE' && route.url.includes(':')) continue; // keep the data
        for (const body of BODIES) await check(method, urlOf(route), body, '1.80');
        if (route.url.includes(':')) {
          for (const segment of SEGMENTS) await check(method, urlOf(route, segment), '{}', '1.80');
        }
      }
    }
  });

  it('walks every GET with each query and version', async () => {
    for (const route of routes.filter((r) => r.methods.includes('GET'))) {
      for (const query of QUERIES) {
        for (const version of VERSIONS)
          await check('GET', `${urlOf(route)}${query}`, undefined, version);
      }
    }
  });

  it('survives a seeded random walk of combinations', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.constantFrom('GET', 'PUT', 'POST', 'PATCH'),
        fc.option(fc.constantFrom(...SEGMENTS), { nil: undefined }),
        fc.oneof(fc.constantFrom(...BODIES), fc.json()),
        fc.constantFrom(...QUERIES),
        fc.constantFrom(...VERSIONS),
        async (route, method, segment, body, query, version) => {
          await check(method, `${urlOf(route, segment)}${query}`, body, version);
        },
      ),
      { numRuns: 400, seed: 1013 },
    );
  });
});
