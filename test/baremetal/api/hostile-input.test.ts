/**
 * Hostile input never stops the bare metal API (issue 16 §1): bounded error bodies, deep
 * JSON, the body size limit while reading, invalid UTF-8 and NUL as the real Ironic 21.4.4
 * answers them (probed: docs/security.md), the same on every database.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { streamBody } from '../../support/raw-http.ts';
import { type BatonApi, forEachApiBackend, startBatonApi } from './support/baton-api.ts';

const MIB = 1024 * 1024;
const MAX_ERROR_BYTES = 16 * 1024;
const HEADERS = {
  'content-type': 'application/json',
  'x-openstack-ironic-api-version': '1.80',
};

/** The fault text inside Ironic's `{"error_message": "<json>"}`. */
function faultOf(body: string): { faultstring?: string; description?: string; code?: number } {
  return JSON.parse(JSON.parse(body).error_message);
}

describe('bare metal: hostile input', () => {
  let api: BatonApi;
  before(async () => {
    api = await startBatonApi({ settings: { maxRequestBodySize: 128 * MIB } });
  });
  after(() => api.close());

  const post = (url: string, payload: string | Buffer, method: 'POST' | 'PATCH' | 'PUT' = 'POST') =>
    api.request({ method, url, headers: HEADERS, payload });

  it('answers a 32 MB invalid name with a small 400', async () => {
    const t0 = Date.now();
    const response = await post(
      '/v1/nodes',
      JSON.stringify({ driver: 'fake-hardware', name: `bad name ${'x'.repeat(32 * MIB)}` }),
    );
    assert.equal(response.statusCode, 400);
    assert.ok(response.body.length < MAX_ERROR_BYTES, `error of ${response.body.length} bytes`);
    assert.match(
      faultOf(response.body).faultstring ?? '',
      /^Cannot create node with invalid name 'bad name x+/,
    );
    assert.ok(Date.now() - t0 < 10_000);
  });

  it('answers JSON nested past 500 levels with a 400 on every write route, never a 500', async () => {
    const created = await post(
      '/v1/nodes',
      JSON.stringify({ driver: 'fake-hardware', name: 'deep' }),
    );
    assert.equal(created.statusCode, 201, created.body);
    const node = JSON.parse(created.body).uuid as string;
    const routes: [string, 'POST' | 'PATCH' | 'PUT'][] = [
      ['/v1/nodes', 'POST'],
      [`/v1/nodes/${node}`, 'PATCH'],
      [`/v1/nodes/${node}/traits`, 'PUT'],
      ['/v1/ports', 'POST'],
      ['/v1/portgroups', 'POST'],
      ['/v1/chassis', 'POST'],
    ];
    for (const depth of [1_500, 100_000]) {
      const deep = `{"extra": {"a": ${'['.repeat(depth)}${']'.repeat(depth)}}}`;
      for (const [url, method] of routes) {
        const response = await post(url, deep, method);
        assert.equal(response.statusCode, 400, `${method} ${url}: ${response.body}`);
        assert.match(
          faultOf(response.body).faultstring ?? '',
          /maximum recursion depth exceeded while decoding a JSON array from a unicode string/,
          `${method} ${url}`,
        );
      }
    }
  });

  it('stores an extra 499 levels deep, as the real service does', async () => {
    const depth = 498;
    const deep = `{"driver": "fake-hardware", "extra": {"a": ${'['.repeat(depth)}${']'.repeat(depth)}}}`;
    const response = await post('/v1/nodes', deep);
    assert.equal(response.statusCode, 201, response.body.slice(0, 500));
    const shown = await api.request({
      method: 'GET',
      url: `/v1/nodes/${JSON.parse(response.body).uuid}?fields=extra`,
      headers: HEADERS,
    });
    assert.equal(shown.statusCode, 200);
    assert.equal(JSON.stringify(JSON.parse(shown.body).extra).length, 6 + 2 * depth);
  });

  it('answers invalid UTF-8 as the real service: WebOb 400, empty description', async () => {
    for (const bad of [
      [0xff, 0xfe],
      [0xc0, 0xaf],
      [0xed, 0xa0, 0x80],
    ]) {
      const payload = Buffer.concat([
        Buffer.from('{"name": "ab'),
        Buffer.from(bad),
        Buffer.from('cd", "driver": "fake-hardware"}'),
      ]);
      const response = await post('/v1/nodes', payload);
      assert.equal(response.statusCode, 400);
      // Byte for byte the real Ironic 21.4.4's answer.
      assert.equal(
        response.body,
        '{"error_message": "{\\"code\\": 400, \\"title\\": \\"Bad Request\\", \\"description\\": \\"\\"}"}',
      );
    }
  });
});

describe('bare metal: the body size limit, enforced while reading', () => {
  let api: BatonApi;
  let url: string;
  before(async () => {
    api = await startBatonApi({ settings: { maxRequestBodySize: 100_000 } });
    url = await api.app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(() => api.close());

  for (const chunked of [false, true]) {
    it(`refuses a ${chunked ? 'chunked' : 'declared'} body past the limit with a 413 fault`, async () => {
      const answer = await streamBody({
        method: 'POST',
        url: `${url}/v1/nodes`,
        headers: HEADERS,
        size: 50 * MIB,
        chunked,
      });
      assert.equal(answer.status, 413);
      assert.ok(answer.bytesWrittenAtAnswer < 50 * MIB);
      assert.equal(faultOf(answer.body).faultstring, 'Request is too large.');
    });
  }

  it('reads a body within the limit', async () => {
    const payload = JSON.stringify({ driver: 'fake-hardware', extra: { pad: 'x'.repeat(90_000) } });
    const response = await api.request({
      method: 'POST',
      url: '/v1/nodes',
      headers: HEADERS,
      payload,
    });
    assert.equal(response.statusCode, 201);
  });
});

forEachApiBackend('bare metal: NUL means the same on every database', (api) => {
  it('refuses a NUL in a name, keeps one in extra, and finds nothing for one in a filter', async () => {
    const named = await api().request({
      method: 'POST',
      url: '/v1/nodes',
      headers: HEADERS,
      payload: JSON.stringify({ driver: 'fake-hardware', name: 'a\u0000b' }),
    });
    assert.equal(named.statusCode, 400);
    assert.equal(
      faultOf(named.body).faultstring,
      "Cannot create node with invalid name 'a\u0000b'",
    );
    const extra = await api().request({
      method: 'POST',
      url: '/v1/nodes',
      headers: HEADERS,
      payload: JSON.stringify({ driver: 'fake-hardware', extra: { k: 'a\u0000b' } }),
    });
    assert.equal(extra.statusCode, 201, extra.body);
    assert.deepEqual(JSON.parse(extra.body).extra, { k: 'a\u0000b' });
    const path = await api().request({ method: 'GET', url: '/v1/nodes/a%00b', headers: HEADERS });
    assert.equal(path.statusCode, 400, path.body);
    assert.equal(faultOf(path.body).description, 'Expected UUID or name for node: a\u0000b');
    const filtered = await api().request({
      method: 'GET',
      url: '/v1/nodes?resource_class=a%00b',
      headers: HEADERS,
    });
    assert.equal(filtered.statusCode, 200, filtered.body);
    assert.deepEqual(JSON.parse(filtered.body), { nodes: [] });
  });
});
