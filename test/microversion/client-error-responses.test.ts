/**
 * The negotiating client against small real HTTP servers (node:http on 127.0.0.1) that behave as
 * servers nobody here wrote: an authentication layer's 401 and a proxy's 404 or 502 without
 * version headers, a 406 without range headers, a server predating microversions. Each case
 * runs with both header styles: the standard `OpenStack-API-Version: placement X.Y` and the
 * bare metal service's `X-OpenStack-Ironic-API-Version` with its min/max headers.
 */
import assert from 'node:assert/strict';
import type { IncomingHttpHeaders } from 'node:http';
import { after, before, describe, test } from 'node:test';
import {
  type HeaderStyle,
  MicroversionClient,
  MicroversionsUnsupportedError,
  VersionCache,
  VersionRejectedError,
} from '../../src/microversion/index.ts';
import {
  headerOf,
  type ScriptedAnswer,
  type ScriptedRequest,
  startScriptedServer,
} from './fixtures/scripted-server.ts';
import { IRONIC_HEADERS } from './fixtures/services.ts';

interface Range {
  readonly min: string;
  readonly max: string;
}

/** How one service style writes versions on the wire. */
interface Dialect {
  readonly name: string;
  readonly serviceType: string;
  readonly headers: HeaderStyle;
  /** The version a request asked for, as the server reads it (undefined: none). */
  requested(headers: IncomingHttpHeaders): string | undefined;
  /** Headers of an answer made at `version` (min/max too where the style has them). */
  answer(version: string, range: Range): Record<string, string>;
  /** The version document at the endpoint's root. */
  document(range: Range): ScriptedAnswer;
}

const PLACEMENT_STYLE: Dialect = {
  name: 'OpenStack-API-Version',
  serviceType: 'placement',
  headers: { mode: 'new' },
  requested: (headers) => headerOf(headers, 'openstack-api-version')?.replace(/^placement /, ''),
  answer: (version) => ({ 'openstack-api-version': `placement ${version}` }),
  document: (range) => ({
    status: 200,
    headers: { 'openstack-api-version': `placement ${range.min}` },
    body: { versions: [{ id: 'v1.0', min_version: range.min, max_version: range.max }] },
  }),
};

const IRONIC_STYLE: Dialect = {
  name: 'X-OpenStack-Ironic-API-Version',
  serviceType: 'baremetal',
  headers: IRONIC_HEADERS,
  requested: (headers) => headerOf(headers, IRONIC_HEADERS.legacyName),
  answer: (version, range) => ({
    [IRONIC_HEADERS.legacyName]: version,
    [IRONIC_HEADERS.minimumName]: range.min,
    [IRONIC_HEADERS.maximumName]: range.max,
  }),
  // Ironic's root document carries no version headers; its body states the range.
  document: (range) => ({
    status: 200,
    body: {
      name: 'OpenStack Ironic API',
      default_version: { id: 'v1', status: 'CURRENT', min_version: range.min, version: range.max },
      versions: [{ id: 'v1', status: 'CURRENT', min_version: range.min, version: range.max }],
    },
  }),
};

function parts(version: string): [number, number] {
  const [major, minor] = version.split('.').map(Number);
  return [major ?? 0, minor ?? 0];
}

function above(version: string, limit: string): boolean {
  const [a, b] = parts(version);
  const [c, d] = parts(limit);
  return a > c || (a === c && b > d);
}

interface ServerBehaviour {
  readonly range: Range;
  /** Version refusals carry no range: no min/max headers, no body saying it. */
  readonly versionless406?: boolean;
  /** The root answers 404 without headers instead of the version document. */
  readonly noDocument?: boolean;
}

/**
 * A server knowing microversions behind front layers that do not: `/missing` is a proxy's 404,
 * `/broken` its 502, a request without `x-auth-token` (except for `/`) the authentication
 * layer's 401, all without version headers. A version above the range is refused with a 406.
 */
function versionedServer(dialect: Dialect, behaviour: ServerBehaviour) {
  const { range } = behaviour;
  return (request: ScriptedRequest): ScriptedAnswer => {
    if (request.url === '/') {
      return behaviour.noDocument ? { status: 404, body: 'Not Found' } : dialect.document(range);
    }
    if (request.url === '/missing') return { status: 404, body: 'Not Found' };
    if (request.url === '/broken') return { status: 502, body: 'Bad Gateway' };
    if (request.headers['x-auth-token'] === undefined) {
      return { status: 401, body: { error: 'Authentication required' } };
    }
    const asked = dialect.requested(request.headers) ?? range.min;
    const version = asked === 'latest' ? range.max : asked;
    if (above(version, range.max)) {
      if (behaviour.versionless406) return { status: 406, body: 'Not Acceptable' };
      return {
        status: 406,
        headers: IRONIC_STYLE === dialect ? dialect.answer(range.min, range) : {},
        body: {
          errors: [
            {
              status: 406,
              title: 'Not Acceptable',
              min_version: range.min,
              max_version: range.max,
            },
          ],
        },
      };
    }
    if (request.headers.accept === 'text/plain') {
      // Placement answers this at the version asked; Ironic with no version header at all.
      const headers = behaviour.versionless406 ? {} : dialect.answer(version, range);
      return { status: 406, headers, body: 'JSON only' };
    }
    const status = request.method === 'POST' ? 201 : 200;
    return { status, headers: dialect.answer(version, range), body: { servedAt: version } };
  };
}

/** A server predating microversions: never reads or writes a version header. */
function oldServer(options: { readonly noDocument?: boolean } = {}) {
  return (request: ScriptedRequest): ScriptedAnswer => {
    if (request.url === '/') {
      return options.noDocument
        ? { status: 404, body: 'Not Found' }
        : { status: 200, body: { versions: [{ id: 'v1', status: 'CURRENT' }] } };
    }
    if (request.method === 'POST') return { status: 201, body: { uuid: 'created-1' } };
    return { status: 200, body: { api: 'v1.0' } };
  };
}

const TOKEN = { 'x-auth-token': 'admin' };
const SERVER: Range = { min: '1.1', max: '1.20' };
const CLIENT: Range = { min: '1.1', max: '1.25' };

for (const dialect of [PLACEMENT_STYLE, IRONIC_STYLE]) {
  describe(`negotiating client, error answers (${dialect.name})`, () => {
    let server: Awaited<ReturnType<typeof startScriptedServer>>;
    let script: (request: ScriptedRequest) => ScriptedAnswer = () => ({ status: 500 });
    before(async () => {
      server = await startScriptedServer((request) => script(request));
    });
    after(async () => {
      await server.close();
    });

    /** Sets the server's behaviour for one test; returns its fresh client factory and cache. */
    function serve(answer: (request: ScriptedRequest) => ScriptedAnswer) {
      script = answer;
      server.requests.length = 0;
      const cache = new VersionCache();
      const client = (supported: Range, requested?: string) =>
        new MicroversionClient({
          endpoint: server.url,
          serviceType: dialect.serviceType,
          headers: dialect.headers,
          supported,
          requested,
          cache,
        });
      return { cache, client };
    }

    /** What reached the server: method, path and the version it was asked for. */
    const seen = () =>
      server.requests.map((r) => `${r.method} ${r.url} ${dialect.requested(r.headers) ?? '-'}`);

    test('a 401 without version headers is handed back; the next request is at the max', async () => {
      const { cache, client } = serve(versionedServer(dialect, { range: SERVER }));
      const negotiating = client({ min: '1.1', max: '1.15' });
      const refused = await negotiating.request('/v1/nodes');
      assert.equal(refused.response.status, 401);
      assert.deepEqual(await refused.response.json(), { error: 'Authentication required' });
      assert.deepEqual([refused.version, refused.microversions], [undefined, undefined]);
      assert.equal(cache.size, 0);
      const served = await negotiating.request('/v1/nodes', { headers: TOKEN });
      assert.deepEqual(await served.response.json(), { servedAt: '1.15' });
      assert.deepEqual([served.version, served.microversions], ['1.15', true]);
      assert.deepEqual(seen(), ['GET /v1/nodes 1.15', 'GET /v1/nodes 1.15']);
      // With a user version the 401 is still only a 401, not "does not support microversions".
      const asked = await client(CLIENT, '1.10').request('/v1/nodes');
      assert.equal(asked.response.status, 401);
    });

    test('a versionless 404 or 502 is handed back and caches nothing', async () => {
      const { cache, client } = serve(versionedServer(dialect, { range: SERVER }));
      for (const [path, status] of [
        ['/missing', 404],
        ['/broken', 502],
      ] as const) {
        for (const requested of [undefined, '1.10', 'latest']) {
          const result = await client(CLIENT, requested).request(path, { headers: TOKEN });
          assert.equal(result.response.status, status, `${path} ${requested}`);
          assert.equal(result.microversions, undefined);
          assert.equal(result.negotiated, false);
          await result.response.text();
        }
      }
      assert.equal(cache.size, 0);
      // Six requests, none retried: an error is not a reason to negotiate.
      assert.equal(server.requests.length, 6);
      const after = await client(CLIENT).request('/v1/nodes', { headers: TOKEN });
      assert.equal(after.version, '1.20');
      assert.deepEqual(seen().slice(-2), ['GET /v1/nodes 1.25', 'GET /v1/nodes 1.20']);
    });

    test('a 406 without range: the version document gives the range (7A), then cached', async () => {
      const { cache, client } = serve(
        versionedServer(dialect, { range: SERVER, versionless406: true }),
      );
      const negotiating = client(CLIENT);
      const result = await negotiating.request('/v1/nodes', { headers: TOKEN });
      assert.equal(result.response.status, 200);
      assert.deepEqual(await result.response.json(), { servedAt: '1.20' });
      assert.deepEqual([result.version, result.negotiated], ['1.20', true]);
      assert.deepEqual(cache.get(server.url), {
        microversions: true,
        min: { major: 1, minor: 1 },
        max: { major: 1, minor: 20 },
      });
      await negotiating.request('/v1/nodes', { headers: TOKEN });
      assert.deepEqual(seen(), [
        'GET /v1/nodes 1.25',
        'GET / -',
        'GET /v1/nodes 1.20',
        'GET /v1/nodes 1.20',
      ]);
    });

    test('a 406 without range to a user version: refused with the document range (7B)', async () => {
      const { cache, client } = serve(
        versionedServer(dialect, { range: SERVER, versionless406: true }),
      );
      await assert.rejects(
        client(CLIENT, '1.22').request('/v1/nodes', { headers: TOKEN }),
        (error: unknown) => {
          assert.ok(error instanceof VersionRejectedError);
          assert.deepEqual(
            [error.requested, error.serverMin, error.serverMax, error.rangeSource],
            ['1.22', '1.1', '1.20', 'version-document'],
          );
          assert.equal(error.userSpecified, true);
          assert.match(error.message, /its version document says it supports 1\.1 to 1\.20/);
          return true;
        },
      );
      assert.deepEqual(seen(), ['GET /v1/nodes 1.22', 'GET / -']);
      assert.equal(cache.size, 0);
    });

    test('a 406 with no range anywhere is a refusal, never a success', async () => {
      const { cache, client } = serve(
        versionedServer(dialect, { range: SERVER, versionless406: true, noDocument: true }),
      );
      for (const requested of [undefined, '1.22']) {
        await assert.rejects(
          client(CLIENT, requested).request('/v1/nodes', { headers: TOKEN }),
          (error: unknown) => {
            assert.ok(error instanceof VersionRejectedError);
            assert.equal(error.serverMin, undefined);
            assert.match(error.message, /did not say which versions it supports/);
            return true;
          },
        );
      }
      assert.equal(cache.size, 0);
    });

    test('a 406 answered at the version sent is handed back, not negotiated', async () => {
      const { cache, client } = serve(versionedServer(dialect, { range: SERVER }));
      const result = await client(CLIENT, '1.12').request('/v1/nodes', {
        headers: { ...TOKEN, accept: 'text/plain' },
      });
      assert.equal(result.response.status, 406);
      assert.equal(await result.response.text(), 'JSON only');
      assert.deepEqual([result.version, result.microversions], ['1.12', true]);
      assert.deepEqual(seen(), ['GET /v1/nodes 1.12']);
      assert.equal(cache.size, 0);
    });

    test('a versionless 406 at a version the document says is supported is handed back', async () => {
      const { cache, client } = serve(
        versionedServer(dialect, { range: SERVER, versionless406: true }),
      );
      for (const requested of [undefined, '1.12', 'latest']) {
        const result = await client({ min: '1.1', max: '1.15' }, requested).request('/v1/nodes', {
          headers: { ...TOKEN, accept: 'text/plain' },
        });
        assert.equal(result.response.status, 406);
        assert.equal(await result.response.text(), 'JSON only');
        assert.deepEqual([result.version, result.negotiated], [undefined, false]);
      }
      assert.deepEqual(seen(), [
        'GET /v1/nodes 1.15',
        'GET / -',
        'GET /v1/nodes 1.12',
        'GET / -',
        'GET /v1/nodes latest',
        'GET / -',
      ]);
      // The document is asked for as JSON, whatever the caller's own request accepted.
      assert.equal(server.requests[1]?.headers.accept, 'application/json');
      assert.equal(cache.size, 0);
    });

    test('a stale "no microversions" entry heals on a versioned success', async () => {
      const { cache, client } = serve(
        versionedServer(dialect, { range: { min: '1.0', max: '1.20' } }),
      );
      cache.set(server.url, { microversions: false });
      const negotiating = client({ min: '1.0', max: '1.15' });
      const healed = await negotiating.request('/v1/nodes', { headers: TOKEN });
      assert.deepEqual([healed.version, healed.microversions], ['1.0', true]);
      // The bare metal style states its range on every answer; the standard header does not.
      const expected =
        dialect === IRONIC_STYLE
          ? { microversions: true, min: { major: 1, minor: 0 }, max: { major: 1, minor: 20 } }
          : undefined;
      assert.deepEqual(cache.get(server.url), expected);
      await negotiating.request('/v1/nodes', { headers: TOKEN });
      assert.deepEqual(seen(), ['GET /v1/nodes 1.0', 'GET /v1/nodes 1.15']);
    });

    test('use case 3B, state-changing: the version document is asked first, the request not sent', async () => {
      const { cache, client } = serve(oldServer());
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        await assert.rejects(
          client(CLIENT, '1.10').request('/v1/nodes', {
            method,
            headers: { ...TOKEN, 'content-type': 'application/json' },
            body: '{"name": "n1"}',
          }),
          (error: unknown) => {
            assert.ok(error instanceof MicroversionsUnsupportedError);
            assert.deepEqual(
              [error.method, error.sent, error.stateChanged, error.status],
              [method, false, false, undefined],
            );
            assert.match(error.message, new RegExp(`The ${method} request was not sent`));
            return true;
          },
        );
      }
      // Only the document was asked, at the user's version, without the body's headers.
      assert.deepEqual(seen(), ['GET / 1.10', 'GET / 1.10', 'GET / 1.10', 'GET / 1.10']);
      assert.equal(server.requests[0]?.headers['content-type'], undefined);
      assert.equal(server.requests[0]?.headers['x-auth-token'], 'admin');
      assert.deepEqual(cache.get(server.url), { microversions: false });
    });

    test('use case 3B, state-changing, no document: the request ran and the error says so', async () => {
      const { client } = serve(oldServer({ noDocument: true }));
      await assert.rejects(
        client(CLIENT, '1.10').request('/v1/nodes', { method: 'POST', body: '{}' }),
        (error: unknown) => {
          assert.ok(error instanceof MicroversionsUnsupportedError);
          assert.deepEqual([error.sent, error.stateChanged, error.status], [true, true, 201]);
          assert.deepEqual(JSON.parse(error.body ?? ''), { uuid: 'created-1' });
          assert.match(
            error.message,
            /The POST request has already been processed by the server at its base API, not at 1\.10 \(status 201\)/,
          );
          return true;
        },
      );
      assert.deepEqual(seen(), ['GET / 1.10', 'POST /v1/nodes 1.10']);
    });

    test('use case 3B, safe method: one request, no document asked, nothing changed', async () => {
      const { client } = serve(oldServer());
      await assert.rejects(client(CLIENT, '1.10').request('/v1/nodes'), (error: unknown) => {
        assert.ok(error instanceof MicroversionsUnsupportedError);
        assert.deepEqual([error.sent, error.stateChanged, error.status], [true, false, 200]);
        assert.doesNotMatch(error.message, /already been processed/);
        return true;
      });
      assert.deepEqual(seen(), ['GET /v1/nodes 1.10']);
    });

    test('a state-changing request to a versioned server: the document once, then cached', async () => {
      const { cache, client } = serve(versionedServer(dialect, { range: SERVER }));
      const asking = client(CLIENT, '1.10');
      for (let i = 0; i < 2; i++) {
        const created = await asking.request('/v1/nodes', { method: 'POST', headers: TOKEN });
        assert.equal(created.response.status, 201);
        assert.equal(created.version, '1.10');
      }
      assert.deepEqual(seen(), ['GET / 1.10', 'POST /v1/nodes 1.10', 'POST /v1/nodes 1.10']);
      assert.equal(cache.get(server.url)?.microversions, true);
    });
  });
}
