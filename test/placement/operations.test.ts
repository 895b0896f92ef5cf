/**
 * Placement's logs, health check and metrics as its composition root wires them, on a real
 * server (in this process, its log lines captured): the request id a response reports is in
 * that request's log line; a 500 is logged with its stack under the id its body gave;
 * `/healthcheck` answers OK, then DRAINING after a stop while requests are still served;
 * `/metrics` parses and its counters move (routes as patterns, 409s by code, the services
 * table, the caps in force). The logging options come from the INI file and flags win.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { runCli } from '../../src/cli/main.ts';
import { configFromIni } from '../../src/placement/config-file.ts';
import {
  type PlacementServer,
  planPlacementApi,
  startPlacementApi,
} from '../../src/placement/service.ts';
import { logSettingsOf } from '../../src/service/index.ts';
import {
  parsePrometheusText,
  parseWithPythonClient,
  sampleValue,
} from '../service/support/prometheus-text.ts';

type Line = Record<string, unknown>;

const ADMIN = { 'x-auth-token': 'admin', 'openstack-api-version': 'placement 1.39' };
const RP = '9b2b3b1c-8f61-4d8e-a0e3-5c1f2b7d6e40';

describe('Placement operations', () => {
  let dir: string;
  let server: PlacementServer;
  const lines: Line[] = [];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'placement-operations-'));
    const plan = await planPlacementApi({
      flags: {
        port: 0,
        drainDelaySeconds: 1,
        useJson: true,
        databaseUrl: `sqlite:${join(dir, 'placement.sqlite')}`,
      },
    });
    server = await startPlacementApi(plan, {
      logSink: { write: (line: string) => lines.push(JSON.parse(line) as Line) },
    });
  });
  after(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { ...ADMIN, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  /** The log lines of one request id. */
  const linesOf = async (id: string | null) => {
    await new Promise((resolve) => setTimeout(resolve, 20));
    return lines.filter((line) => line.request_id === id);
  };

  it('logs one line per request with the request id the response reported', async () => {
    const created = await call('POST', '/resource_providers', { name: 'cn1', uuid: RP });
    assert.equal(created.status, 200);
    const id = created.headers.get('x-openstack-request-id');
    assert.match(String(id), /^req-/);
    const [line, ...more] = await linesOf(id);
    assert.equal(more.length, 0);
    assert.equal(line?.msg, 'request');
    assert.equal(line?.level, 'info');
    assert.equal(line?.binary, 'placement-api');
    assert.equal(line?.method, 'POST');
    assert.equal(line?.path, '/resource_providers');
    assert.equal(line?.status, 200);
    assert.equal(line?.microversion, '1.39');
    assert.equal(typeof line?.latency_ms, 'number');
  });

  it('logs a 500 with its stack under the request id its body reported', async () => {
    const db = new Database(join(dir, 'placement.sqlite'));
    db.exec('CREATE TABLE traits_kept AS SELECT * FROM traits; DROP TABLE traits');
    try {
      const broken = await call('GET', '/traits');
      assert.equal(broken.status, 500);
      const body = (await broken.json()) as { errors: { request_id: string; detail: string }[] };
      const id = body.errors[0]?.request_id as string;
      assert.equal(broken.headers.get('x-openstack-request-id'), id);
      assert.match(String(body.errors[0]?.detail), /it has been logged with this request id/);
      const [stack, request] = await linesOf(id);
      assert.equal(stack?.level, 'error');
      const err = stack?.err as { message: string; stack: string };
      assert.match(err.message, /no such table: traits/);
      assert.match(err.stack, /\n\s+at /);
      assert.deepEqual([request?.level, request?.status], ['error', 500]);
    } finally {
      db.exec('CREATE TABLE traits AS SELECT * FROM traits_kept; DROP TABLE traits_kept');
      db.close();
    }
  });

  it('counts requests by route pattern and 409s by code; the scrape parses', async () => {
    const inventories = `/resource_providers/${RP}/inventories`;
    const stale = { resource_provider_generation: 99, inventories: { VCPU: { total: 8 } } };
    assert.equal((await call('PUT', inventories, stale)).status, 409);
    assert.equal((await call('GET', `/resource_providers/${RP}`)).status, 200);
    assert.equal((await call('GET', '/no/such/thing')).status, 404);
    const scrape = await fetch(`${server.url}/metrics`);
    assert.equal(scrape.status, 200);
    const text = await scrape.text();
    const families = parsePrometheusText(text);
    parseWithPythonClient(text);
    const byRoute = (route: string, method: string, status: string) =>
      sampleValue(families, 'baton_http_requests_total', { route, method, status });
    assert.equal(byRoute('/resource_providers/{uuid}', 'GET', '200'), 1);
    assert.equal(byRoute('/resource_providers/{uuid}/inventories', 'PUT', '409'), 1);
    assert.equal(byRoute('unmatched', 'GET', '404'), 1);
    const raw = families
      .get('baton_http_requests_total')
      ?.samples.filter((sample) => String(sample.labels.route).includes(RP));
    assert.deepEqual(raw, [], 'never the raw path');
    assert.equal(
      sampleValue(families, 'baton_http_conflicts_total', {
        route: '/resource_providers/{uuid}/inventories',
        code: 'placement.concurrent_update',
      }),
      1,
    );
    assert.equal(
      sampleValue(families, 'baton_service_minimum_version', { binary: 'placement-api' }),
      1,
    );
    assert.equal(
      sampleValue(families, 'baton_service_live_processes', { binary: 'placement-api' }),
      1,
    );
    assert.equal(
      sampleValue(families, 'baton_caps_in_force_info', { release: 'master', api_max: '1.39' }),
      1,
    );
    assert.equal(
      sampleValue(families, 'baton_process_info', {
        service: 'placement',
        binary: 'placement-api',
      }),
      1,
    );
    // Scrapes and health checks are not requests of the API.
    assert.equal(byRoute('/metrics', 'GET', '200'), undefined);
  });

  it('answers /healthcheck without a token, then DRAINING while it drains, still serving', async () => {
    const ok = await fetch(`${server.url}/healthcheck`);
    assert.deepEqual([ok.status, await ok.text()], [200, 'OK']);
    const closing = server.close();
    const draining = await fetch(`${server.url}/healthcheck`);
    assert.deepEqual([draining.status, await draining.text()], [503, 'DRAINING']);
    assert.equal((await call('GET', `/resource_providers/${RP}`)).status, 200);
    await closing;
    await assert.rejects(fetch(`${server.url}/healthcheck`));
    assert.ok(lines.some((line) => line.msg === 'placement-api stopped'));
  });
});

describe('Placement logging settings', () => {
  it('refuses a bad level, format or log file with one line and exit 64', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'placement-log-flags-'));
    try {
      const aFile = join(dir, 'a-file');
      await writeFile(aFile, '');
      const db = `sqlite:${join(dir, 'p.sqlite')}`;
      const cases: [string[], RegExp][] = [
        [['--log-level', 'loud'], /^baton: error: --log-level must be one of trace, debug, info/],
        [
          ['--log-format', 'xml'],
          /^baton: error: --log-format: 'xml' is not json, text or a boolean/,
        ],
        [['--log-file', join(aFile, 'x.log')], /^baton: error: cannot open log file .*x\.log: E/],
      ];
      for (const [flags, message] of cases) {
        let err = '';
        const status = await runCli(['placement', 'serve', '--port', '0', '--db', db, ...flags], {
          out: () => {},
          err: (text) => {
            err += text;
          },
        });
        assert.equal(status, 64, flags.join(' '));
        assert.match(err, message);
        assert.equal(err.split('\n').length, 2, 'one line');
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reads oslo.log and the healthcheck and metrics options from the INI file', () => {
    const { settings } = configFromIni(
      [
        '[DEFAULT]',
        'debug = true',
        'use_json = true',
        'log_file = placement.log',
        'log_dir = /var/log/placement',
        '[healthcheck]',
        'disable_by_file_path = /etc/placement/healthcheck_disable',
        'drain_delay = 5',
        '[metrics]',
        'enabled = false',
        'bind_host = 0.0.0.0',
        'bind_port = 9178',
        'refresh_interval = 30',
      ].join('\n'),
    );
    assert.deepEqual(settings, {
      debug: true,
      useJson: true,
      logFile: 'placement.log',
      logDir: '/var/log/placement',
      healthcheckDisableByFilePath: '/etc/placement/healthcheck_disable',
      drainDelaySeconds: 5,
      metricsEnabled: false,
      metricsHost: '0.0.0.0',
      metricsPort: 9178,
      metricsRefreshSeconds: 30,
    });
    assert.throws(() => configFromIni('[metrics]\nbind_port = x\n'), /\[metrics\] bind_port: 'x'/);
    assert.throws(() => configFromIni('[DEFAULT]\ndebug = loud\n'), /\[DEFAULT\] debug: 'loud'/);
  });

  it('the flags win over the file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'placement-logging-'));
    try {
      const file = join(dir, 'placement.conf');
      await writeFile(file, '[DEFAULT]\ndebug = true\nuse_json = true\nlog_file = from-file.log\n');
      const plan = (flags: Record<string, unknown>) =>
        planPlacementApi({ configFile: file, flags, dataDir: dir });
      assert.deepEqual(logSettingsOf((await plan({})).config), {
        level: 'debug',
        format: 'json',
        file: 'from-file.log',
      });
      assert.deepEqual(
        logSettingsOf(
          (await plan({ logLevel: 'warn', useJson: false, logFile: '/tmp/flag.log' })).config,
        ),
        { level: 'warn', format: 'text', file: '/tmp/flag.log' },
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
