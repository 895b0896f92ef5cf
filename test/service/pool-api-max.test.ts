/**
 * One API version across a balanced pool: an unpinned API beside an API pinned to zed serves
 * zed's maximum (1.80) from its first request, `latest` included, and rises to 1.82 once the
 * pinned one has left; an unpinned API beside a conductor pinned to zed serves 1.80 too (the
 * conductor could not store what 1.81 and 1.82 carry). Real API processes of this code, in
 * this process, on one SQLite file.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { planBaremetal, startBaremetalApi } from '../../src/baremetal/service.ts';
import { openDatabase, registerService } from '../../src/db/index.ts';

const LATEST = { 'X-OpenStack-Ironic-API-Version': 'latest' };

async function servedLatest(url: string): Promise<string | null> {
  const answer = await fetch(`${url}/v1/chassis`, { headers: LATEST });
  assert.equal(answer.status, 200);
  return answer.headers.get('x-openstack-ironic-api-version');
}

async function until(what: string, probe: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the API maximum of a pool', () => {
  let dir: string;
  let url: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'baton-pool-max-'));
    url = `sqlite:${join(dir, 'bm.sqlite')}`;
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const plan = (host: string, pin?: string) =>
    planBaremetal({
      flags: {
        databaseUrl: url,
        host,
        apiPort: 0,
        drainDelaySeconds: 0,
        heartbeatInterval: 1,
        ...(pin === undefined ? {} : { pinReleaseVersion: pin }),
      },
    });

  it('beside an API pinned to zed, an unpinned one serves 1.80; once it has left, 1.82', async () => {
    const pinned = await startBaremetalApi(await plan('pinned-api', 'zed'));
    const unpinned = await startBaremetalApi(await plan('unpinned-api'));
    try {
      assert.equal(await servedLatest(pinned.url), '1.80');
      assert.equal(await servedLatest(unpinned.url), '1.80');
      assert.equal(unpinned.apiMax(), '1.80');
      const shard = await fetch(`${unpinned.url}/v1/shards`, {
        headers: { 'X-OpenStack-Ironic-API-Version': '1.82' },
      });
      assert.equal(shard.status, 406, 'no version the other API would refuse');
      const root = await (await fetch(`${unpinned.url}/v1`, { headers: LATEST })).json();
      assert.equal((root as { version: { version: string } }).version.version, '1.80');
      await pinned.stop();
      await until(
        'the unpinned API to rise',
        async () => (await servedLatest(unpinned.url)) === '1.82',
        5_000,
      );
    } finally {
      await unpinned.stop();
    }
  });

  it('beside a conductor pinned to zed, an unpinned API serves 1.80', async () => {
    const db = await openDatabase(url);
    const conductor = await registerService(db, {
      binary: 'baremetal-conductor',
      host: 'pinned-conductor',
      version: 2,
      caps: () => ({ pin: 'zed', release: 'zed' }),
    });
    const api = await startBaremetalApi(await plan('beside-conductor'));
    try {
      assert.equal(await servedLatest(api.url), '1.80');
    } finally {
      await api.stop();
      await conductor.deregister();
      await db.close();
    }
  });
});
