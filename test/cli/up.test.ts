/**
 * `baton up` beyond the documented start and stop (documented-servers.test.ts runs those):
 * a child that dies takes the others down and `baton up` exits 1 naming it; bad input is a
 * usage error before anything starts; `--config-file`, `--log-file` and `--debug` reach the
 * three children, whose every line names them, and a SIGHUP to the whole process group
 * reloads each child once (issue 22 §3, §6).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { planUp } from '../../src/cli/up-command.ts';
import { listServices, openDatabase } from '../../src/db/index.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'baton.mjs');
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The live children of `pid`, with their command lines. */
function childrenOf(pid: number): { pid: number; cmdline: string }[] {
  const found: { pid: number; cmdline: string }[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(ppid) !== pid || state === 'Z') continue;
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ');
      found.push({ pid: Number(name), cmdline });
    } catch {
      // ended while we looked
    }
  }
  return found;
}

describe('baton up', () => {
  it('stops the others and exits 1 naming the child that died', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'baton-up-'));
    const up = spawn(
      process.execPath,
      [BIN, 'up', '--data-dir', dataDir, '--placement-port', '0', '--baremetal-port', '0'],
      { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    up.stdout.on('data', (chunk) => {
      output += chunk;
    });
    up.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const exited = new Promise<number | null>((resolve) => up.once('exit', resolve));
    const pid = up.pid ?? 0;
    try {
      for (let i = 0; i < 1200 && !/^baton up: ready/m.test(output); i++) {
        assert.equal(up.exitCode, null, output);
        await sleep(100);
      }
      const children = childrenOf(pid);
      assert.equal(children.length, 3, JSON.stringify(children));
      const conductor = children.find((c) => c.cmdline.includes('baremetal conductor'));
      assert.ok(conductor !== undefined);
      process.kill(conductor.pid, 'SIGKILL');
      assert.equal(await exited, 1, output);
      assert.match(
        output,
        /^baton: error: baremetal-conductor exited \(signal SIGKILL\); the others were stopped$/m,
      );
      // The others drained: each said so.
      assert.match(output, /^placement-api {7}\| placement-api stopped$/m);
      assert.match(output, /^baremetal-api {7}\| baremetal-api stopped$/m);
      for (const child of children) assert.equal(existsSync(`/proc/${child.pid}/cmdline`), false);
    } finally {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // gone
      }
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('killed with SIGKILL, leaves no child serving: each stops as on SIGTERM and goes offline', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'baton-up-'));
    const up = spawn(
      process.execPath,
      [BIN, 'up', '--data-dir', dataDir, '--placement-port', '0', '--baremetal-port', '0'],
      // stdout and stderr to files: the children keep writing after their parent is gone.
      { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'ignore'] },
    );
    let output = '';
    up.stdout.on('data', (chunk) => {
      output += chunk;
    });
    const pid = up.pid ?? 0;
    let children: { pid: number; cmdline: string }[] = [];
    try {
      for (let i = 0; i < 1200 && !/^baton up: ready/m.test(output); i++) {
        assert.equal(up.exitCode, null, output);
        await sleep(100);
      }
      children = childrenOf(pid);
      assert.equal(children.length, 3, JSON.stringify(children));
      process.kill(pid, 'SIGKILL');
      const alive = () => children.filter((c) => existsSync(`/proc/${c.pid}/cmdline`));
      // The API's drain delay is 0 under `baton up`; the conductor waits out its ring grace.
      for (let i = 0; i < 600 && alive().length > 0; i++) await sleep(100);
      assert.deepEqual(
        alive().map((c) => c.cmdline),
        [],
      );
      // Each left the services table as on SIGTERM.
      for (const service of ['placement', 'baremetal']) {
        const listed = spawnSync(
          process.execPath,
          [BIN, 'db', 'services', '--service', service, '--data-dir', dataDir, '--json'],
          { cwd: ROOT, encoding: 'utf8' },
        );
        assert.equal(listed.status, 0, listed.stderr);
        assert.deepEqual((JSON.parse(listed.stdout) as { services: unknown[] }).services, []);
      }
    } finally {
      for (const child of [{ pid }, ...children]) {
        try {
          process.kill(child.pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a second baton up on the same data directory exits 1 naming the first, which goes on unharmed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'baton-up-'));
    const up = spawn(
      process.execPath,
      [BIN, 'up', '--data-dir', dataDir, '--placement-port', '0', '--baremetal-port', '0'],
      { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    up.stdout.on('data', (chunk) => {
      output += chunk;
    });
    up.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const exited = new Promise<number | null>((resolve) => up.once('exit', resolve));
    const pid = up.pid ?? 0;
    try {
      for (let i = 0; i < 1200 && !/^baton up: ready/m.test(output); i++) {
        assert.equal(up.exitCode, null, output);
        await sleep(100);
      }
      const api = /Bare metal API +(\S+)/.exec(output)?.[1] as string;
      const second = spawnSync(
        process.execPath,
        [BIN, 'up', '--data-dir', dataDir, '--placement-port', '0', '--baremetal-port', '0'],
        { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
      );
      assert.equal(second.status, 1, second.stdout + second.stderr);
      assert.match(
        second.stderr,
        new RegExp(
          `^baton: error: another baton up \\(pid ${pid}, since \\S+\\) is running on ${dataDir}; stop it first, or give this one another --data-dir$`,
          'm',
        ),
      );
      // The first one is unharmed: its conductor is still registered with its hardware.
      const driver = (await (
        await fetch(`${api}/v1/drivers/fake-hardware`, {
          headers: { 'X-OpenStack-Ironic-API-Version': '1.82' },
        })
      ).json()) as { hosts: string[] };
      assert.equal(driver.hosts.length, 1, JSON.stringify(driver));
      const node = await fetch(`${api}/v1/nodes`, {
        method: 'POST',
        headers: { 'X-OpenStack-Ironic-API-Version': '1.82', 'Content-Type': 'application/json' },
        body: JSON.stringify({ driver: 'fake-hardware', name: 'after-the-second-up' }),
      });
      assert.equal(node.status, 201, await node.text());
      process.kill(pid, 'SIGTERM');
      assert.equal(await exited, 0, output);
      assert.equal(existsSync(join(dataDir, 'baton-up.lock')), false, 'the lock is released');
    } finally {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // gone
      }
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('--config-file, --log-file and --debug reach the three; each line names its process; a SIGHUP to the group reloads each once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-up-config-'));
    const shared = join(dir, 'shared.sqlite');
    const conf = join(dir, 'baton.conf');
    const log = join(dir, 'baton.log');
    // One file for both services: each reads its own sections. A typo (warned about once, by
    // `baton up`), and an older name (each bare metal process says so, its name before it).
    writeFileSync(
      conf,
      `[database]\nconnection = sqlite:${shared}\n\n[placement_database]\nconnection = sqlite:${shared}\n\n[api]\nprot = 1\ndrain_wait = 0\n`,
    );
    const up = spawn(
      process.execPath,
      [
        ...[BIN, 'up', '--data-dir', join(dir, 'data'), '--config-file', conf],
        ...['--log-file', log, '--debug', '--placement-port', '0', '--baremetal-port', '0'],
      ],
      { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    up.stdout.on('data', (chunk) => {
      output += chunk;
    });
    up.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const exited = new Promise<number | null>((resolve) => up.once('exit', resolve));
    const pid = up.pid ?? 0;
    const waitFor = async (what: () => boolean, message: () => string) => {
      for (let i = 0; i < 600 && !what(); i++) {
        assert.equal(up.exitCode, null, output);
        await sleep(100);
      }
      assert.ok(what(), message());
    };
    const reloads = (name: string) =>
      output
        .split('\n')
        .filter((line) => new RegExp(`^${name} +\\| ${name} reloaded \\(SIGHUP\\)`).test(line))
        .length;
    const names = ['placement-api', 'baremetal-conductor', 'baremetal-api'];
    try {
      await waitFor(
        () => /^baton up: ready/m.test(output),
        () => output,
      );
      // Each child's lines, prefixed with its name.
      assert.match(output, /^placement-api {7}\| placement-api listening on http/m);
      assert.match(output, /^baremetal-conductor \| baremetal-conductor \S+ serving topic/m);
      assert.match(output, /^baremetal-api {7}\| baremetal-api listening on http/m);
      assert.match(output, new RegExp(`^ {2}Database {10}sqlite:${shared}$`, 'm'));
      assert.match(output, new RegExp(`^ {2}Config files {6}${conf}$`, 'm'));
      assert.deepEqual(
        output.split('\n').filter((line) => line.includes('prot is not an option')),
        [
          `baton: warning: ${conf}: [api] prot is not an option Baton knows; did you mean port? (ignored)`,
        ],
      );
      for (const name of ['baremetal-conductor', 'baremetal-api']) {
        assert.match(
          output,
          new RegExp(
            `^${name} +\\| baton: warning: Option "drain_wait" from group "api" is deprecated`,
            'm',
          ),
        );
      }
      // The config file's database, and each process recorded the file it read.
      const db = await openDatabase(`sqlite:${shared}`);
      try {
        const rows = (await listServices(db)).filter((row) => names.includes(row.binary));
        assert.deepEqual(
          rows.map((row) => [row.binary, row.configFiles]).sort(),
          names.map((name) => [name, [conf]]).sort(),
        );
      } finally {
        await db.close();
      }
      // The log file: every process's lines, at debug level (health checks are debug lines).
      const placement = /^ {2}Placement +(\S+)$/m.exec(output)?.[1] as string;
      const api = /^ {2}Bare metal API +(\S+)$/m.exec(output)?.[1] as string;
      await fetch(`${placement}/healthcheck`);
      await fetch(`${api}/healthcheck`);
      const logged = () => (existsSync(log) ? readFileSync(log, 'utf8') : '');
      await waitFor(
        () =>
          / DEBUG placement-api /.test(logged()) &&
          / DEBUG baremetal-api /.test(logged()) &&
          / INFO baremetal-conductor /.test(logged()),
        () => logged(),
      );
      // SIGHUP to the whole group (as a terminal's hangup, or `kill -HUP -PGID`): once each.
      process.kill(-pid, 'SIGHUP');
      await waitFor(
        () => names.every((name) => reloads(name) >= 1),
        () => output,
      );
      await sleep(3000);
      assert.deepEqual(
        names.map((name) => reloads(name)),
        [1, 1, 1],
        output,
      );
      // SIGHUP to `baton up` alone (systemctl reload's $MAINPID): once each again.
      process.kill(pid, 'SIGHUP');
      await waitFor(
        () => names.every((name) => reloads(name) >= 2),
        () => output,
      );
      await sleep(3000);
      assert.deepEqual(
        names.map((name) => reloads(name)),
        [2, 2, 2],
        output,
      );
      process.kill(pid, 'SIGTERM');
      assert.equal(await exited, 0, output);
    } finally {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // gone
      }
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('plans the three commands on one data directory, the API without a drain delay', () => {
    const plan = planUp(
      { dataDir: 'rel/dir', host: '127.0.0.2', placementPort: '0', baremetalPort: '16385' },
      '/opt/baton/bin/baton.mjs',
    );
    const dir = join(process.cwd(), 'rel/dir');
    assert.equal(plan.dataDir, dir);
    assert.equal(plan.databaseUrl, `sqlite:${join(dir, 'baton.sqlite')}`);
    assert.deepEqual(
      plan.children.map((c) => [c.name, c.command, c.args.join(' ')]),
      [
        [
          'placement-api',
          process.execPath,
          `/opt/baton/bin/baton.mjs placement serve --host 127.0.0.2 --port 0 --data-dir ${dir}`,
        ],
        [
          'baremetal-conductor',
          process.execPath,
          `/opt/baton/bin/baton.mjs baremetal conductor --rpc-transport-url http://127.0.0.2:0 --data-dir ${dir}`,
        ],
        [
          'baremetal-api',
          process.execPath,
          `/opt/baton/bin/baton.mjs baremetal api --host 127.0.0.2 --port 16385 --drain-delay 0 --data-dir ${dir}`,
        ],
      ],
    );
    const [placement, conductor] = plan.children;
    assert.equal(
      placement?.ready('placement-api listening on http://127.0.0.2:8778 (service version 1)'),
      'http://127.0.0.2:8778',
    );
    assert.equal(placement?.ready('placement-api stopping'), undefined);
    assert.equal(
      conductor?.ready('baremetal-conductor vm serving topic ironic.conductor_manager over http'),
      'vm',
    );
  });

  it('a data directory whose database cannot be opened is one error line', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'baton-up-'));
    writeFileSync(join(dataDir, 'baton.sqlite'), 'not a database, not empty either'.repeat(100));
    const run = spawnSync(process.execPath, [BIN, 'up', '--data-dir', dataDir], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    rmSync(dataDir, { recursive: true, force: true });
    assert.equal(run.status, 1, run.stderr);
    assert.match(
      run.stderr.trim().split('\n').at(-1) ?? '',
      /^baton: error: cannot open database sqlite:.*baton\.sqlite: /,
    );
  });

  it('refuses a bad port with a usage error, creating nothing', () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'baton-up-')), 'not-yet');
    const run = spawnSync(
      process.execPath,
      [BIN, 'up', '--data-dir', dataDir, '--baremetal-port', '70000'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    assert.equal(run.status, 64, run.stderr);
    assert.equal(
      run.stderr.trim().split('\n').at(-1),
      "baton: error: option '--baremetal-port <port>' argument '70000' is invalid: a port, 0 to 65535",
    );
    assert.equal(existsSync(dataDir), false);
  });
});
