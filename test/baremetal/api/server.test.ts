/**
 * The API's drain, on a real listening server: while it drains the health check fails and
 * every answer asks for the connection to be closed, requests are still answered for
 * `drain_wait`, then new connections are refused while a request already in flight is
 * answered. And /healthcheck as oslo.middleware answers it.
 */
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { listenBaremetalApi } from '../../../src/baremetal/api/server.ts';
import { type BatonApi, startBatonApi } from './support/baton-api.ts';

/** One request on a connection of its own; resolves with the status, headers and body. */
function get(url: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const req = httpRequest(`${url}${path}`, { headers, agent: false }, (res) => {
        let body = '';
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    },
  );
}

describe('the API server', () => {
  let baton: BatonApi;
  before(async () => {
    baton = await startBatonApi();
  });
  after(() => baton.close());

  const listen = (drainWaitMs: number) =>
    listenBaremetalApi({
      services: baton.app.baremetal,
      host: '127.0.0.1',
      port: 0,
      drain: { drainDelaySeconds: drainWaitMs / 1000, gracefulShutdownTimeout: 0 },
    });

  it('answers /healthcheck with OK, 204 to HEAD, outside versioning', async () => {
    const api = await listen(0);
    try {
      const ok = await get(api.url, '/healthcheck', { 'X-OpenStack-Ironic-API-Version': 'abc' });
      assert.equal(ok.status, 200);
      assert.equal(ok.body, 'OK');
      assert.match(String(ok.headers['content-type']), /^text\/plain/);
      assert.equal(ok.headers['x-openstack-ironic-api-version'], undefined);
      const head = await baton.request({ method: 'HEAD', url: '/healthcheck' });
      assert.equal(head.statusCode, 204);
    } finally {
      await api.drain();
    }
  });

  it('drains: 503 health and Connection: close while serving, then refuses new connections', async () => {
    const api = await listen(400);
    const draining = api.drain();
    const health = await get(api.url, '/healthcheck');
    assert.equal(health.status, 503);
    assert.equal(health.body, 'DRAINING');
    const served = await get(api.url, '/v1/drivers', { 'X-OpenStack-Ironic-API-Version': '1.80' });
    assert.equal(served.status, 200);
    assert.equal(served.headers.connection, 'close');
    assert.equal((JSON.parse(served.body) as { drivers: unknown[] }).drivers.length, 1);
    await draining;
    await assert.rejects(get(api.url, '/v1'), /ECONNREFUSED/);
  });

  it('answers a request in flight when it stops accepting', async () => {
    const api = await listen(100);
    const port = api.address.port;
    // A chassis create whose body is still being sent when the drain closes the server.
    const inFlight = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: '/v1/chassis',
          method: 'POST',
          agent: false,
          headers: {
            'Content-Type': 'application/json',
            'Content-Length': '25',
            'X-OpenStack-Ironic-API-Version': '1.80',
          },
        },
        (res) => {
          let body = '';
          res.on('data', (chunk) => {
            body += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.write('{"description": ');
      setTimeout(() => req.end('"late"}  '), 400);
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const drained = api.drain();
    const answer = await inFlight;
    await drained;
    assert.equal(answer.status, 201);
    assert.equal((JSON.parse(answer.body) as { description: string }).description, 'late');
  });
});
