/**
 * `baton placement serve` as an operator runs it: a child process that prints its URL,
 * serves, shows up in the services table, and on SIGTERM finishes the request in flight
 * and exits 0; refusals (outdated schema, bad settings) end with one line and a status.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { CliExit } from '../../src/cli/cli-error.ts';
import { runCli } from '../../src/cli/main.ts';
import {
  type PlacementServeOptions,
  placementServe,
} from '../../src/cli/placement-serve-command.ts';
import { listServices, migrateToLatest, openDatabase } from '../../src/db/index.ts';
import { PLACEMENT_MIGRATIONS } from '../../src/placement/migrations/index.ts';
import { PLACEMENT_SERVICE } from '../../src/placement/service.ts';
import type { ReleaseMapping } from '../../src/releases/index.ts';
import type { ServiceDefinition } from '../../src/service/index.ts';

const MAIN = join(import.meta.dirname, '../../src/cli/main.ts');

async function scratch(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'placement-serve-'));
}

interface Running {
  readonly child: ChildProcess;
  readonly url: string;
  readonly output: () => { out: string; err: string };
  readonly exit: Promise<number | null>;
}

/** Spawns the command and waits for its "listening on" line (one per worker process). */
async function serve(...args: string[]): Promise<Running> {
  const workersFlag = args.indexOf('--workers');
  const listeners = workersFlag >= 0 ? Number(args[workersFlag + 1]) : 1;
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
  return { child, url, output: () => ({ out, err }), exit };
}

/** Runs the command to its end (for refusals). */
async function serveUntilExit(...args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'placement', 'serve', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    err += chunk;
  });
  const status = await new Promise<number | null>((resolve) =>
    child.on('exit', (code) => resolve(code)),
  );
  return { status, out, err };
}

/** A request whose body arrives in two parts, `pause` ms apart; resolves with the raw answer. */
function slowRequest(url: string, body: string, pause: Promise<void>): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        'POST /resource_providers HTTP/1.1\r\n' +
          `Host: ${hostname}:${port}\r\n` +
          'X-Auth-Token: admin\r\n' +
          'OpenStack-API-Version: placement 1.20\r\n' +
          'Content-Type: application/json\r\n' +
          `Content-Length: ${Buffer.byteLength(body)}\r\n` +
          'Connection: close\r\n\r\n' +
          body.slice(0, 5),
      );
      pause.then(() => socket.write(body.slice(5)));
    });
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describe('baton placement serve', () => {
  it('initialises an empty database, serves, registers, and on SIGTERM finishes the request in flight', async () => {
    const dir = await scratch();
    const dbUrl = `sqlite:${join(dir, 'placement.sqlite')}`;
    const running = await serve('--port', '0', '--db', dbUrl);
    try {
      assert.match(running.url, /^http:\/\/127\.0\.0\.1:\d+$/);
      const root = await fetch(`${running.url}/`);
      assert.equal(root.status, 200);
      const document = (await root.json()) as { versions: { max_version: string }[] };
      assert.equal(document.versions[0]?.max_version, '1.39');
      const list = await fetch(`${running.url}/resource_providers`, {
        headers: { 'x-auth-token': 'admin', 'openstack-api-version': 'placement 1.39' },
      });
      assert.equal(list.status, 200);
      assert.deepEqual(await list.json(), { resource_providers: [] });
      const refused = await fetch(`${running.url}/resource_providers`, {
        headers: { 'x-auth-token': 'someone' },
      });
      assert.equal(refused.status, 403);

      const db = await openDatabase(dbUrl);
      try {
        const services = await listServices(db);
        assert.equal(services.length, 1);
        assert.equal(services[0]?.binary, 'placement-api');
        assert.equal(services[0]?.version, 1);
        assert.ok(services[0]?.host.endsWith(`:${new URL(running.url).port}`));
      } finally {
        await db.close();
      }

      // SIGTERM lands while a request's body is still arriving.
      let release = () => {};
      const pause = new Promise<void>((resolve) => {
        release = resolve;
      });
      const answer = slowRequest(running.url, JSON.stringify({ name: 'in-flight' }), pause);
      await sleep(300);
      running.child.kill('SIGTERM');
      await sleep(300);
      release();
      assert.match(await answer, /^HTTP\/1\.1 200 /);
      assert.equal(await running.exit, 0);
      assert.match(running.output().out, /stopped/);
    } finally {
      running.child.kill('SIGKILL');
    }

    const db = await openDatabase(dbUrl);
    try {
      const rows = await sql<{ name: string }>`SELECT name FROM resource_providers`.execute(
        db.kysely,
      );
      assert.deepEqual(
        rows.rows.map((r) => r.name),
        ['in-flight'],
      );
      assert.deepEqual(await listServices(db), [], 'a clean stop deregisters');
    } finally {
      await db.close();
    }
  });

  it('refuses an outdated schema, naming the upgrade command (exit 1)', async () => {
    const dir = await scratch();
    const dbUrl = `sqlite:${join(dir, 'old.sqlite')}`;
    const db = await openDatabase(dbUrl);
    try {
      assert.equal((await migrateToLatest(db, PLACEMENT_MIGRATIONS)).error, undefined);
      // As if the migration had been interrupted part-way: the schema is behind this code.
      await sql`UPDATE baton_schema_migrations SET applied_at = NULL WHERE service = 'placement'`.execute(
        db.kysely,
      );
    } finally {
      await db.close();
    }
    const result = await serveUntilExit('--port', '0', '--db', dbUrl);
    assert.equal(result.status, 1);
    assert.match(
      result.err,
      /^baton: error: the schema of service placement is older than this code/,
    );
    assert.ok(result.err.includes(`run \`baton db upgrade --service placement --db ${dbUrl}\``));
    assert.equal(result.err.trim().split('\n').length, 1);
  });
});

describe('baton placement serve --workers', () => {
  it('serves from several processes on one port, each its own services row; SIGTERM stops them all with status 0 and removes the rows', async () => {
    const dir = await scratch();
    const dbUrl = `sqlite:${join(dir, 'p.sqlite')}`;
    const running = await serve('--port', '0', '--workers', '2', '--db', dbUrl);
    const db = await openDatabase(dbUrl);
    try {
      // One row per worker: the listening address, then the worker's number.
      const port = new URL(running.url).port;
      const rows = await listServices(db);
      assert.deepEqual(
        rows.map((row) => [row.binary, row.host.replace(/^.*:(\d+)\//, ':$1/'), row.live]),
        [
          ['placement-api', `:${port}/worker-1`, true],
          ['placement-api', `:${port}/worker-2`, true],
        ],
      );
      const headers = {
        'x-auth-token': 'admin',
        'openstack-api-version': 'placement 1.20',
        'content-type': 'application/json',
      };
      const created = await Promise.all(
        ['w1', 'w2', 'w3', 'w4'].map((name) =>
          fetch(`${running.url}/resource_providers`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ name }),
          }).then((r) => r.status),
        ),
      );
      assert.deepEqual(created, [200, 200, 200, 200]);
      const list = await fetch(`${running.url}/resource_providers`, { headers });
      const body = (await list.json()) as { resource_providers: unknown[] };
      assert.equal(body.resource_providers.length, 4);
      assert.match(running.output().out, /2 worker processes/);
      running.child.kill('SIGTERM');
      assert.equal(await running.exit, 0, running.output().err);
      assert.equal((running.output().out.match(/placement-api stopped/g) ?? []).length, 2);
      assert.deepEqual(await listServices(db), [], 'every worker removed its row');
    } finally {
      running.child.kill('SIGKILL');
      await db.close();
    }
  });

  it('refuses a bad worker count with status 64', async () => {
    const refused = await serveUntilExit('--workers', '0');
    assert.equal(refused.status, 64);
    assert.match(refused.err, /baton: error: --workers: '0' is not an integer from 1 to 64\n$/);
  });
});

describe('baton placement serve: settings', () => {
  async function baton(...argv: string[]) {
    let out = '';
    let err = '';
    const status = await runCli(argv, {
      out: (line) => (out += `${line}\n`),
      err: (text) => (err += text),
    });
    return { status, out, err };
  }

  it('bad flags and bad files are usage errors (64) with one line', async () => {
    const dir = await scratch();
    const db = `sqlite:${join(dir, 'x.sqlite')}`;
    const ldap = await baton('placement', 'serve', '--db', db, '--auth-strategy', 'ldap');
    assert.equal(ldap.status, 64);
    assert.equal(
      ldap.err,
      "baton: error: --auth-strategy: 'ldap' is not supported; one of keystone, noauth2\n",
    );
    const port = await baton('placement', 'serve', '--db', db, '--port', 'http');
    assert.equal(port.status, 64);
    assert.match(port.err, /^baton: error: --port: 'http' is not an integer from 0 to 65535\n$/);

    const conf = join(dir, 'placement.conf');
    await writeFile(conf, '[api]\nauth_strategy = ldap\n');
    const fromFile = await baton('placement', 'serve', '--db', db, '--config-file', conf);
    assert.equal(fromFile.status, 64);
    assert.equal(
      fromFile.err,
      `baton: error: config file ${conf}: [api] auth_strategy: 'ldap' is not supported; one of keystone, noauth2\n`,
    );

    const policy = join(dir, 'policy.yaml');
    await writeFile(policy, '"placement:resource_providers:list": "role:admin and"\n');
    const badPolicy = await baton(
      'placement',
      'serve',
      '--db',
      db,
      '--port',
      '0',
      '--policy-file',
      policy,
    );
    assert.equal(badPolicy.status, 64);
    assert.match(
      badPolicy.err,
      new RegExp(
        `^baton: error: policy file ${policy}: rule 'placement:resource_providers:list': cannot parse`,
      ),
    );

    const badUrl = await baton('placement', 'serve', '--db', 'oracle://h/x');
    assert.equal(badUrl.status, 64);
    assert.match(badUrl.err, /unsupported scheme/);
  });

  it('takes the config file, with flags over it: port, policy, CORS', async () => {
    const dir = await scratch();
    const policy = join(dir, 'policy.yaml');
    await writeFile(policy, '"placement:resource_providers:list": "@"\n');
    const conf = join(dir, 'placement.conf');
    await writeFile(
      conf,
      [
        '[DEFAULT]',
        'bind_port = 1',
        '[placement_database]',
        `connection = sqlite:${join(dir, 'file.sqlite')}`,
        '[oslo_policy]',
        'policy_file = policy.yaml',
        '[cors]',
        'allowed_origin = http://from-file.example',
        '',
      ].join('\n'),
    );
    const lines: string[] = [];
    let stop = (_signal: string) => {};
    const stopped = new Promise<string>((resolve) => {
      stop = resolve;
    });
    let listening = () => {};
    const ready = new Promise<void>((resolve) => {
      listening = resolve;
    });
    const run = placementServe(
      {
        configFile: conf,
        port: '0',
        corsAllowedOrigin: ['http://flag.example', 'http://other.example'],
      },
      {
        out: (line) => {
          lines.push(line);
          if (line.includes('listening on')) listening();
        },
        err: () => {},
        stopped: () => stopped,
      },
    );
    await Promise.race([ready, run]);
    const url = /listening on (\S+)/.exec(lines[0] ?? '')?.[1] as string;
    assert.ok(url, lines.join('\n'));
    const anyone = await fetch(`${url}/resource_providers`, {
      headers: { 'x-auth-token': 'nobody', origin: 'http://flag.example' },
    });
    assert.equal(anyone.status, 200, 'the policy file from the config file applies');
    assert.equal(anyone.headers.get('access-control-allow-origin'), 'http://flag.example');
    const fileOrigin = await fetch(`${url}/`, { headers: { origin: 'http://from-file.example' } });
    assert.equal(
      fileOrigin.headers.get('access-control-allow-origin'),
      null,
      'flags replace the list',
    );
    stop('test');
    assert.equal(await run, 0);
    assert.deepEqual(lines.slice(1), [
      'placement-api stopping (test): health check failed for 0 s, then finishing requests in flight (at most 60 s)',
      'placement-api stopped',
    ]);
  });
});

describe('baton placement serve: the release pin', () => {
  /** Placement with an older release to pin to (this code has only one release so far). */
  const withReleases = (extra: ReleaseMapping): ServiceDefinition => ({
    ...PLACEMENT_SERVICE,
    releases: { ...PLACEMENT_SERVICE.releases, ...extra },
  });
  const PINNABLE = withReleases({ '2025.2': { api: '1.36', objects: {} } });

  /** Serves in-process until the returned stop(); resolves once listening. */
  async function serveWith(options: PlacementServeOptions, service: ServiceDefinition) {
    let stop = (_signal: string) => {};
    const stopped = new Promise<string>((resolve) => {
      stop = resolve;
    });
    let listening = (_url: string) => {};
    const ready = new Promise<string>((resolve) => {
      listening = resolve;
    });
    const run = placementServe(
      { port: '0', ...options },
      {
        out: (line) => {
          const url = /listening on (\S+)/.exec(line)?.[1];
          if (url !== undefined) listening(url);
        },
        err: () => {},
        stopped: () => stopped,
      },
      service,
    );
    const url = await Promise.race([ready, run.then((status) => `exited ${status}`)]);
    assert.match(url, /^http:/);
    return {
      url,
      stop: () => {
        stop('test');
        return run;
      },
    };
  }

  /** The max the root document shows and the statuses of requests at 1.36 and 1.37. */
  async function answers(url: string) {
    const root = (await (await fetch(`${url}/`)).json()) as {
      versions: { max_version: string }[];
    };
    const at = async (version: string) =>
      (
        await fetch(`${url}/resource_providers`, {
          headers: { 'x-auth-token': 'admin', 'openstack-api-version': `placement ${version}` },
        })
      ).status;
    return { max: root.versions[0]?.max_version, at136: await at('1.36'), at137: await at('1.37') };
  }

  it('is read from the config file; the flag wins; a pinned Placement answers 406 above its max', async () => {
    const dir = await scratch();
    const conf = join(dir, 'placement.conf');
    await writeFile(
      conf,
      [
        '[DEFAULT]',
        'pin_release_version = 2025.2',
        '[placement_database]',
        `connection = sqlite:${join(dir, 'p.sqlite')}`,
        '',
      ].join('\n'),
    );
    const fromFile = await serveWith({ configFile: conf }, PINNABLE);
    try {
      assert.deepEqual(await answers(fromFile.url), { max: '1.36', at136: 200, at137: 406 });
    } finally {
      assert.equal(await fromFile.stop(), 0);
    }
    const flagWins = await serveWith({ configFile: conf, pinReleaseVersion: '2026.1' }, PINNABLE);
    try {
      assert.deepEqual(await answers(flagWins.url), { max: '1.39', at136: 200, at137: 200 });
    } finally {
      assert.equal(await flagWins.stop(), 0);
    }
    const unpinned = await serveWith({ configFile: conf, pinReleaseVersion: '' }, PINNABLE);
    try {
      assert.deepEqual(await answers(unpinned.url), { max: '1.39', at136: 200, at137: 200 });
    } finally {
      assert.equal(await unpinned.stop(), 0);
    }
  });

  it('an unknown pin, from the flag or the file, exits 64 listing the valid releases', async () => {
    const dir = await scratch();
    const db = `sqlite:${join(dir, 'x.sqlite')}`;
    const expected =
      "baton: error: pin_release_version 'zed' is not a known release; known releases: 2026.1, master\n";
    const run = async (...argv: string[]) => {
      let err = '';
      const status = await runCli(['placement', 'serve', '--db', db, '--port', '0', ...argv], {
        out: () => {},
        err: (text) => {
          err += text;
        },
      });
      return { status, err };
    };
    assert.deepEqual(await run('--pin-release-version', 'zed'), { status: 64, err: expected });
    const conf = join(dir, 'placement.conf');
    await writeFile(conf, '[DEFAULT]\npin_release_version = zed\n');
    assert.deepEqual(await run('--config-file', conf), { status: 64, err: expected });
    // With workers the primary checks once, before starting any.
    assert.deepEqual(await run('--config-file', conf, '--workers', '2'), {
      status: 64,
      err: expected,
    });
    assert.equal(existsSync(join(dir, 'x.sqlite')), false, 'nothing was opened');
  });

  it('a bad release mapping stops the start (exit 1) with a message naming the entry', async () => {
    const dir = await scratch();
    const broken = withReleases({ '2027.1': { api: '1.40', objects: {} } });
    await assert.rejects(
      placementServe(
        { db: `sqlite:${join(dir, 'x.sqlite')}`, port: '0' },
        { out: () => assert.fail('nothing may start'), err: () => {} },
        broken,
      ),
      (error: unknown) =>
        error instanceof CliExit &&
        error.status === 1 &&
        error.message ===
          "the release mapping of service placement is invalid: 2027.1: api 1.40 is above master's 1.39",
    );
    assert.equal(existsSync(join(dir, 'x.sqlite')), false, 'nothing was opened');
  });
});
