/**
 * The operations hooks on a Fastify app: one log line per request carrying the request id
 * the response reported, the 5xx stack under the same id, `/healthcheck` and `/metrics`
 * answered before the app's own hooks (auth here) and left out of the request metrics,
 * requests counted by route pattern and 409s by the code the app marked.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import Fastify from 'fastify';
import { HealthState } from '../../src/service/healthcheck.ts';
import {
  fastifyLoggerOptions,
  markErrorCode,
  registerOperations,
} from '../../src/service/http/fastify-operations.ts';
import { createServiceLogger } from '../../src/service/logging/service-logger.ts';
import { HttpMetrics } from '../../src/service/metrics/http-metrics.ts';
import { ProcessMetrics } from '../../src/service/metrics/process-metrics.ts';
import { parsePrometheusText, sampleValue } from './support/prometheus-text.ts';

async function appWithOperations() {
  const lines: Record<string, unknown>[] = [];
  const { logger } = createServiceLogger(
    { level: 'info', format: 'json', file: undefined },
    { binary: 'widget-api' },
    { write: (line: string) => lines.push(JSON.parse(line)) },
  );
  const process = new ProcessMetrics(
    { service: 'widgets', binary: 'widget-api', release: '2026.1', serviceVersion: 1 },
    { processMetrics: false },
  );
  const metrics = { http: new HttpMetrics(process.registry), scrape: () => process.scrape() };
  const health = new HealthState();
  const app = Fastify({
    ...fastifyLoggerOptions(logger),
    genReqId: () => `req-${randomUUID()}`,
  });
  registerOperations(app, { logger, health, metrics });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-openstack-request-id', request.id);
    if (request.headers['x-auth-token'] === undefined) return reply.code(401).send('no token');
  });
  app.get('/widgets/:uuid', async (request) => ({
    uuid: (request.params as { uuid: string }).uuid,
  }));
  app.put('/widgets/:uuid', async (_request, reply) => {
    markErrorCode(reply, 'widgets.concurrent_update');
    return reply.code(409).send({ errors: [{ code: 'widgets.concurrent_update' }] });
  });
  app.get('/broken', async () => {
    throw new Error('the database went away');
  });
  app.setErrorHandler((error, request, reply) => {
    request.log.error({ err: error }, 'unexpected error');
    return reply.code(500).send({ request_id: request.id });
  });
  await app.ready();
  return { app, lines, health, metrics };
}

const TOKEN = { 'x-auth-token': 'admin' };

test('one line per request, with the request id the response reported', async () => {
  const { app, lines } = await appWithOperations();
  const answer = await app.inject({ method: 'GET', url: '/widgets/abc?x=1', headers: TOKEN });
  assert.equal(answer.statusCode, 200);
  const id = answer.headers['x-openstack-request-id'];
  assert.match(String(id), /^req-[0-9a-f-]{36}$/);
  assert.equal(lines.length, 1);
  const line = lines[0] as Record<string, unknown>;
  assert.equal(line.msg, 'request');
  assert.equal(line.level, 'info');
  assert.equal(line.request_id, id);
  assert.equal(line.method, 'GET');
  assert.equal(line.path, '/widgets/abc?x=1');
  assert.equal(line.route, '/widgets/{uuid}');
  assert.equal(line.status, 200);
  assert.equal(line.microversion, 'none');
  assert.equal(typeof line.latency_ms, 'number');
  assert.equal(line.bytes, Buffer.byteLength(answer.body));
  assert.equal(line.binary, 'widget-api');
  await app.close();
});

test('a 500: its stack and the request line, both under the id the body reported', async () => {
  const { app, lines } = await appWithOperations();
  const answer = await app.inject({ method: 'GET', url: '/broken', headers: TOKEN });
  assert.equal(answer.statusCode, 500);
  const id = answer.json().request_id;
  assert.equal(answer.headers['x-openstack-request-id'], id);
  const [stack, request] = lines;
  assert.equal(stack?.level, 'error');
  assert.equal(stack?.request_id, id);
  const err = stack?.err as { type: string; message: string; stack: string };
  assert.equal(err.message, 'the database went away');
  assert.match(err.stack, /Error: the database went away\n\s+at /);
  assert.equal(request?.level, 'error');
  assert.equal(request?.status, 500);
  assert.equal(request?.request_id, id);
  await app.close();
});

test('/healthcheck and /metrics come before auth, are not counted, and log at debug only', async () => {
  const { app, lines, health } = await appWithOperations();
  await app.inject({ method: 'GET', url: '/widgets/one', headers: TOKEN });
  await app.inject({ method: 'GET', url: '/nowhere/else', headers: TOKEN });
  await app.inject({ method: 'PUT', url: '/widgets/one', headers: TOKEN });
  const check = await app.inject({ method: 'GET', url: '/healthcheck' });
  assert.equal(check.statusCode, 200);
  assert.equal(check.body, 'OK');
  assert.equal(check.headers['content-type'], 'text/plain; charset=UTF-8');
  assert.equal((await app.inject({ method: 'HEAD', url: '/healthcheck' })).statusCode, 204);
  const scrape = await app.inject({ method: 'GET', url: '/metrics?x' });
  assert.equal(scrape.statusCode, 200);
  assert.equal(scrape.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
  assert.equal((await app.inject({ method: 'POST', url: '/metrics' })).statusCode, 405);
  const families = parsePrometheusText(scrape.body);
  const requests = families.get('baton_http_requests_total');
  assert.deepEqual(
    requests?.samples.map((s) => [s.labels.method, s.labels.route, s.labels.status, s.value]),
    [
      ['GET', '/widgets/{uuid}', '200', 1],
      ['GET', 'unmatched', '404', 1],
      ['PUT', '/widgets/{uuid}', '409', 1],
    ],
  );
  assert.equal(
    sampleValue(families, 'baton_http_conflicts_total', {
      route: '/widgets/{uuid}',
      code: 'widgets.concurrent_update',
    }),
    1,
  );
  assert.deepEqual(
    lines.map((line) => line.path),
    ['/widgets/one', '/nowhere/else', '/widgets/one'],
    'the operational requests are logged at debug, below this logger level',
  );
  health.startDraining();
  const draining = await app.inject({ method: 'GET', url: '/healthcheck' });
  assert.deepEqual([draining.statusCode, draining.body], [503, 'DRAINING']);
  await app.close();
});
