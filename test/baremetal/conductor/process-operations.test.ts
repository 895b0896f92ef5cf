/**
 * A conductor process as the composition root starts it (startBaremetalConductor): with
 * `[metrics] bind_port` it answers /healthcheck and /metrics, whose gauges count the nodes by
 * provision state and the busy workers; on stop the health check drains and everything closes.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { planBaremetal, startBaremetalConductor } from '../../../src/baremetal/service.ts';
import { apiStore, newNode, openTestDatabase, SILENT } from './support/conductor-harness.ts';

describe('a conductor process and its operations', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'baton-ops-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('serves /healthcheck and /metrics with its gauges, and stops cleanly', async () => {
    const url = `sqlite:${join(dir, 'bm.sqlite')}`;
    const plan = await planBaremetal({
      flags: { databaseUrl: url, host: 'ops-1', metricsPort: 0, heartbeatInterval: 1 },
    });
    const running = await startBaremetalConductor(plan, { log: SILENT });
    const database = await openTestDatabase(url);
    try {
      const store = apiStore(database);
      for (let i = 0; i < 3; i++) await store.nodes.create(newNode());
      assert.ok(running.metricsUrl);
      const health = await fetch(`${running.metricsUrl}/healthcheck`);
      assert.equal(health.status, 200);
      const metrics = await (await fetch(`${running.metricsUrl}/metrics`)).text();
      assert.match(metrics, /^baton_baremetal_nodes\{provision_state="enroll"\} 3$/m);
      assert.match(metrics, /^baton_baremetal_conductor_workers_busy 0$/m);
      assert.equal(await running.stop(), true);
      await assert.rejects(fetch(`${running.metricsUrl}/healthcheck`), 'the listener is closed');
      assert.deepEqual(await store.conductors.active(60), []);
    } finally {
      await running.stop();
      await database.close();
    }
  });
});
