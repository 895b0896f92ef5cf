/** startPlacementApi in-process: heartbeats, refusals, an idempotent close. */
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { listServices, openDatabase } from '../../src/db/index.ts';
import { defaultPlacementConfig } from '../../src/placement/config.ts';
import { PolicyFileError } from '../../src/placement/policy/index.ts';
import { placementPlanOf, startPlacementApi } from '../../src/placement/service.ts';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('startPlacementApi', () => {
  it('keeps its services row fresh with heartbeats and removes it on close', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'placement-server-'));
    const url = `sqlite:${join(dir, 'p.sqlite')}`;
    const server = await startPlacementApi(
      placementPlanOf({ ...defaultPlacementConfig(url), port: 0 }),
      { heartbeatSeconds: 0.1 },
    );
    const db = await openDatabase(url);
    try {
      const first = (await listServices(db))[0]?.lastSeen.getTime() ?? 0;
      await sleep(400);
      const later = (await listServices(db))[0]?.lastSeen.getTime() ?? 0;
      assert.ok(later > first, `${later} > ${first}`);
      assert.equal((await fetch(`${server.url}/`)).status, 200);
      await Promise.all([server.close(), server.close()]);
      assert.deepEqual(await listServices(db), []);
    } finally {
      await db.close();
    }
  });

  it('a bad policy file stops the start', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'placement-server-'));
    const policyFile = join(dir, 'policy.json');
    await writeFile(policyFile, '{"placement:traits:list": 1}');
    const config = {
      ...defaultPlacementConfig(`sqlite:${join(dir, 'p.sqlite')}`),
      port: 0,
      policyFile,
    };
    await assert.rejects(startPlacementApi(placementPlanOf(config)), PolicyFileError);
  });
});
