/**
 * `baton baremetal api` as an operator runs it, beside `baton baremetal conductor` on one
 * SQLite file: it prints its URL, serves (a node created through it reaches the conductor over
 * http RPC), registers in the services table, and on SIGTERM drains (health check 503 first,
 * requests still answered) and exits 0 having left the table; refusals end with one line and
 * a status.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../../src/cli/main.ts';
import { listServices, openDatabase } from '../../src/db/index.ts';
import { API, pythonEnv, realIronicMissing } from '../support/real-ironic.ts';
import { skipOutsideCi } from '../support/skip-outside-ci.ts';

const MAIN = join(import.meta.dirname, '../../src/cli/main.ts');
const HEADERS = { 'X-OpenStack-Ironic-API-Version': '1.80', 'Content-Type': 'application/json' };

interface Running {
  readonly child: ChildProcess;
  readonly output: () => { out: string; err: string };
  readonly exit: Promise<number | null>;
}

/** Spawns `baton baremetal <args>` and waits until its output matches `ready`. */
async function start(
  args: readonly string[],
  ready: RegExp,
): Promise<Running & { match: RegExpMatchArray }> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'baremetal', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr?.on('data', (chunk) => {
    err += chunk;
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const match = await new Promise<RegExpMatchArray>((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      out += chunk;
      const found = out.match(ready);
      if (found) resolve(found);
    });
    exit.then((code) => reject(new Error(`exited ${code}: ${out}${err}`)));
  });
  return { child, match, output: () => ({ out, err }), exit };
}

async function baton(...argv: string[]) {
  let out = '';
  let err = '';
  const status = await runCli(argv, {
    out: (line) => {
      out += `${line}\n`;
    },
    err: (text) => {
      err += text;
    },
  });
  return { status, out, err };
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('baton baremetal api', () => {
  it('serves beside a conductor, registers, and drains on SIGTERM, exiting 0', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'baremetal-api-'));
    const dbUrl = `sqlite:${join(dir, 'baremetal.sqlite')}`;
    const conf = join(dir, 'baremetal.conf');
    await writeFile(
      conf,
      [
        '[DEFAULT]',
        'host = cli-conductor',
        '[database]',
        `connection = ${dbUrl}`,
        '[api]',
        'port = 6385',
        'drain_wait = 1',
        'max_limit = 1',
        '[conductor]',
        'heartbeat_interval = 1',
        'automated_clean = false',
        '',
      ].join('\n'),
    );
    const conductor = await start(['conductor', '--config-file', conf], /serving topic/);
    let api: Awaited<ReturnType<typeof start>> | undefined;
    try {
      // The flags win over the file: --host and --port are where the API listens.
      api = await start(
        ['api', '--config-file', conf, '--host', '127.0.0.1', '--port', '0'],
        /listening on (http:\/\/\S+)/,
      );
      const url = api.match[1] as string;
      assert.match(api.output().out, /API 1\.1 to 1\.82, caps in force: latest\)/);
      const created = await fetch(`${url}/v1/nodes`, {
        method: 'POST',
        headers: HEADERS,
        body: JSON.stringify({ driver: 'fake-hardware', name: 'from-cli' }),
      });
      assert.equal(created.status, 201);
      const node = (await created.json()) as { conductor: string; provision_state: string };
      assert.equal(node.conductor, 'cli-conductor');
      assert.equal(node.provision_state, 'enroll');
      await fetch(`${url}/v1/nodes`, {
        method: 'POST',
        headers: HEADERS,
        body: JSON.stringify({ driver: 'fake-hardware' }),
      });
      const page = (await (await fetch(`${url}/v1/nodes`, { headers: HEADERS })).json()) as {
        nodes: unknown[];
        next?: string;
      };
      assert.equal(page.nodes.length, 1, '[api] max_limit caps the page');
      assert.match(String(page.next), /limit=1&marker=/);

      const db = await openDatabase(dbUrl);
      try {
        // (The http transport's conductor peer has a row of its own, named by its topic.)
        const rows = await listServices(db);
        const binaries = rows.map((service) => service.binary);
        assert.ok(binaries.includes('baremetal-conductor'), binaries.join());
        // The API's row is named by `[DEFAULT] host`, as the conductor's, and its port.
        assert.deepEqual(
          rows.filter((row) => row.binary === 'baremetal-api').map((row) => row.host),
          [`cli-conductor:${new URL(url).port}`],
        );
      } finally {
        await db.close();
      }

      api.child.kill('SIGTERM');
      await sleep(300);
      const health = await fetch(`${url}/healthcheck`);
      assert.equal(health.status, 503);
      const served = await fetch(`${url}/v1/nodes/from-cli`, { headers: HEADERS });
      assert.equal(served.status, 200);
      assert.equal(await api.exit, 0, api.output().err);
      assert.match(api.output().out, /stopping \(SIGTERM\): health check failed for 1 s/);
      // The file's [api] drain_wait is the deprecated name of [healthcheck] drain_delay.
      assert.match(
        api.output().err,
        /baton: warning: Option "drain_wait" from group "api" is deprecated\. Use option "drain_delay" from group "healthcheck"\./,
      );
      assert.match(api.output().out, /baremetal-api stopped/);
      const after = await openDatabase(dbUrl);
      try {
        const binaries = (await listServices(after)).map((service) => service.binary);
        assert.ok(!binaries.includes('baremetal-api'), 'a clean stop deregisters');
        assert.ok(binaries.includes('baremetal-conductor'));
      } finally {
        await after.close();
      }
    } finally {
      api?.child.kill('SIGKILL');
      conductor.child.kill('SIGTERM');
      await conductor.exit;
    }
  });

  it('a pool of two with --metrics-port: one scrape counts both workers, SIGTERM exits 0', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'baremetal-api-pool-'));
    const db = `sqlite:${join(dir, 'baremetal.sqlite')}`;
    const args = ['api', '--db', db, '--port', '0', '--api-workers', '2', '--drain-wait', '0'];
    // Both workers print their line; the pool's metrics line comes first.
    const api = await start(
      [...args, '--metrics-port', '0', '--log-file', join(dir, 'api.log')],
      /listening on (http:\/\/\S+)[\s\S]*listening on/,
    );
    try {
      const url = api.match[1] as string;
      const metricsUrl = /pool metrics on (http:\/\/\S+)\/metrics/.exec(api.output().out)?.[1];
      assert.ok(metricsUrl, api.output().out);
      for (let i = 0; i < 8; i++) {
        // A connection each, so the two workers share the requests.
        const answer = await fetch(`${url}/v1/chassis`, { headers: { Connection: 'close' } });
        assert.equal(answer.status, 200);
      }
      const scrape = await (await fetch(`${metricsUrl}/metrics`)).text();
      const counted = [...scrape.matchAll(/^baton_http_requests_total\{([^}]*)\} (\d+)$/gm)].filter(
        (m) => m[1]?.includes('route="/v1/chassis"'),
      );
      const workers = new Set(counted.map((m) => /worker="(\d+)"/.exec(m[1] ?? '')?.[1]));
      assert.deepEqual([...workers].sort(), ['1', '2'], scrape);
      assert.equal(
        counted.reduce((sum, m) => sum + Number(m[2]), 0),
        8,
      );
      api.child.kill('SIGTERM');
      assert.equal(await api.exit, 0, api.output().err);
    } finally {
      api.child.kill('SIGKILL');
    }
  });

  it('exits 1 on an unknown pin listing the releases, as the real ironic-api does', {
    skip: skipOutsideCi(realIronicMissing()),
  }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'real-pin-'));
    const conf = join(dir, 'ironic.conf');
    await writeFile(
      conf,
      `[DEFAULT]\nauth_strategy = noauth\npin_release_version = bogus\n[database]\nconnection = sqlite:///${join(dir, 'i.sqlite')}\n[api]\nhost_ip = 127.0.0.1\nport = 0\n`,
    );
    const real = spawnSync(API, ['--config-file', conf], {
      env: pythonEnv(),
      encoding: 'utf8',
      timeout: 120_000,
    });
    assert.equal(real.status, 1);
    const valid = /Valid values are \[([^\]]*)\], but found 'bogus'/.exec(
      real.stdout + real.stderr,
    );
    assert.ok(valid, 'the real one lists the valid releases');
    const realReleases = (valid[1] ?? '').split(', ');
    const ours = await baton(
      'baremetal',
      'api',
      '--db',
      `sqlite:${join(dir, 'b.sqlite')}`,
      '--pin-release-version',
      'bogus',
    );
    assert.equal(ours.status, 1);
    const listed = /known releases: (.*)$/.exec(ours.err.trim())?.[1]?.split(', ') ?? [];
    // Every release Baton knows is one the real one accepts (it knows older ones too).
    for (const release of listed.filter((r) => r !== 'master')) {
      assert.ok(realReleases.includes(release), release);
    }
    assert.ok(listed.includes('zed') && listed.includes('antelope'));
  });

  it('refuses bad flags with status 64 and an unknown pin with 1 (as ironic-api), in one line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'baremetal-api-'));
    const db = `sqlite:${join(dir, 'x.sqlite')}`;
    const port = await baton('baremetal', 'api', '--db', db, '--port', 'http');
    assert.equal(port.status, 64);
    assert.equal(port.err, "baton: error: --port: 'http' is not an integer from 0 to 65535\n");
    const pin = await baton('baremetal', 'api', '--db', db, '--pin-release-version', 'bogus');
    assert.equal(pin.status, 1);
    assert.match(pin.err, /bogus/);
    assert.match(pin.err, /zed, 21\.4, 2023\.1, antelope/);
    assert.equal(pin.err.trim().split('\n').length, 1);
    const limit = await baton('baremetal', 'api', '--db', db, '--max-limit', '0');
    assert.equal(limit.status, 64);
    assert.match(limit.err, /--max-limit/);
    // noauth checks no token: beyond loopback only when the operator accepts the risk.
    const open = await baton('baremetal', 'api', '--db', db, '--host', '0.0.0.0');
    assert.equal(open.status, 64);
    assert.equal(open.err.trim().split('\n').length, 1);
    assert.match(
      open.err,
      /^baton: error: baremetal-api will not listen on 0\.0\.0\.0 with auth_strategy noauth: .*--insecure-noauth-on-any-address/,
    );
    // keystone without its settings: every missing one named, in one line.
    const keystone = await baton('baremetal', 'api', '--db', db, '--auth-strategy', 'keystone');
    assert.equal(keystone.status, 64);
    assert.equal(
      keystone.err,
      'baton: error: auth_strategy keystone: [keystone_authtoken] auth_url is required; auth_type is required (password); password is required; username (or user_id) is required\n',
    );
    // http_basic: the RPC needs an auth of its own, and the user file must be readable.
    const basic = await baton('baremetal', 'api', '--db', db, '--auth-strategy', 'http_basic');
    assert.equal(basic.status, 64);
    assert.equal(
      basic.err,
      "baton: error: [json_rpc] auth_strategy: 'http_basic' is not served by Baton's RPC in this release; use keystone, or noauth with [DEFAULT] rpc_shared_secret\n",
    );
    const users = join(dir, 'no-htpasswd');
    const noFile = await baton(
      'baremetal',
      'api',
      '--db',
      db,
      '--auth-strategy',
      'http_basic',
      '--json-rpc-auth-strategy',
      'noauth',
      '--http-basic-auth-user-file',
      users,
    );
    assert.equal(noFile.status, 64);
    assert.equal(
      noFile.err,
      `baton: error: [DEFAULT] http_basic_auth_user_file: Problem reading auth user file: ${users}\n`,
    );
    const conf = join(dir, 'bad.conf');
    await writeFile(conf, '[api]\nmax_limit = 0\n');
    const file = await baton('baremetal', 'api', '--db', db, '--config-file', conf);
    assert.equal(file.status, 64);
    assert.match(file.err, /max_limit/);
  });
});
