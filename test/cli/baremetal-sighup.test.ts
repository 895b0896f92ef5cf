/**
 * SIGHUP on the bare metal processes (issue 15 §2): a real conductor and a real API, beside
 * each other on one SQLite file, each re-read their config file's log level, report an
 * option that needs a restart, and keep serving: an API request loop through the reloads sees
 * no failure.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';

const MAIN = join(import.meta.dirname, '../../src/cli/main.ts');
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Running {
  readonly child: ChildProcess;
  readonly out: () => string;
  readonly err: () => string;
  readonly exit: Promise<number | null>;
}

function start(args: readonly string[]): Running {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'baremetal', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk) => (out += chunk));
  child.stderr?.on('data', (chunk) => (err += chunk));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, out: () => out, err: () => err, exit };
}

async function until<T>(what: string, probe: () => T | undefined, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

test('a real conductor and API reload on SIGHUP and drop no request', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'baremetal-sighup-'));
  const conf = join(dir, 'baremetal.conf');
  const write = (debug: boolean, maxLimit: number) =>
    writeFile(
      conf,
      [
        '[DEFAULT]',
        'host = sighup-conductor',
        `debug = ${debug}`,
        '[database]',
        `connection = sqlite:${join(dir, 'baremetal.sqlite')}`,
        '[api]',
        'drain_wait = 0',
        `max_limit = ${maxLimit}`,
        '[conductor]',
        'heartbeat_interval = 1',
        '',
      ].join('\n'),
    );
  await write(false, 50);
  const conductor = start(['conductor', '--config-file', conf]);
  let api: Running | undefined;
  try {
    await until('the conductor', () => (/serving topic/.test(conductor.out()) ? true : undefined));
    api = start(['api', '--config-file', conf, '--host', '127.0.0.1', '--port', '0']);
    const running = api;
    const url = await until(
      'the API',
      () => /listening on (http:\/\/\S+)/.exec(running.out())?.[1],
    );
    let go = true;
    let ok = 0;
    const failures: string[] = [];
    const loops = Array.from({ length: 3 }, async () => {
      while (go) {
        try {
          const response = await fetch(`${url}/v1/nodes`, {
            headers: { 'X-OpenStack-Ironic-API-Version': '1.80' },
          });
          await response.arrayBuffer();
          if (response.status === 200) ok++;
          else failures.push(`status ${response.status}`);
        } catch (error) {
          failures.push(String(error));
        }
      }
    });
    await until('requests', () => (ok > 20 ? true : undefined));
    await sleep(2000);
    await write(true, 10);
    conductor.child.kill('SIGHUP');
    running.child.kill('SIGHUP');
    const line = (process: Running, binary: string) =>
      until(
        `${binary} reloaded`,
        () => new RegExp(`${binary} reloaded \\(SIGHUP\\): .*`).exec(process.out())?.[0],
      );
    assert.equal(
      await line(conductor, 'baremetal-conductor'),
      'baremetal-conductor reloaded (SIGHUP): log level debug; caps in force: latest; needing a restart: api.maxLimit',
    );
    assert.equal(
      await line(running, 'baremetal-api'),
      'baremetal-api reloaded (SIGHUP): log level debug; caps in force: latest; needing a restart: api.maxLimit',
    );
    const before = ok;
    await until('more requests', () => (ok > before + 20 ? true : undefined));
    await sleep(2000);
    go = false;
    await Promise.all(loops);
    t.diagnostic(`request loop: ${ok} served, ${failures.length} failed`);
    assert.deepEqual(failures, [], `${failures.length} of ${ok + failures.length} failed`);
    // Debug lines now: the conductor's RPC lines (its logger child was set too).
    assert.match(running.err(), /SIGHUP: log level debug/);
  } finally {
    api?.child.kill('SIGTERM');
    conductor.child.kill('SIGTERM');
    assert.equal(await api?.exit, 0);
    assert.equal(await conductor.exit, 0);
    await rm(dir, { recursive: true, force: true });
  }
});
