/**
 * The dashboard (issue 15 §7, issue 22 §6) of a running cluster: a bare metal API and two
 * conductors on one SQLite file, real processes through bin/baton.mjs, and a Placement process
 * registered in the same database. The JSON feed's shape; the page in a real browser
 * (playwright-core driving Debian's chromium) listing both services' processes, the nodes by
 * provision state with those in error and in maintenance, no full bar for an empty table, a
 * green banner while every process can work, then a conductor offline within seconds of its
 * SIGTERM (amber), and red once no conductor is online; a screenshot saved to a temporary
 * folder (its path printed); the status a rehearsal publishes shown. And the page and feed
 * refused to a client that is not on loopback.
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
import { openDatabase, registerService, type ServiceRegistration } from '../../../src/db/index.ts';
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

async function until<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  ms = 90_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
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
  let conductor1: Running;
  let conductor2: Running;
  let rehearsal: StatusPublisher | undefined;
  let placement: ServiceRegistration | undefined;
  let apiUrl: string;

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
    conductor1 = baton(['baremetal', 'conductor', '--config-file', conf, '--host', 'dash-c1']);
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
    apiUrl = line[1] as string;
    assert.equal(url, `${line[1]}/dashboard`);
    // Placement sharing the database, as under `baton up`: its process is shown beside.
    const shared = await openDatabase(db);
    placement = await registerService(shared, {
      binary: 'placement-api',
      host: 'dash-p1:8778',
      version: 1,
      process: { pid: 4321 },
    });
    // Nodes: one in maintenance, one with an error (as a failed deploy leaves it).
    const headers = {
      'X-OpenStack-Ironic-API-Version': '1.82',
      'Content-Type': 'application/json',
    };
    for (const name of ['dash-n1', 'dash-n2']) {
      const made = await fetch(`${apiUrl}/v1/nodes`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ driver: 'fake-hardware', name }),
      });
      assert.equal(made.status, 201, await made.text());
    }
    const held = await fetch(`${apiUrl}/v1/nodes/dash-n1/maintenance`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ reason: 'disk swap' }),
    });
    assert.equal(held.status, 202, await held.text());
    await shared.kysely
      .updateTable('nodes' as never)
      .set({ last_error: 'deploy failed' } as never)
      .where('name' as never, '=', 'dash-n2' as never)
      .execute();
    await shared.close();
  });

  after(async () => {
    await rehearsal?.stop();
    await placement?.deregister().catch(() => undefined);
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
    assert.deepEqual(
      Object.keys(state).sort(),
      [
        'caps',
        'generatedAt',
        'objectTables',
        'onlineMigrations',
        'previousRelease',
        'previousReleaseLabel',
        'inventory',
        'rehearsal',
        'release',
        'releaseLabel',
        'schema',
        'service',
        'services',
        'status',
        'upgrade',
      ].sort(),
    );
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
      .map((s) => ({
        ...s,
        heartbeatSecondsAgo: typeof s.heartbeatSecondsAgo,
        pid: typeof s.pid,
      }));
    assert.deepEqual(conductors, [
      {
        service: 'baremetal',
        binary: 'baremetal-conductor',
        host: 'dash-c1',
        version: 2,
        runs: 'antelope',
        pin: null,
        capsRelease: null,
        heartbeatSecondsAgo: 'number',
        state: 'live',
        health: null,
        pid: 'number',
        configFiles: [conf],
      },
      {
        service: 'baremetal',
        binary: 'baremetal-conductor',
        host: 'dash-c2',
        version: 2,
        runs: 'antelope',
        pin: null,
        capsRelease: null,
        heartbeatSecondsAgo: 'number',
        state: 'live',
        health: null,
        pid: 'number',
        configFiles: [conf],
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
    // Placement's process, from the same services table.
    const placementRows = state.services.filter((s) => s.service === 'placement');
    assert.deepEqual(
      placementRows.map((s) => [s.binary, s.host, s.runs, s.pid, s.state]),
      [['placement-api', 'dash-p1:8778', '2026.1', 4321, 'live']],
    );
    assert.deepEqual(state.inventory, {
      title: 'Nodes',
      total: 2,
      errors: 1,
      maintenance: 1,
      states: [{ state: 'enroll', count: 2, errors: 1, maintenance: 1 }],
    });
    assert.deepEqual(state.status, { level: 'ok', reasons: [] });
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
      // Both services, the nodes, and green while every process can work.
      await page.waitForSelector('#services tr[data-host="dash-p1:8778"][data-state="live"]');
      assert.equal(await page.getAttribute('#status', 'class'), 'ok');
      assert.match(
        (await page.textContent('#inventory-total')) ?? '',
        /^2 in all, 1 with an error, 1 in maintenance$/,
      );
      assert.deepEqual(
        await page.$$eval('#inventory tbody tr', (rows) =>
          rows.map((r) => [...r.querySelectorAll('td')].map((c) => c.textContent)),
        ),
        [['enroll', '2', '1', '1']],
      );
      // An empty object table (no chassis here) shows no bar at all, let alone a full one.
      const chassis = await page.$$eval('#tables tbody tr', (rows) =>
        rows
          .filter((r) => r.textContent?.startsWith('Chassis'))
          .map((r) => ({
            text: r.querySelector('td:last-child')?.textContent,
            bars: r.querySelectorAll('.bar').length,
          })),
      );
      assert.deepEqual(chassis, [{ text: 'no rows', bars: 0 }]);
      conductor2.child.kill('SIGTERM');
      const stopped = Date.now();
      // While it drains (offline, its row still there): amber, the other one still serves.
      const draining = await until('dash-c2 draining in the feed', async () => {
        const feed = (await (await fetch(`${url}/state.json`)).json()) as {
          status: { level: string; reasons: string[] };
          services: { host: string; state: string }[];
        };
        return feed.services.some((s) => s.host === 'dash-c2' && s.state === 'offline')
          ? feed
          : undefined;
      });
      assert.deepEqual(draining.status, {
        level: 'warning',
        reasons: ['baremetal-conductor on dash-c2 is offline'],
      });
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
      // None left: the nodes cannot be acted on, and the page says so in red, not green.
      conductor1.child.kill('SIGTERM');
      await page.waitForSelector('#status.error', { timeout: 15_000 });
      assert.match(
        (await page.textContent('#status')) ?? '',
        /^cannot do its work: no baremetal-conductor is online/,
      );
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
