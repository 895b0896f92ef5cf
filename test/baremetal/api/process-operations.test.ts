/**
 * An API process as the composition root starts it (startBaremetalApi): it gets the toolkit's
 * process operations as the conductor does: its requests go to the process log and to
 * `baton_http_requests_total` (route pattern, microversion), and with `[metrics] bind_port` it
 * answers /healthcheck and /metrics on that port; on stop everything closes.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { planBaremetal, startBaremetalApi } from '../../../src/baremetal/service.ts';

describe('an API process and its operations', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'baton-api-ops-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('logs and counts its requests, serves /metrics and /healthcheck, and stops cleanly', async () => {
    const logFile = join(dir, 'api.log');
    const plan = await planBaremetal({
      flags: {
        databaseUrl: `sqlite:${join(dir, 'bm.sqlite')}`,
        apiPort: 0,
        drainDelaySeconds: 0,
        metricsPort: 0,
        logFile,
        useJson: true,
      },
    });
    const running = await startBaremetalApi(plan);
    try {
      assert.ok(running.metricsUrl);
      const nodes = await fetch(`${running.url}/v1/nodes/some-node`, {
        headers: { 'X-OpenStack-Ironic-API-Version': '1.60' },
      });
      assert.equal(nodes.status, 404);
      assert.equal((await fetch(`${running.url}/v1/chassis`)).status, 200);
      assert.equal((await fetch(`${running.metricsUrl}/healthcheck`)).status, 200);
      const metrics = await (await fetch(`${running.metricsUrl}/metrics`)).text();
      assert.match(
        metrics,
        /^baton_http_requests_total\{method="GET",route="\/v1\/nodes\/\{node\}",status="404",microversion="1\.60"\} 1$/m,
      );
      assert.match(
        metrics,
        /^baton_http_requests_total\{method="GET",route="\/v1\/chassis",status="200",microversion="1\.1"\} 1$/m,
      );
      assert.match(metrics, /^baton_process_info\{.*binary="baremetal-api".*\} 1$/m);
      // The API's own port answers /metrics too (docs/operations.md), not as `/v1/metrics`.
      const own = await fetch(`${running.url}/metrics`);
      assert.equal(own.status, 200);
      assert.match(await own.text(), /^baton_process_info\{.*binary="baremetal-api".*\} 1$/m);
    } finally {
      await running.stop();
    }
    await assert.rejects(fetch(`${running.metricsUrl}/healthcheck`), 'the listener is closed');
    const lines = readFileSync(logFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const request = lines.find((line) => line.msg === 'request' && line.route === '/v1/chassis');
    assert.ok(request, 'the request is in the process log');
    assert.equal(request.status, 200);
  });
});
