import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  appendVary,
  type MicroversionServerConfig,
  microversionPlugin,
  UNVERSIONED_ROUTE,
  VersionNegotiator,
} from '../../src/microversion/index.ts';
import { ironicConfig, ironicFault, placementConfig } from './fixtures/services.ts';

async function buildApp(config: MicroversionServerConfig): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(microversionPlugin, { negotiator: new VersionNegotiator(config) });
  app.get('/', async (request) => ({ root: request.microversion.text }));
  app.get('/things', async (request) => ({ servedAt: request.microversion.text }));
  app.get('/varied', async (_request, reply) => {
    appendVary(reply, 'Accept');
    return { ok: true };
  });
  app.get('/any', async (_request, reply) => {
    appendVary(reply, '*');
    return { ok: true };
  });
  app.get('/half', async (_request, reply) => {
    appendVary(reply, 'Accept, OpenStack-API-Version');
    return { ok: true };
  });
  app.get('/broken', async () => {
    throw new Error('boom');
  });
  app.get('/doc', { config: UNVERSIONED_ROUTE }, async (request) => ({
    servedAt: request.microversion.text,
  }));
  return app;
}

const MV = 'openstack-api-version';

async function placementGet(app: FastifyInstance, url: string, version?: string) {
  const headers = version === undefined ? {} : { [MV]: version };
  return app.inject({ method: 'GET', url, headers });
}

describe('Fastify plugin, Placement-like service', () => {
  test('no header: answered at the minimum, with version header and Vary', async (t) => {
    const app = await buildApp(placementConfig());
    t.after(() => app.close());
    const response = await placementGet(app, '/things');
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { servedAt: '1.0' });
    assert.equal(response.headers[MV], 'placement 1.0');
    assert.equal(response.headers.vary, 'openstack-api-version');
  });

  test('a version in range is exposed on the request and echoed', async (t) => {
    const app = await buildApp(placementConfig());
    t.after(() => app.close());
    const response = await placementGet(app, '/things', 'placement 1.20');
    assert.deepEqual(response.json(), { servedAt: '1.20' });
    assert.equal(response.headers[MV], 'placement 1.20');
  });

  test('latest is the max; service and header names are case-insensitive', async (t) => {
    const app = await buildApp(placementConfig());
    t.after(() => app.close());
    assert.equal((await placementGet(app, '/', 'placement latest')).headers[MV], 'placement 1.39');
    const shouted = await app.inject({
      method: 'GET',
      url: '/things',
      headers: { 'OPENSTACK-API-VERSION': 'PLACEMENT 1.4' },
    });
    assert.deepEqual(shouted.json(), { servedAt: '1.4' });
  });

  test('several services in one header, and the last duplicate wins', async (t) => {
    const app = await buildApp(placementConfig());
    t.after(() => app.close());
    const mixed = await placementGet(app, '/things', 'compute 2.1, placement 1.7');
    assert.deepEqual(mixed.json(), { servedAt: '1.7' });
    const twice = await placementGet(app, '/things', 'placement 1.5, placement 1.9');
    assert.deepEqual(twice.json(), { servedAt: '1.9' });
    const others = await placementGet(app, '/things', 'compute 2.1');
    assert.deepEqual(others.json(), { servedAt: '1.0' });
  });

  test('malformed: 400, API-SIG body showing X.Y and the range, headers still sent', async (t) => {
    const app = await buildApp(placementConfig());
    t.after(() => app.close());
    for (const value of ['placement 1.2.3', 'placement pony.horse', 'placement 1']) {
      const response = await placementGet(app, '/things', value);
      assert.equal(response.statusCode, 400, value);
      assert.match(response.headers['content-type'] as string, /application\/json/);
      const error = response.json().errors[0];
      assert.equal(error.status, 400);
      assert.equal(error.title, 'Bad Request');
      assert.match(error.detail, /invalid version string: /);
      assert.match(error.detail, /"X\.Y"/);
      assert.match(error.detail, /\[1\.0, 1\.39\]/);
      assert.equal(typeof error.request_id, 'string');
      assert.equal(response.headers[MV], 'placement 1.0');
      assert.equal(response.headers.vary, 'openstack-api-version');
    }
  });

  test('out of range: 406 with min_version and max_version in the error', async (t) => {
    const app = await buildApp(placementConfig());
    t.after(() => app.close());
    for (const value of ['placement 0.5', 'placement 1.40', 'placement 2.0']) {
      const response = await placementGet(app, '/things', value);
      assert.equal(response.statusCode, 406, value);
      const error = response.json().errors[0];
      assert.equal(error.title, 'Not Acceptable');
      assert.match(error.detail, /Unacceptable version header: /);
      assert.deepEqual([error.min_version, error.max_version], ['1.0', '1.39']);
      assert.equal(response.headers[MV], 'placement 1.0');
      assert.equal(response.headers.vary, 'openstack-api-version');
    }
  });

  test('the root document is versioned, as in Placement (406 for 0.5 on GET /)', async (t) => {
    const app = await buildApp(placementConfig());
    t.after(() => app.close());
    assert.equal((await placementGet(app, '/', 'placement 0.5')).statusCode, 406);
  });

  test('an unversioned route ignores bad versions but still gets the headers', async (t) => {
    const app = await buildApp(placementConfig());
    t.after(() => app.close());
    const bad = await placementGet(app, '/doc', 'placement 0.5');
    assert.equal(bad.statusCode, 200);
    assert.deepEqual(bad.json(), { servedAt: '1.0' });
    assert.equal(bad.headers[MV], 'placement 1.0');
    const good = await placementGet(app, '/doc', 'placement 1.12');
    assert.equal(good.headers[MV], 'placement 1.12');
  });

  test('the pin lowers max: latest, 406 above it, and the range in the error', async (t) => {
    const app = await buildApp(placementConfig({ pinnedMax: '1.30' }));
    t.after(() => app.close());
    assert.equal((await placementGet(app, '/', 'placement latest')).headers[MV], 'placement 1.30');
    assert.equal((await placementGet(app, '/', 'placement 1.30')).statusCode, 200);
    const above = await placementGet(app, '/', 'placement 1.31');
    assert.equal(above.statusCode, 406);
    assert.equal(above.json().errors[0].max_version, '1.30');
    assert.match(above.json().errors[0].detail, /\[1\.0, 1\.30\]/);
  });

  test('a route appends to Vary; errors and 404s carry the headers too', async (t) => {
    const app = await buildApp(placementConfig());
    t.after(() => app.close());
    const varied = await placementGet(app, '/varied', 'placement 1.3');
    assert.equal(varied.headers.vary, 'openstack-api-version, Accept');
    assert.equal((await placementGet(app, '/any')).headers.vary, '*');
    const broken = await placementGet(app, '/broken', 'placement 1.3');
    assert.equal(broken.statusCode, 500);
    assert.equal(broken.headers[MV], 'placement 1.3');
    const missing = await placementGet(app, '/nowhere', 'placement 1.3');
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.headers[MV], 'placement 1.3');
    assert.equal(missing.headers.vary, 'openstack-api-version');
  });
});

const LEGACY = 'x-openstack-ironic-api-version';
const MIN = 'x-openstack-ironic-api-minimum-version';
const MAX = 'x-openstack-ironic-api-maximum-version';

async function ironicGet(app: FastifyInstance, headers: Record<string, string>) {
  return app.inject({ method: 'GET', url: '/things', headers });
}

describe('Fastify plugin, Ironic-like service', () => {
  test('no header: the minimum, with version, min, max headers and Vary', async (t) => {
    const app = await buildApp(ironicConfig());
    t.after(() => app.close());
    const response = await ironicGet(app, {});
    assert.deepEqual(response.json(), { servedAt: '1.1' });
    assert.deepEqual(
      [response.headers[LEGACY], response.headers[MIN], response.headers[MAX]],
      ['1.1', '1.1', '1.82'],
    );
    assert.equal(response.headers.vary, 'openstack-api-version, x-openstack-ironic-api-version');
    assert.equal(response.headers[MV], undefined);
    // A handler's names are appended once; names already present are not repeated.
    const half = await app.inject({ method: 'GET', url: '/half' });
    assert.equal(
      half.headers.vary,
      'openstack-api-version, x-openstack-ironic-api-version, Accept',
    );
  });

  test('legacy header, standard header, and the standard one first when both are sent', async (t) => {
    const app = await buildApp(ironicConfig());
    t.after(() => app.close());
    assert.deepEqual((await ironicGet(app, { [LEGACY]: '1.50' })).json(), { servedAt: '1.50' });
    assert.deepEqual((await ironicGet(app, { [MV]: 'baremetal 1.60' })).json(), {
      servedAt: '1.60',
    });
    const both = await ironicGet(app, { [MV]: 'baremetal 1.60', [LEGACY]: '1.50' });
    assert.equal(both.headers[LEGACY], '1.60');
    assert.equal((await ironicGet(app, { [LEGACY]: 'latest' })).headers[LEGACY], '1.82');
  });

  test('malformed: 406 in the Ironic error format, with the range headers', async (t) => {
    const app = await buildApp(ironicConfig());
    t.after(() => app.close());
    for (const value of ['spam', '1.2.3', '1']) {
      const response = await ironicGet(app, { [LEGACY]: value });
      assert.equal(response.statusCode, 406, value);
      const fault = ironicFault(response.json());
      assert.equal(fault.faultcode, 'Client');
      assert.match(fault.faultstring, /"X\.Y"/);
      assert.match(fault.faultstring, /\[1\.1, 1\.82\]/);
      assert.deepEqual([response.headers[MIN], response.headers[MAX]], ['1.1', '1.82']);
    }
  });

  test('out of range: 406 with min/max headers and the range in the fault', async (t) => {
    const app = await buildApp(ironicConfig({ pinnedMax: '1.70' }));
    t.after(() => app.close());
    const response = await ironicGet(app, { [LEGACY]: '1.71' });
    assert.equal(response.statusCode, 406);
    assert.deepEqual([response.headers[MIN], response.headers[MAX]], ['1.1', '1.70']);
    assert.match(ironicFault(response.json()).faultstring, /1\.71.*\[1\.1, 1\.70\]/);
    assert.equal((await ironicGet(app, { [LEGACY]: 'latest' })).headers[LEGACY], '1.70');
  });
});

describe('Fastify plugin over a real socket', () => {
  /** Sends a raw HTTP/1.1 request with exactly these header lines; resolves the response. */
  async function rawGet(port: number, lines: readonly string[]) {
    const { connect } = await import('node:net');
    const socket = connect(port, '127.0.0.1');
    socket.write(
      `GET /things HTTP/1.1\r\nHost: x\r\n${lines.map((l) => `${l}\r\n`).join('')}Connection: close\r\n\r\n`,
    );
    const chunks: Buffer[] = [];
    for await (const chunk of socket) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('latin1');
    const [head = '', body = ''] = text.split('\r\n\r\n');
    return { head, body };
  }

  test('repeated and differently cased headers are folded as Node folds them', async (t) => {
    const app = await buildApp(placementConfig());
    t.after(() => app.close());
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as { port: number };
    const cases: [string[], string][] = [
      [['OpenStack-API-Version: placement 1.12'], '1.12'],
      [['OPENSTACK-API-VERSION: placement 1.3'], '1.3'],
      // Node joins the two lines as "placement 1.5, placement 1.9": the last entry wins.
      [['openstack-api-version: placement 1.5', 'OpenStack-API-Version: placement 1.9'], '1.9'],
      [['OpenStack-API-Version: compute 2.1', 'openstack-api-version: placement 1.7'], '1.7'],
      [['X-OpenStack-API-Version: placement 1.7'], '1.0'],
      [[], '1.0'],
    ];
    for (const [lines, expected] of cases) {
      const { head, body } = await rawGet(port, lines);
      assert.match(head, /^HTTP\/1\.1 200/, lines.join(' | '));
      assert.match(
        body,
        new RegExp(`"servedAt":"${expected.replace('.', '\\.')}"`),
        lines.join(' | '),
      );
      assert.match(head, new RegExp(`openstack-api-version: placement ${expected}`, 'i'));
    }
    const malformed = await rawGet(port, ['OpenStack-API-Version: placement 1.x']);
    assert.match(malformed.head, /^HTTP\/1\.1 400/);
  });
});
