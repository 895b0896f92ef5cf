/**
 * The dashboard (issue 15 §7) of a running cluster: a bare metal API and two conductors on one
 * SQLite file, real processes through bin/baton.mjs. The JSON feed's shape; the page in a real
 * browser (playwright-core driving Debian's chromium) listing the services, then showing a
 * conductor offline within seconds of its SIGTERM; a screenshot saved to a temporary folder
 * (its path printed); the status a rehearsal publishes shown. And the page and feed refused to
 * a client that is not on loopback.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { buildBaremetalApp } from '../../../src/baremetal/api/app.ts';
import type { BaremetalApiServices } from '../../../src/baremetal/api/context.ts';
import { publishStatus, type StatusPublisher } from '../../../src/rehearsal/status-file.ts';
import { REHEARSAL_STATUS_ENV } from '../../../src/service/dashboard/rehearsal-status.ts';

const BIN = fileURLToPath(new URL('../../../bin/baton.mjs', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Running {
  readonly child: ChildProcess;
  readonly out: () => string;
  readonly exit: Promise<number | null>;
}

function baton(args: readonly string[], env: Record<string, string> = {}): Running {
  const child = spawn(process.execPath, [BIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let out = '';
  child.stdout?.on('data', (chunk) => (out += chunk));
  child.stderr?.on('data', (chunk) => (out += chunk));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, out: () => out, exit };
}

async function until<T>(what: string, probe: () => T | undefined, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe('the dashboard of a running cluster', () => {
  let dir: string;
  let conf: string;
  const processes: Running[] = [];
  let url: string;
  let conductor2: Running;
  let rehearsal: StatusPublisher | undefined;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'dashboard-'));
    conf = join(dir, 'ironic.conf');
    const db = `sqlite:${join(dir, 'baremetal.sqlite')}`;
    await writeFile(
      conf,
      [
        // A stopping conductor serves RPC this long after leaving the ring: short, for a quick stop.
        '[DEFAULT]',
        'hash_ring_reset_interval = 1',
        '[database]',
        `connection = ${db}`,
        '[conductor]',
        'heartbeat_interval = 1',
        '',
      ].join('\n'),
    );
    const upgrade = spawnSync(
      process.execPath,
      [BIN, 'db', 'upgrade', '--service', 'baremetal', '--db', db],
      { encoding: 'utf8' },
    );
    assert.equal(upgrade.status, 0, upgrade.stderr);
    const conductor1 = baton([
      'baremetal',
      'conductor',
      '--config-file',
      conf,
      '--host',
      'dash-c1',
    ]);
    conductor2 = baton(['baremetal', 'conductor', '--config-file', conf, '--host', 'dash-c2']);
    // As `baton rehearse` runs its APIs: its status file named in the environment.
    rehearsal = publishStatus(join(dir, 'rehearsal.json'), () => ({
      step: '2.1',
      title: 'API 1 to the new release, pinned',
      served: 120,
      failed: 0,
    }));
    const api = baton(['baremetal', 'api', '--config-file', conf, '--port', '0'], {
      [REHEARSAL_STATUS_ENV]: join(dir, 'rehearsal.json'),
    });
    processes.push(conductor1, conductor2, api);
    for (const c of [conductor1, conductor2]) {
      await until('a conductor', () => (/serving topic/.test(c.out()) ? true : undefined));
    }
    const line = await until(
      'the API',
      () => /listening on (http:\/\/\S+).*dashboard on (\S+)/.exec(api.out()) ?? undefined,
    );
    url = line[2] as string;
    assert.equal(url, `${line[1]}/dashboard`);
  });

  after(async () => {
    await rehearsal?.stop();
    for (const p of processes) p.child.kill('SIGTERM');
    await Promise.all(processes.map((p) => Promise.race([p.exit, sleep(20_000)])));
    for (const p of processes) p.child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });

  test('the JSON feed: services with release, version, pin, caps, heartbeat age and state; caps; schema; migrations; plan', async () => {
    const answer = await fetch(`${url}/state.json`);
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
    const state = (await answer.json()) as Record<string, unknown> & {
      services: Record<string, unknown>[];
    };
    assert.deepEqual(Object.keys(state).sort(), [
      'caps',
      'generatedAt',
      'objectTables',
      'onlineMigrations',
      'previousRelease',
      'previousReleaseLabel',
      'rehearsal',
      'release',
      'releaseLabel',
      'schema',
      'service',
      'services',
      'upgrade',
    ]);
    assert.equal(state.service, 'baremetal');
    assert.equal(state.release, 'antelope');
    assert.equal(state.releaseLabel, '2023.1 (antelope)');
    assert.deepEqual(
      { ...(state.rehearsal as Record<string, unknown>), updatedAt: 'when' },
      {
        step: '2.1',
        title: 'API 1 to the new release, pinned',
        served: 120,
        failed: 0,
        updatedAt: 'when',
      },
    );
    const conductors = state.services
      .filter((s) => s.binary === 'baremetal-conductor')
      .map((s) => ({ ...s, heartbeatSecondsAgo: typeof s.heartbeatSecondsAgo }));
    assert.deepEqual(conductors, [
      {
        binary: 'baremetal-conductor',
        host: 'dash-c1',
        version: 2,
        runs: 'antelope',
        pin: null,
        capsRelease: null,
        heartbeatSecondsAgo: 'number',
        state: 'live',
      },
      {
        binary: 'baremetal-conductor',
        host: 'dash-c2',
        version: 2,
        runs: 'antelope',
        pin: null,
        capsRelease: null,
        heartbeatSecondsAgo: 'number',
        state: 'live',
      },
    ]);
    assert.equal(state.services.filter((s) => s.binary === 'baremetal-api').length, 1);
    assert.deepEqual(state.schema, {
      state: 'current',
      version: state.schema && (state.schema as { version: string }).version,
      pending: 0,
    });
    assert.equal((state.caps as { source: string }).source, 'latest');
    // Made by this code in one go, nothing older ever registered: no upgrade, finished or not.
    assert.deepEqual(state.upgrade, {
      current: null,
      next: null,
      complete: false,
      fresh: true,
      problems: [],
    });
    assert.ok(Array.isArray(state.onlineMigrations) && state.onlineMigrations.length > 0);
    assert.ok(
      (state.objectTables as { objectName: string }[]).some((t) => t.objectName === 'Node'),
    );
  });

  test('in a browser: the services listed, a stopped conductor offline within seconds; a screenshot', async (t) => {
    if (!existsSync(CHROMIUM)) assert.fail(`${CHROMIUM} is missing: apt-get install chromium`);
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage({ viewport: { width: 1100, height: 760 } });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(url);
      for (const host of ['dash-c1', 'dash-c2']) {
        await page.waitForSelector(`#services tr[data-host="${host}"][data-state="live"]`, {
          timeout: 30_000,
        });
      }
      assert.match((await page.textContent('#title')) ?? '', /^baremetal: 2023\.1 \(antelope\)$/);
      assert.match(
        (await page.textContent('#step')) ?? '',
        /a fresh install of 2023\.1 \(antelope\): nothing to upgrade/,
      );
      assert.match(
        (await page.textContent('#rehearsal-step')) ?? '',
        /^step 2\.1 \(API 1 to the new release, pinned\): 120 requests served, 0 failed$/,
      );
      conductor2.child.kill('SIGTERM');
      const stopped = Date.now();
      await page.waitForSelector('#services tr[data-host="dash-c2"][data-state="offline"]', {
        timeout: 15_000,
      });
      const seconds = (Date.now() - stopped) / 1000;
      t.diagnostic(`dash-c2 shown offline ${seconds.toFixed(1)} s after its SIGTERM`);
      assert.equal(
        await page.getAttribute('#services tr[data-host="dash-c1"]', 'data-state'),
        'live',
      );
      assert.equal(await conductor2.exit, 0, conductor2.out());
      const shots = await mkdtemp(join(tmpdir(), 'dashboard-screenshot-'));
      const shot = join(shots, 'dashboard.png');
      await page.screenshot({ path: shot, fullPage: true });
      t.diagnostic(`screenshot: ${shot}`);
      process.stdout.write(`dashboard screenshot: ${shot}\n`);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
    }
  });
});

test("the page and the feed answer loopback clients only: a 404 in Ironic's format to others", async () => {
  let read = 0;
  const app = await buildBaremetalApp({
    // The dashboard routes touch no service; the feed is counted.
    services: { settings: {} } as BaremetalApiServices,
    dashboard: async () => {
      read++;
      return { ok: true };
    },
  });
  try {
    for (const path of ['/dashboard', '/dashboard/state.json']) {
      const far = await app.inject({ url: path, remoteAddress: '192.0.2.7' });
      assert.equal(far.statusCode, 404, path);
      assert.match(far.body, /"error_message"/);
      const near = await app.inject({ url: path, remoteAddress: '127.0.0.1' });
      assert.equal(near.statusCode, 200, path);
    }
    assert.equal(read, 1);
    const page = await app.inject({ url: '/dashboard', remoteAddress: '::1' });
    assert.match(page.headers['content-type'] as string, /^text\/html/);
    assert.doesNotMatch(page.body, /<script src=|<link /);
  } finally {
    await app.close();
  }
});
