/**
 * A process's metrics: the scrape is valid text exposition (a strict reader and Python's
 * prometheus_client agree) and its counters and gauges move with what happens: requests by
 * route pattern, 409s by code, RPC calls by outcome, online-migration batches from the real
 * runner, the caps in force, the services table as last read, a service's own gauge.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  createOnlineMigrationRegistry,
  type Database,
  openDatabase,
  registerService,
  runOnlineMigrations,
  type ServiceRegistration,
} from '../../src/db/index.ts';
import { capsInForce } from '../../src/releases/index.ts';
import {
  defineRpcVersions,
  LocalBus,
  LocalTransport,
  RpcClient,
  RpcServer,
} from '../../src/rpc/index.ts';
import { codeVersionsOf, masterReleaseOf, watchServices } from '../../src/service/index.ts';
import { DeploymentGauges } from '../../src/service/metrics/deployment-gauges.ts';
import { HttpMetrics } from '../../src/service/metrics/http-metrics.ts';
import { OnlineMigrationGauges } from '../../src/service/metrics/online-migration-gauges.ts';
import { ProcessMetrics } from '../../src/service/metrics/process-metrics.ts';
import { RpcMetrics } from '../../src/service/metrics/rpc-metrics.ts';
import {
  createWidgetTable,
  seedWidgets,
  Widget,
} from '../db/online-migrations/support/widget-service.ts';
import { createScratchDatabase } from '../db/support/backends.ts';
import {
  parsePrometheusText,
  parseWithPythonClient,
  sampleValue,
} from './support/prometheus-text.ts';

const identity = { service: 'widgets', binary: 'widget-api', release: '2026.1', serviceVersion: 4 };

async function scraped(metrics: ProcessMetrics) {
  const { body, contentType } = await metrics.scrape();
  assert.equal(contentType, 'text/plain; version=0.0.4; charset=utf-8');
  return { body, families: parsePrometheusText(body) };
}

test('a scrape of a fresh process parses, strictly and by Python, and names the process', async () => {
  const metrics = new ProcessMetrics(identity);
  new HttpMetrics(metrics.registry);
  new RpcMetrics(metrics.registry);
  const { body, families } = await scraped(metrics);
  assert.equal(
    sampleValue(families, 'baton_process_info', {
      service: 'widgets',
      binary: 'widget-api',
      release: '2026.1',
      service_version: '4',
    }),
    1,
  );
  assert.ok(families.has('process_cpu_user_seconds_total'), "Node's process metrics");
  assert.equal(families.get('baton_http_requests_total')?.type, 'counter');
  assert.equal(families.get('baton_http_request_duration_seconds')?.type, 'histogram');
  const python = parseWithPythonClient(body);
  assert.equal(python.baton_process_info, 1);
  // prometheus_client names counter families without their _total suffix.
  assert.ok('baton_http_requests' in python);
});

test('requests: counted by route pattern, status and microversion, timed; 409s by code', async () => {
  const metrics = new ProcessMetrics(identity, { processMetrics: false });
  const http = new HttpMetrics(metrics.registry);
  const route = '/resource_providers/{uuid}';
  http.record({ method: 'GET', route, status: 200, microversion: '1.39', seconds: 0.002 });
  http.record({ method: 'GET', route, status: 200, microversion: '1.39', seconds: 0.2 });
  http.record({
    method: 'PUT',
    route,
    status: 409,
    microversion: '1.39',
    seconds: 0.004,
    errorCode: 'placement.concurrent_update',
  });
  const { body, families } = await scraped(metrics);
  const get = { method: 'GET', route, status: '200', microversion: '1.39' };
  assert.equal(sampleValue(families, 'baton_http_requests_total', get), 2);
  assert.equal(sampleValue(families, 'baton_http_request_duration_seconds_count', get), 2);
  assert.equal(
    sampleValue(families, 'baton_http_request_duration_seconds_bucket', { ...get, le: '0.0025' }),
    1,
  );
  assert.ok(
    Math.abs((sampleValue(families, 'baton_http_request_duration_seconds_sum', get) ?? 0) - 0.202) <
      1e-9,
  );
  assert.equal(
    sampleValue(families, 'baton_http_conflicts_total', {
      route,
      code: 'placement.concurrent_update',
    }),
    1,
  );
  parseWithPythonClient(body);
});

test('RPC: the observer counts calls by side, method, version and outcome', async () => {
  const metrics = new ProcessMetrics(identity, { processMetrics: false });
  const rpc = new RpcMetrics(metrics.registry);
  const bus = new LocalBus();
  const server = new RpcServer({
    transport: new LocalTransport(bus),
    topic: 'widget.conductor',
    server: 'w1',
    endpoints: [{ version: '1.4', methods: { ping: { params: {}, handle: () => 'pong' } } }],
    observer: rpc,
  });
  await server.start();
  const client = new RpcClient({
    transport: new LocalTransport(bus),
    topic: 'widget.conductor',
    version: '1.4',
    observer: rpc,
  });
  await client.call('ping');
  await client.call('ping');
  await assert.rejects(client.prepare({ version: '2.0' }).call('ping'));
  await server.stop();
  const { families } = await scraped(metrics);
  const base = { topic: 'widget.conductor', method: 'ping', kind: 'call' };
  for (const side of ['client', 'server']) {
    assert.equal(
      sampleValue(families, 'baton_rpc_requests_total', {
        ...base,
        side,
        version: '1.4',
        outcome: 'ok',
      }),
      2,
      side,
    );
    assert.equal(
      sampleValue(families, 'baton_rpc_requests_total', {
        ...base,
        side,
        version: '2.0',
        outcome: 'unsupported_version',
      }),
      1,
      side,
    );
  }
});

test('caps in force and object targets as info gauges; a pinned release lowers them', async () => {
  const code = codeVersionsOf({
    apiVersions: ['1.0', '1.1', '1.2'],
    rpcVersions: defineRpcVersions([
      { version: '1.3', note: 'the previous release' },
      { version: '1.4', note: 'this one' },
    ]),
    objectTypes: [Widget],
  });
  const releases = {
    '2025.2': { api: '1.1', rpc: '1.3', objects: { Widget: ['1.0'] } },
    master: masterReleaseOf(code),
  };
  const metrics = new ProcessMetrics(identity, { processMetrics: false });
  const gauges = new DeploymentGauges(metrics.registry, () => undefined);
  gauges.setCaps(capsInForce(releases, undefined), code);
  let { families } = await scraped(metrics);
  assert.equal(
    sampleValue(families, 'baton_caps_in_force_info', {
      release: 'master',
      api_max: '1.2',
      rpc_cap: '1.4',
    }),
    1,
  );
  assert.equal(
    sampleValue(families, 'baton_caps_object_version_info', { object: 'Widget', version: '1.1' }),
    1,
  );
  gauges.setCaps(capsInForce(releases, '2025.2'), code);
  ({ families } = await scraped(metrics));
  assert.equal(
    families.get('baton_caps_in_force_info')?.samples.length,
    1,
    'the old caps are gone',
  );
  assert.equal(
    sampleValue(families, 'baton_caps_in_force_info', {
      release: '2025.2',
      api_max: '1.1',
      rpc_cap: '1.3',
    }),
    1,
  );
  assert.equal(
    sampleValue(families, 'baton_caps_object_version_info', { object: 'Widget', version: '1.0' }),
    1,
  );
});

test('a service gauge read at each scrape; one that fails is left out and counted', async () => {
  const errors: string[] = [];
  const metrics = new ProcessMetrics(identity, {
    processMetrics: false,
    onCollectError: (name, error) => errors.push(`${name}: ${(error as Error).message}`),
  });
  let nodes: [string, number][] = [
    ['available', 3],
    ['active', 1],
  ];
  metrics.addCollectedGauge({
    name: 'baton_baremetal_nodes',
    help: 'Nodes by provision state.',
    labelNames: ['provision_state'],
    collect: async () =>
      nodes.map(([state, value]) => ({ labels: { provision_state: state }, value })),
  });
  let failing = false;
  metrics.addCollectedGauge({
    name: 'baton_flaky',
    help: 'A gauge whose source may fail.',
    labelNames: [],
    collect: () => {
      if (failing) throw new Error('database is gone');
      return [{ labels: {}, value: 5 }];
    },
  });
  let { families } = await scraped(metrics);
  assert.equal(sampleValue(families, 'baton_baremetal_nodes', { provision_state: 'available' }), 3);
  assert.equal(sampleValue(families, 'baton_flaky'), 5);
  nodes = [['active', 4]];
  failing = true;
  ({ families } = await scraped(metrics));
  assert.equal(
    sampleValue(families, 'baton_baremetal_nodes', { provision_state: 'available' }),
    undefined,
  );
  assert.equal(sampleValue(families, 'baton_baremetal_nodes', { provision_state: 'active' }), 4);
  assert.ok(Number.isNaN(sampleValue(families, 'baton_flaky')));
  // A scrape reads the counters while the gauges are collected: the next one counts the failure.
  failing = false;
  ({ families } = await scraped(metrics));
  assert.equal(sampleValue(families, 'baton_flaky'), 5);
  assert.equal(
    sampleValue(families, 'baton_metrics_collect_failures_total', { gauge: 'baton_flaky' }),
    1,
  );
  assert.deepEqual(errors, ['baton_flaky: database is gone']);
});

test('a worker of a pool labels every series with its number', async () => {
  const metrics = new ProcessMetrics({ ...identity, worker: 3 }, { processMetrics: false });
  const { families } = await scraped(metrics);
  assert.equal(family(families, 'baton_process_info').samples[0]?.labels.worker, '3');
});

function family(families: ReturnType<typeof parsePrometheusText>, name: string) {
  const found = families.get(name);
  assert.ok(found, `no family ${name}`);
  return found;
}

let scratch: { url: string; drop: () => Promise<void> } | undefined;
let db: Database;
before(async () => {
  scratch = await createScratchDatabase('sqlite');
  db = await openDatabase(scratch.url);
});
after(async () => {
  await db?.close();
  await scratch?.drop();
});

test('online migrations: the runner moves the gauges batch by batch, then its report', async () => {
  const table = 'om_gauge_widgets';
  await createWidgetTable(db, table);
  await seedWidgets(db, table, ['1.0', '1.0', null, '1.0', '1.0']);
  const registry = createOnlineMigrationRegistry({
    service: 'widgets',
    migrations: [],
    objectTables: [{ table, type: Widget }],
  });
  const metrics = new ProcessMetrics(identity, { processMetrics: false });
  const gauges = new OnlineMigrationGauges(metrics.registry, 'widgets');
  const labels = { service: 'widgets', migration: 'update_to_latest_versions' };
  // What a scrape between two batches reads (a scrape takes no I/O: it ends before the next batch).
  const between: Promise<string>[] = [];
  const report = await runOnlineMigrations(db, registry, {
    batchSize: 2,
    onBatch: (progress) => {
      gauges.onBatch(progress);
      between.push(metrics.registry.metrics());
    },
  });
  gauges.recordReport(report);
  const seen = (await Promise.all(between)).map((text) => {
    const families = parsePrometheusText(text);
    return [
      sampleValue(families, 'baton_online_migration_remaining_rows', labels),
      sampleValue(families, 'baton_online_migration_migrated_rows', labels),
    ];
  });
  assert.deepEqual(seen, [
    [3, 2],
    [1, 4],
    [0, 5],
  ]);
  const { families } = await scraped(metrics);
  assert.equal(sampleValue(families, 'baton_online_migration_remaining_rows', labels), 0);
  assert.equal(sampleValue(families, 'baton_online_migration_migrated_rows', labels), 5);
});

test('the services table: lowest live version and live processes per binary, re-read', async () => {
  const registrations: ServiceRegistration[] = [];
  registrations.push(await registerService(db, { binary: 'widget-api', host: 'a:1', version: 4 }));
  registrations.push(await registerService(db, { binary: 'widget-api', host: 'b:1', version: 3 }));
  registrations.push(await registerService(db, { binary: 'other-api', host: 'c:1', version: 1 }));
  const watch = await watchServices(db, { binaries: ['widget-api', 'widget-conductor'] });
  try {
    const metrics = new ProcessMetrics(identity, { processMetrics: false });
    new DeploymentGauges(metrics.registry, () => watch.current());
    let { families } = await scraped(metrics);
    assert.equal(
      sampleValue(families, 'baton_service_minimum_version', { binary: 'widget-api' }),
      3,
    );
    assert.equal(
      sampleValue(families, 'baton_service_live_processes', { binary: 'widget-api' }),
      2,
    );
    assert.equal(
      sampleValue(families, 'baton_service_live_processes', { binary: 'widget-conductor' }),
      0,
    );
    assert.equal(
      sampleValue(families, 'baton_service_minimum_version', { binary: 'widget-conductor' }),
      undefined,
    );
    assert.equal(
      sampleValue(families, 'baton_service_minimum_version', { binary: 'other-api' }),
      undefined,
    );
    await registrations[1]?.deregister();
    await watch.refresh();
    ({ families } = await scraped(metrics));
    assert.equal(
      sampleValue(families, 'baton_service_minimum_version', { binary: 'widget-api' }),
      4,
    );
    assert.equal(
      sampleValue(families, 'baton_service_live_processes', { binary: 'widget-api' }),
      1,
    );
  } finally {
    await watch.stop();
    for (const registration of registrations) await registration.deregister();
  }
});
