/**
 * The safe defaults of `baton placement serve`, as an operator meets them: noauth2 listens on
 * loopback only, and asking for another address is refused at start with one line and exit
 * 64, unless `--insecure-noauth-on-any-address` (or `[api] insecure_noauth_on_any_address`)
 * accepts the risk; `auth_strategy = keystone` needs its [keystone_authtoken] settings, may
 * listen anywhere, and while Keystone cannot be reached answers 503, never a pass.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { freePort } from '../support/real-keystone.ts';

const MAIN = join(import.meta.dirname, '../../src/cli/main.ts');

interface Started {
  readonly url: string;
  readonly stop: () => Promise<{ status: number | null; out: string; err: string }>;
}

/** Runs `baton placement serve …` to its end: status and output. */
function serveUntilExit(
  ...args: string[]
): Promise<{ status: number | null; out: string; err: string }> {
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
  return new Promise((resolve) => child.on('exit', (status) => resolve({ status, out, err })));
}

/** Starts `baton placement serve …`, waiting for its "listening on" line. */
async function serve(...args: string[]): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'placement', 'serve', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr?.on('data', (chunk) => {
    err += chunk;
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    exit.then((code) => reject(new Error(`exited ${code} before listening: ${out}${err}`)));
  });
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      const status = await exit;
      return { status, out, err };
    },
  };
}

const REFUSAL =
  /^baton: error: placement-api will not listen on (\S+) with auth_strategy noauth2: tokens are not checked, so anyone who can reach that address could act as any user, admin included\. Listen on loopback \(127\.0\.0\.1 or ::1\), set \[api\] auth_strategy = keystone, or accept the risk with --insecure-noauth-on-any-address \(\[api\] insecure_noauth_on_any_address = true\)\n$/;

describe('baton placement serve: noauth2 listens on loopback only', () => {
  let dir: string;
  let db: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'placement-serve-auth-'));
    db = `sqlite:${join(dir, 'placement.sqlite')}`;
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('another address is refused at start, with one line and exit 64, before anything opens', async () => {
    for (const host of ['0.0.0.0', '::', '192.0.2.10', 'placement.example']) {
      const refused = await serveUntilExit('--db', db, '--port', '0', '--host', host);
      assert.equal(refused.status, 64, host);
      assert.match(refused.err, REFUSAL);
      assert.equal(REFUSAL.exec(refused.err)?.[1], host);
      assert.equal(refused.out, '');
    }
    // the file's bind_host, and a pool of workers: refused once, in the primary
    const conf = join(dir, 'any.conf');
    await writeFile(conf, '[DEFAULT]\nbind_host = 0.0.0.0\nworkers = 2\n');
    const fromFile = await serveUntilExit('--db', db, '--port', '0', '--config-file', conf);
    assert.equal(fromFile.status, 64);
    assert.match(fromFile.err, REFUSAL);
    const { existsSync } = await import('node:fs');
    assert.equal(existsSync(join(dir, 'placement.sqlite')), false, 'no database was created');
  });

  it('--insecure-noauth-on-any-address (or the file option) accepts the risk', async () => {
    const viaFlag = await serve(
      '--db',
      db,
      '--port',
      '0',
      '--host',
      '0.0.0.0',
      '--insecure-noauth-on-any-address',
    );
    const port = new URL(viaFlag.url).port;
    assert.equal(new URL(viaFlag.url).hostname, '0.0.0.0');
    const answer = await fetch(`http://127.0.0.1:${port}/resource_providers`, {
      headers: { 'x-auth-token': 'admin' },
    });
    assert.equal(answer.status, 200);
    assert.equal((await viaFlag.stop()).status, 0);

    const conf = join(dir, 'insecure.conf');
    await writeFile(
      conf,
      '[DEFAULT]\nbind_host = 0.0.0.0\n[api]\ninsecure_noauth_on_any_address = true\n',
    );
    const viaFile = await serve('--db', db, '--port', '0', '--config-file', conf);
    assert.equal(new URL(viaFile.url).hostname, '0.0.0.0');
    // the flag wins over the file: --no-… takes the acceptance back
    const viaFileStop = await viaFile.stop();
    assert.equal(viaFileStop.status, 0, JSON.stringify(viaFileStop));
    const taken = await serveUntilExit(
      '--db',
      db,
      '--port',
      '0',
      '--config-file',
      conf,
      '--no-insecure-noauth-on-any-address',
    );
    assert.equal(taken.status, 64);
    assert.match(taken.err, REFUSAL);
  });

  it('loopback addresses need nothing', async () => {
    for (const host of ['127.0.0.1', '127.0.0.2', '::1', 'localhost']) {
      const started = await serve('--db', db, '--port', '0', '--host', host).catch((error) => {
        // a machine without IPv6 cannot bind ::1; anything else is a failure
        if (host === '::1' && /EADDRNOTAVAIL/.test(String(error))) return undefined;
        throw error;
      });
      if (started !== undefined) assert.equal((await started.stop()).status, 0, host);
    }
  });
});

describe('baton placement serve --auth-strategy keystone', () => {
  let dir: string;
  let db: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'placement-serve-keystone-'));
    db = `sqlite:${join(dir, 'placement.sqlite')}`;
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('without [keystone_authtoken] settings: one line naming what is missing, exit 64', async () => {
    const refused = await serveUntilExit('--db', db, '--port', '0', '--auth-strategy', 'keystone');
    assert.equal(refused.status, 64);
    assert.equal(
      refused.err,
      'baton: error: auth_strategy keystone: [keystone_authtoken] auth_url is required; auth_type is required (password); password is required; username (or user_id) is required\n',
    );
    const conf = join(dir, 'half.conf');
    await writeFile(
      conf,
      '[api]\nauth_strategy = keystone\n[keystone_authtoken]\nauth_url = http://127.0.0.1:1\nauth_type = password\nusername = placement\npassword = x\nproject_name = service\n',
    );
    const half = await serveUntilExit('--db', db, '--port', '0', '--config-file', conf);
    assert.equal(half.status, 64);
    assert.match(
      half.err,
      /^baton: error: auth_strategy keystone: \[keystone_authtoken\] username needs user_domain_name or user_domain_id \(or default_domain_\*\); project_name needs project_domain_name or project_domain_id \(or default_domain_\*\)\n$/,
    );
  });

  it('listens on any address; with Keystone unreachable: 503 for a token, 401 without one, never a pass', async () => {
    const keystonePort = await freePort(); // nothing listens there
    const conf = join(dir, 'keystone.conf');
    await writeFile(
      conf,
      [
        '[DEFAULT]',
        'bind_host = 0.0.0.0',
        '[api]',
        'auth_strategy = keystone',
        '[keystone_authtoken]',
        `www_authenticate_uri = http://keystone.example:5000`,
        `auth_url = http://127.0.0.1:${keystonePort}`,
        'auth_type = password',
        'username = placement',
        'password = secret',
        'user_domain_name = Default',
        'project_name = service',
        'project_domain_name = Default',
        'http_request_max_retries = 0',
        '',
      ].join('\n'),
    );
    const started = await serve('--db', db, '--port', '0', '--config-file', conf);
    try {
      const base = `http://127.0.0.1:${new URL(started.url).port}`;
      const withToken = await fetch(`${base}/resource_providers`, {
        headers: { 'x-auth-token': 'admin', 'x-roles': 'admin' },
      });
      assert.equal(withToken.status, 503);
      assert.deepEqual(await withToken.json(), {
        message:
          'The server is currently unavailable. Please try again at a later time.<br /><br />\nThe Keystone service is temporarily unavailable.\n\n',
        code: '503 Service Unavailable',
        title: 'Service Unavailable',
      });
      const without = await fetch(`${base}/resource_providers`);
      assert.equal(without.status, 401);
      assert.equal(
        without.headers.get('www-authenticate'),
        'Keystone uri="http://keystone.example:5000"',
      );
      // the version document needs no token
      assert.equal((await fetch(`${base}/`)).status, 200);
    } finally {
      const stopped = await started.stop();
      assert.equal(stopped.status, 0);
    }
  });
});
