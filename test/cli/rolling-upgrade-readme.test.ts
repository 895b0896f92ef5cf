/**
 * Issue 22 §3 and §6: the README's rolling-upgrade block works as written, with the
 * deployment's config at /etc/ironic/ironic.conf. A zed conductor and a zed API (the recorded
 * release, built as `baton rehearse` builds it) run on a SQLite file that config names; then
 * the block runs in bash, as written, but for the paths: `/etc` is a temporary folder (given to
 * the commands as BATON_SYSCONFDIR, `~` as HOME), `/opt/baton-new` is this checkout, the API's
 * port a free one, and `$OLD_CONDUCTOR_PID` / `$OLD_API_PID` the zed processes. Every command
 * without `--config-file` must find that file and say so, the deployment must end upgraded in
 * that database (both processes of this release, unpinned, the upgrade check passing), and the
 * plan must call it a finished upgrade. And the complete HAProxy configuration of
 * docs/rolling-upgrade.md must be one HAProxy accepts.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { preparePreviousRelease, releaseCacheDir } from '../../src/rehearsal/previous-release.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'baton.mjs');
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The code block after `marker` in `file`. */
function markedBlock(file: string, marker: RegExp): string {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const at = lines.findIndex((line) => marker.test(line));
  assert.ok(at >= 0, `${file}: no block marked ${marker}`);
  assert.equal(lines[at + 1], '```', `${file}: the marker comes just before its block`);
  const end = lines.indexOf('```', at + 2);
  return lines.slice(at + 2, end).join('\n');
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  assert.ok(address !== null && typeof address === 'object');
  return address.port;
}

interface Started {
  readonly child: ChildProcess;
  readonly out: () => string;
}

function start(command: string, args: readonly string[], env: NodeJS.ProcessEnv): Started {
  const child = spawn(command, [...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (chunk) => (out += chunk));
  child.stderr?.on('data', (chunk) => (out += chunk));
  return { child, out: () => out };
}

async function until(what: string, ok: () => boolean, out: () => string, ms = 120_000) {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) assert.fail(`${what}: not within ${ms / 1000} s\n${out()}`);
    await sleep(100);
  }
}

const haproxyMissing =
  spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).status === 0
    ? undefined
    : 'haproxy is not installed (apt-get install haproxy)';
if (haproxyMissing !== undefined && process.env.CI === 'true') {
  throw new Error(`${haproxyMissing} (CI=true)`);
}

describe("the README's rolling upgrade, as written, with /etc/ironic/ironic.conf", () => {
  const root = mkdtempSync(join(tmpdir(), 'baton-readme-upgrade-'));
  const etc = join(root, 'etc');
  const home = join(root, 'home');
  const started: Started[] = [];
  after(async () => {
    for (const s of started) if (s.child.exitCode === null) s.child.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  });

  test('docs/rolling-upgrade.md: the HAProxy configuration is one haproxy -c accepts', {
    skip: haproxyMissing,
  }, () => {
    const file = join(root, 'haproxy.cfg');
    writeFileSync(file, `${markedBlock('docs/rolling-upgrade.md', /^<!-- haproxy-config -->$/)}\n`);
    const checked = spawnSync('haproxy', ['-c', '-f', file], { encoding: 'utf8' });
    assert.equal(checked.status, 0, checked.stdout + checked.stderr);
    const text = readFileSync(file, 'utf8');
    for (const part of ['defaults', 'frontend', 'backend', 'option httpchk', '/healthcheck']) {
      assert.ok(text.includes(part), `the configuration has ${part}`);
    }
  });

  test('from zed to this release: every command finds the config; the deployment ends upgraded', async () => {
    const release = JSON.parse(readFileSync(join(ROOT, 'releases', 'baremetal-zed.json'), 'utf8'));
    const zed = await preparePreviousRelease({
      repoRoot: ROOT,
      commit: release.commit,
      cacheDir: releaseCacheDir(),
      say: () => {},
    });
    const database = join(root, 'ironic.sqlite');
    const port = await freePort();
    mkdirSync(join(etc, 'ironic'), { recursive: true });
    mkdirSync(home);
    // Short ring and heartbeat timings: the stops and takeovers of a small test cluster.
    const shared = [
      '[DEFAULT]',
      'hash_ring_reset_interval = 1',
      '',
      '[database]',
      `connection = sqlite:${database}`,
      '',
      '[conductor]',
      'heartbeat_interval = 1',
      '',
    ].join('\n');
    const conductorOwn = '[DEFAULT]\nhost = conductor-1\n';
    const apiOwn = `[DEFAULT]\nhost = api-1\n\n[api]\nhost_ip = 127.0.0.1\nport = ${port}\n`;
    writeFileSync(join(etc, 'ironic', 'ironic.conf'), shared);
    writeFileSync(join(etc, 'ironic', 'conductor-1.conf'), conductorOwn);
    writeFileSync(join(etc, 'ironic', 'api-1.conf'), `${apiOwn}\n[healthcheck]\ndrain_delay = 0\n`);
    // zed reads one file, and knows the drain as [api] drain_wait.
    const zedConductorConf = join(root, 'zed-conductor-1.conf');
    const zedApiConf = join(root, 'zed-api-1.conf');
    writeFileSync(zedConductorConf, `${shared}\n${conductorOwn.replace('[DEFAULT]\n', '')}`);
    writeFileSync(
      zedApiConf,
      `${shared}\n${apiOwn.replace('[DEFAULT]\n', '').replace('[api]\n', '[api]\ndrain_wait = 0\n')}`,
    );
    const env = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: home,
      BATON_SYSCONFDIR: etc,
    };
    const zedBin = join(zed, 'bin', 'baton.mjs');
    const made = spawnSync(
      process.execPath,
      [zedBin, 'db', 'upgrade', '--service', 'baremetal', '--db', `sqlite:${database}`],
      { env, encoding: 'utf8' },
    );
    assert.equal(made.status, 0, made.stdout + made.stderr);
    const oldConductor = start(
      process.execPath,
      [zedBin, 'baremetal', 'conductor', '--config-file', zedConductorConf],
      env,
    );
    const oldApi = start(
      process.execPath,
      [zedBin, 'baremetal', 'api', '--config-file', zedApiConf],
      env,
    );
    started.push(oldConductor, oldApi);
    await until(
      'the zed conductor',
      () => /serving topic/.test(oldConductor.out()),
      oldConductor.out,
    );
    await until('the zed API', () => /listening on http/.test(oldApi.out()), oldApi.out);
    // A node written by zed, at zed's versions: the online migrations have rows to bring up.
    const node = await fetch(`http://127.0.0.1:${port}/v1/nodes`, {
      method: 'POST',
      headers: { 'X-OpenStack-Ironic-API-Version': '1.80', 'Content-Type': 'application/json' },
      body: JSON.stringify({ driver: 'fake-hardware', name: 'before-the-upgrade' }),
    });
    assert.equal(node.status, 201, await node.text());

    const script = markedBlock('README.md', /^<!-- rolling-upgrade: /)
      .replaceAll('/opt/baton-new/bin/baton.mjs', BIN)
      .replaceAll('/etc/', `${etc}/`)
      .replaceAll('6385', String(port));
    const bash = start('bash', ['-euo', 'pipefail', '-c', script], {
      ...env,
      OLD_CONDUCTOR_PID: String(oldConductor.child.pid),
      OLD_API_PID: String(oldApi.child.pid),
    });
    started.push(bash);
    const status = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => bash.child.kill('SIGKILL'), 600_000);
      bash.child.once('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
    const output = bash.out();
    assert.equal(status, 0, output);
    // Every database and status command found the file by itself, and said so; while the pin
    // file was there, it too.
    const conf = join(etc, 'ironic', 'ironic.conf');
    const said = [...output.matchAll(/^config: (.*); database: (\S+)/gm)];
    assert.ok(said.length >= 6, output);
    for (const [, files, url] of said) {
      assert.ok(files?.startsWith(conf), `config: ${files}`);
      assert.equal(url, `sqlite:${database}`);
    }
    assert.ok(said.some(([, files]) => files?.includes('ironic.conf.d/pin.conf')));
    assert.match(output, /Check: Schema migrations\s*\|\n\| Result: Success/);
    assert.equal(existsSync(join(home, '.local')), false, 'no embedded database was made');

    // The deployment, read back: both processes of this release, unpinned, with their files.
    const listed = spawnSync(
      process.execPath,
      [BIN, 'db', 'services', '--service', 'baremetal', '--json'],
      { env, encoding: 'utf8' },
    );
    assert.equal(listed.status, 0, listed.stderr);
    const services = (
      JSON.parse(listed.stdout) as {
        services: {
          binary: string;
          host: string;
          version: number;
          state: string;
          pid: number;
          configFiles: string[];
        }[];
      }
    ).services;
    try {
      assert.deepEqual(
        services.map((s) => [s.binary, s.host, s.version, s.state, s.configFiles]),
        [
          ['baremetal-api', `api-1:${port}`, 2, 'live', [conf, join(etc, 'ironic', 'api-1.conf')]],
          [
            'baremetal-conductor',
            'conductor-1',
            2,
            'live',
            [conf, join(etc, 'ironic', 'conductor-1.conf')],
          ],
        ],
      );
      const plan = spawnSync(process.execPath, [BIN, 'upgrade', 'plan', '--json'], {
        env,
        encoding: 'utf8',
      });
      const read = JSON.parse(plan.stdout) as { complete: boolean; fresh: boolean };
      assert.deepEqual(
        { complete: read.complete, fresh: read.fresh },
        { complete: true, fresh: false },
      );
      assert.equal(oldConductor.child.exitCode, 0, oldConductor.out());
      assert.equal(oldApi.child.exitCode, 0, oldApi.out());
    } finally {
      for (const s of services) {
        try {
          process.kill(s.pid, 'SIGTERM');
        } catch {
          // gone
        }
      }
      for (const s of services) {
        for (let i = 0; i < 300; i++) {
          try {
            process.kill(s.pid, 0);
          } catch {
            break;
          }
          await sleep(100);
        }
      }
    }
  });
});
