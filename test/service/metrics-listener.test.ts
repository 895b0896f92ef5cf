/**
 * The metrics listener of a process without an HTTP API: a real socket answering
 * `/metrics` with a scrape, `/healthcheck` with the health state, and 404 otherwise.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HealthState } from '../../src/service/healthcheck.ts';
import {
  MetricsListenError,
  startMetricsListener,
} from '../../src/service/metrics/metrics-listener.ts';
import { ProcessMetrics } from '../../src/service/metrics/process-metrics.ts';
import { parsePrometheusText, sampleValue } from './support/prometheus-text.ts';

test('a scrape, the health check and a 404 on a port of its own', async () => {
  const metrics = new ProcessMetrics({
    service: 'baremetal',
    binary: 'ironic-conductor',
    release: '2026.1',
    serviceVersion: 2,
  });
  const health = new HealthState();
  const listener = await startMetricsListener({
    host: '127.0.0.1',
    port: 0,
    scrape: () => metrics.scrape(),
    health,
  });
  try {
    assert.match(listener.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const scrape = await fetch(`${listener.url}/metrics`);
    assert.equal(scrape.status, 200);
    assert.equal(scrape.headers.get('content-type'), 'text/plain; version=0.0.4; charset=utf-8');
    const families = parsePrometheusText(await scrape.text());
    assert.equal(sampleValue(families, 'baton_process_info', { binary: 'ironic-conductor' }), 1);
    const check = await fetch(`${listener.url}/healthcheck`);
    assert.deepEqual([check.status, await check.text()], [200, 'OK']);
    health.startDraining();
    const draining = await fetch(`${listener.url}/healthcheck`);
    assert.deepEqual([draining.status, await draining.text()], [503, 'DRAINING']);
    assert.equal((await fetch(`${listener.url}/other`)).status, 404);
  } finally {
    await listener.close();
  }
});

test('a port in use is refused at start', async () => {
  const first = await startMetricsListener({
    host: '127.0.0.1',
    port: 0,
    scrape: async () => ({ contentType: 'text/plain', body: '' }),
  });
  try {
    await assert.rejects(
      startMetricsListener({
        host: '127.0.0.1',
        port: first.address.port,
        scrape: async () => ({ contentType: 'text/plain', body: '' }),
      }),
      (error) =>
        error instanceof MetricsListenError &&
        error.message ===
          `cannot listen for metrics on 127.0.0.1:${first.address.port}: EADDRINUSE`,
    );
  } finally {
    await first.close();
  }
});
