/**
 * The logs and metrics of real `baton placement serve` processes, read as an operator reads
 * them: text lines on stderr at the level asked for, JSON lines appended to `--log-file`
 * by every worker of a pool (each naming itself), the request id of every response in its
 * request's line, and one scrape of the pool's metrics on `--metrics-port` with each
 * worker's series apart.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parsePrometheusText } from '../service/support/prometheus-text.ts';

const MAIN = join(import.meta.dirname, '../../src/cli/main.ts');

interface Running {
  readonly child: ChildProcess;
  readonly url: string;
  readonly out: () => string;
  readonly err: () => string;
  readonly exit: Promise<number | null>;
}

/** Starts the command and waits for `listeners` "listening on" lines (one per worker). */
async function serve(listeners: number, ...args: string[]): Promise<Running> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'placement', 'serve', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr?.on('data', (chunk) => {
    err += chunk;
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      out += chunk;
      const matches = [...out.matchAll(/listening on (http:\/\/\S+)/g)];
      if (matches.length >= listeners && matches[0]?.[1]) resolve(matches[0][1]);
    });
    exit.then((code) => reject(new Error(`exited ${code} before listening: ${out}${err}`)));
  });
  return { child, url, out: () => out, err: () => err, exit };
}

/** A GET on a connection of its own (so a pool's workers share the requests). */
function get(url: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; requestId: string; body: string }>((resolve, reject) => {
    const req = request(url, { agent: false, headers }, (res) => {
      let body = '';
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          requestId: String(res.headers['x-openstack-request-id'] ?? ''),
          body,
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

const ADMIN = { 'x-auth-token': 'admin', 'openstack-api-version': 'placement 1.39' };

describe('placement-api processes: logs and metrics', () => {
  it('text lines on stderr at the level asked for, with the request id of each response', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'placement-logs-'));
    const running = await serve(
      1,
      '--port',
      '0',
      '--db',
      `sqlite:${join(dir, 'p.sqlite')}`,
      '--log-level',
      'debug',
    );
    try {
      const answer = await get(`${running.url}/resource_providers`, ADMIN);
      assert.equal(answer.status, 200);
      const check = await get(`${running.url}/healthcheck`);
      assert.deepEqual([check.status, check.body], [200, 'OK']);
      running.child.kill('SIGTERM');
      assert.equal(await running.exit, 0);
      const lines = running.err().split('\n');
      const line = lines.find((l) => l.includes(`[${answer.requestId}]`));
      assert.match(
        String(line),
        /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} \d+ INFO placement-api \[req-[0-9a-f-]+\] request method=GET path=\/resource_providers route=\/resource_providers status=200 microversion=1\.39 latency_ms=[\d.]+ /,
      );
      assert.ok(
        lines.some((l) =>
          / DEBUG placement-api \[req-[^\]]+\] request .*path=\/healthcheck/.test(l),
        ),
        'the health check is logged at debug',
      );
      assert.ok(lines.some((l) => l.includes('INFO placement-api [-] placement-api stopped')));
    } finally {
      running.child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a pool: JSON lines in --log-file from each worker, and one scrape for all on --metrics-port', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'placement-pool-'));
    const logFile = join(dir, 'log', 'placement.log');
    const running = await serve(
      2,
      '--port',
      '0',
      '--db',
      `sqlite:${join(dir, 'p.sqlite')}`,
      '--workers',
      '2',
      '--log-format',
      'json',
      '--log-file',
      logFile,
      '--metrics-port',
      '0',
    );
    try {
      const metricsUrl = /pool metrics on (http:\/\/\S+)/.exec(running.out())?.[1];
      assert.ok(metricsUrl, running.out());
      const answers = [];
      for (let i = 0; i < 8; i++)
        answers.push(await get(`${running.url}/resource_providers`, ADMIN));
      assert.deepEqual(new Set(answers.map((a) => a.status)), new Set([200]));

      const scrape = await get(metricsUrl);
      assert.equal(scrape.status, 200);
      const requests = parsePrometheusText(scrape.body).get('baton_http_requests_total');
      const byWorker = new Map<string, number>();
      for (const sample of requests?.samples ?? []) {
        assert.equal(sample.labels.route, '/resource_providers');
        const worker = String(sample.labels.worker);
        byWorker.set(worker, (byWorker.get(worker) ?? 0) + sample.value);
      }
      assert.deepEqual([...byWorker.keys()].sort(), ['1', '2'], 'each worker counted apart');
      assert.equal(
        [...byWorker.values()].reduce((a, b) => a + b, 0),
        8,
      );

      running.child.kill('SIGTERM');
      assert.equal(await running.exit, 0, running.err());
      const lines = (await readFile(logFile, 'utf8'))
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      for (const answer of answers) {
        const line = lines.find((l) => l.request_id === answer.requestId);
        assert.equal(line?.msg, 'request', answer.requestId);
        assert.ok(line?.worker === 1 || line?.worker === 2, `worker of ${answer.requestId}`);
      }
      const stopped = lines.filter((l) => l.msg === 'placement-api stopped').map((l) => l.worker);
      assert.deepEqual(stopped.sort(), [1, 2]);
    } finally {
      running.child.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a metrics port in use is refused with one line and exit 1', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'placement-metrics-port-'));
    const first = await serve(1, '--port', '0', '--db', `sqlite:${join(dir, 'a.sqlite')}`);
    try {
      const taken = new URL(first.url).port;
      const child = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          MAIN,
          'placement',
          'serve',
          '--port',
          '0',
          '--db',
          `sqlite:${join(dir, 'b.sqlite')}`,
          '--metrics-port',
          taken,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let err = '';
      child.stderr?.on('data', (chunk) => {
        err += chunk;
      });
      const status = await new Promise((resolve) => child.on('exit', resolve));
      assert.equal(status, 1);
      // Refused before the API listens: the one error line says why (the log may already
      // hold the caps in force, read from the services table before the listeners open).
      const lines = err.split('\n').filter(Boolean);
      assert.deepEqual(
        lines.filter((line) => !/ INFO placement-api /.test(line)),
        [`baton: error: cannot listen for metrics on 127.0.0.1:${taken}: EADDRINUSE`],
      );
      assert.ok(!/ listening /.test(err), err);
    } finally {
      first.child.kill('SIGTERM');
      await first.exit;
      await rm(dir, { recursive: true, force: true });
    }
  });
});
