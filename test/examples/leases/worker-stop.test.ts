/**
 * A worker of the leases example stopped (SIGTERM) while the API sends it calls, as an upgrade
 * replaces workers one at a time: another worker serves, and no request fails. The APIs find
 * workers in the services table and reuse what they read for a second, so a stopping worker
 * must go from the table first and keep serving until every API has read it again.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../../../src/rehearsal/free-port.ts';
import { LeasesCluster } from './support/leases-cluster.ts';

describe('a leases worker stopped under load', { timeout: 120_000 }, () => {
  const cluster = new LeasesCluster('leases-worker-stop-');
  let port = 0;

  before(async () => {
    await cluster.prepare();
    port = await freePort();
    await cluster.start('worker-1', 'worker.ts', ['[DEFAULT]', 'host = worker-1']);
    await cluster.start('worker-2', 'worker.ts', ['[DEFAULT]', 'host = worker-2']);
    await cluster.start('api', 'api.ts', ['[DEFAULT]', 'host = api-1', '[api]', `port = ${port}`]);
  });
  after(() => cluster.close());

  it('loses no request while each worker in turn stops and comes back', async () => {
    const failures: string[] = [];
    let created = 0;
    let stop = false;
    const client = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const response = await fetch(`http://127.0.0.1:${port}/v1/leases`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ resource: `r-${n}-${i}`, holder: 'load' }),
        });
        const body = await response.text();
        if (response.status === 201) created += 1;
        else failures.push(`${response.status} ${body}`);
      }
    };
    const clients = Array.from({ length: 6 }, (_, n) => client(n));
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const stoppedIn: number[] = [];
    try {
      for (const name of ['worker-1', 'worker-2', 'worker-1', 'worker-2']) {
        await sleep(500);
        const at = Date.now();
        const code = await cluster.stop(name);
        stoppedIn.push(Date.now() - at);
        assert.equal(code, 0, `${name} exits 0 on SIGTERM`);
        await sleep(300);
        await cluster.start(name, 'worker.ts', ['[DEFAULT]', `host = ${name}`]);
      }
      await sleep(500);
    } finally {
      stop = true;
      await Promise.all(clients);
    }
    console.log(`${created} leases created, ${failures.length} failed; stops took ${stoppedIn} ms`);
    assert.ok(created > 100, `the load ran (${created})`);
    assert.deepEqual(failures, []);
  });

  it('answers 503 in its format, not 500, with no worker left to call', async () => {
    for (const name of ['worker-1', 'worker-2']) assert.equal(await cluster.stop(name), 0);
    const response = await fetch(`http://127.0.0.1:${port}/v1/leases`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ resource: 'r-none', holder: 'nobody' }),
    });
    assert.equal(response.status, 503);
    const body = (await response.json()) as { error: string };
    assert.match(body.error, /create_lease.*leases-worker/);
  });
});
