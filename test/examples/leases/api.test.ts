/**
 * The leases example's API and worker as processes on SQLite, unpinned and pinned to release
 * 1: what each microversion shows, the moves only release 2 can make, and bad input answered
 * in the API's format (`{"error": …}`), never a 500.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../../../src/rehearsal/free-port.ts';
import { LeasesCluster } from './support/leases-cluster.ts';

const cluster = new LeasesCluster('leases-api-');
const start = cluster.start.bind(cluster);

async function api(port: number, method: string, path: string, version?: string, body?: string) {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: {
      ...(version === undefined ? {} : { 'X-Leases-API-Version': version }),
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

describe('the leases example API', () => {
  let unpinned = 0;
  let pinned = 0;
  before(async () => {
    assert.match(await cluster.prepare(), /applied 0002_add_lease_pool/);
    [unpinned, pinned] = [await freePort(), await freePort()];
    await start('worker', 'worker.ts', ['[DEFAULT]', 'host = worker1']);
    await start('api', 'api.ts', ['[DEFAULT]', 'host = api1', '[api]', `port = ${unpinned}`]);
  });
  after(() => cluster.close());

  it('shows a pool from 1.1 on, and moves a lease at 1.1 only', async () => {
    const body = JSON.stringify({ resource: 'gpu-1', holder: 'alice', pool: 'gpus' });
    const created = await api(unpinned, 'POST', '/v1/leases', '1.1', body);
    assert.equal(created.status, 201);
    assert.equal(created.body.pool, 'gpus');
    const uuid = created.body.uuid as string;
    const old = await api(unpinned, 'GET', `/v1/leases/${uuid}`, '1.0');
    assert.deepEqual(Object.keys(old.body).sort(), ['holder', 'resource', 'uuid']);
    const moved = await api(unpinned, 'PATCH', `/v1/leases/${uuid}`, '1.1', '{"pool":"cpus"}');
    assert.deepEqual([moved.status, moved.body.pool], [200, 'cpus']);
    const tooOld = await api(unpinned, 'PATCH', `/v1/leases/${uuid}`, '1.0', '{"pool":"x"}');
    assert.equal(tooOld.status, 405);
    const released = await api(unpinned, 'DELETE', `/v1/leases/${uuid}`);
    assert.equal(released.status, 204);
    assert.equal((await api(unpinned, 'GET', `/v1/leases/${uuid}`)).status, 404);
  });

  it('serves no 1.1 pinned to release 1, and so neither does an unpinned API beside it', async () => {
    await start('pinned', 'api.ts', [
      '[DEFAULT]',
      'host = api2',
      'pin_release_version = 1',
      '[api]',
      `port = ${pinned}`,
    ]);
    // The unpinned API reads the services table again every second.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    for (const port of [pinned, unpinned]) {
      const refused = await api(port, 'GET', '/v1', '1.1');
      assert.equal(refused.status, 406);
      assert.match(refused.body.error, /1\.1/);
      assert.equal((await api(port, 'GET', '/v1', 'latest')).body.version, '1.0');
    }
    const body = JSON.stringify({ resource: 'gpu-2', holder: 'bob' });
    const created = await api(pinned, 'POST', '/v1/leases', undefined, body);
    assert.equal(created.status, 201);
  });

  it('answers bad input with its error format, never a 500', async () => {
    for (const [method, path, version, body, status] of [
      ['POST', '/v1/leases', '1.0', '{"resource":"gpu-3"}', 400],
      ['POST', '/v1/leases', '1.0', '{"resource":', 400],
      ['POST', '/v1/leases', '1.0', '{"resource":"r","holder":""}', 400],
      ['GET', '/v1/leases', 'one', undefined, 406],
      ['GET', '/v1/leases/no-such-lease', '1.0', undefined, 404],
      ['DELETE', '/v1/leases/no-such-lease', '1.0', undefined, 404],
    ] as const) {
      const answer = await api(unpinned, method, path, version, body);
      assert.equal(answer.status, status, `${method} ${path} ${body}`);
      assert.equal(typeof answer.body.error, 'string', JSON.stringify(answer.body));
    }
  });
});
