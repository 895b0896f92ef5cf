/**
 * Signals during a process's start (issue 15 §2): a SIGHUP before the process serves must not
 * end it (Node's default for SIGHUP) and is acted on once it serves; a SIGTERM during the start
 * must end it cleanly without leaving a live services row. Real conductors (and APIs) through
 * bin/baton.mjs on a SQLite file. To catch a process in the middle of its start, the test holds
 * SQLite's write lock: the conductor opens the database, reads, and waits at its first write
 * (its registration) until the lock is released; the signal is sent while it waits. Ctrl-C
 * (SIGINT) while the code still loads, or while the database is opened, is an orderly stop
 * too: exit 0, no stack (issue 22 §4; before, Node's default ended the process: exit 130).
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import Sqlite from 'better-sqlite3';
import { listServices, openDatabase } from '../../src/db/index.ts';

const BIN = fileURLToPath(new URL('../../bin/baton.mjs', import.meta.url));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

interface Running {
  readonly child: ChildProcess;
  readonly out: () => string;
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

let dir: string;
let conf: string;
let dbPath: string;

function conductor(host: string): Running {
  return baton(['baremetal', 'conductor', '--config-file', conf, '--host', host]);
}

function baton(args: readonly string[]): Running {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (chunk) => (out += chunk));
  child.stderr?.on('data', (chunk) => (out += chunk));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, out: () => out, exit };
}

async function until(what: string, running: Running, probe: () => boolean): Promise<void> {
  const started = Date.now();
  while (!probe()) {
    if (running.child.exitCode !== null || running.child.signalCode !== null)
      throw new Error(`the conductor ended before ${what}:\n${running.out()}`);
    if (Date.now() - started > 60_000) throw new Error(`not ${what} in 60 s:\n${running.out()}`);
    await sleep(5);
  }
}

/** Whether the process has the database file open (it is past its config, into its start). */
function hasDatabaseOpen(pid: number): boolean {
  const fds = `/proc/${pid}/fd`;
  try {
    return readdirSync(fds).some((fd) => {
      try {
        return readlinkSync(join(fds, fd)) === dbPath;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

/** Whether the process has a SIGHUP handler (Linux: bit 0 of SigCgt in /proc/PID/status). */
function catchesSighup(pid: number): boolean {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const mask = /^SigCgt:\s*([0-9a-f]+)$/m.exec(status)?.[1];
  return mask !== undefined && (BigInt(`0x${mask}`) & 1n) === 1n;
}

/** Holds SQLite's write lock until the returned function is called. */
function holdWriteLock(): () => void {
  const handle = new Sqlite(dbPath);
  handle.exec('BEGIN IMMEDIATE');
  return () => {
    if (!handle.open) return;
    handle.exec('COMMIT');
    handle.close();
  };
}

async function liveRows(host: string) {
  const db = await openDatabase(`sqlite:${dbPath}`, { mustExist: true });
  try {
    return (await listServices(db)).filter((row) => row.host === host && row.live);
  } finally {
    await db.close();
  }
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'startup-signals-'));
  conf = join(dir, 'ironic.conf');
  dbPath = join(dir, 'baremetal.sqlite');
  await writeFile(
    conf,
    [
      '[database]',
      `connection = sqlite:${dbPath}`,
      '[conductor]',
      'heartbeat_interval = 1',
      '',
    ].join('\n'),
  );
  const upgrade = spawnSync(
    process.execPath,
    [BIN, 'db', 'upgrade', '--service', 'baremetal', '--db', `sqlite:${dbPath}`],
    { encoding: 'utf8' },
  );
  assert.equal(upgrade.status, 0, upgrade.stderr);
});

after(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('a SIGHUP while the code loads does not end the process', async () => {
  const running = conductor('hup-loading');
  try {
    const pid = running.child.pid ?? assert.fail('no pid');
    // The first line of bin/baton.mjs; before it Node is still booting and nothing can catch it.
    await until('catching SIGHUP', running, () => catchesSighup(pid));
    running.child.kill('SIGHUP');
    await until('serving', running, () => /serving topic/.test(running.out()));
    running.child.kill('SIGTERM');
    assert.deepEqual(await running.exit, { code: 0, signal: null }, running.out());
  } finally {
    running.child.kill('SIGKILL');
  }
});

test('a SIGHUP during the start is held, and the reload runs once the process serves', async () => {
  for (const index of [1, 2, 3]) {
    const release = holdWriteLock();
    const running = conductor(`hup-${index}`);
    try {
      const pid = running.child.pid ?? assert.fail('no pid');
      await until('opening the database', running, () => hasDatabaseOpen(pid));
      await sleep(50 * index);
      running.child.kill('SIGHUP');
      await sleep(20);
      running.child.kill('SIGHUP');
      await sleep(100);
      release();
      await until('serving', running, () => /serving topic/.test(running.out()));
      await until('reloading', running, () => /reloaded \(SIGHUP\)/.test(running.out()));
      assert.equal(running.child.signalCode, null);
      running.child.kill('SIGTERM');
      assert.deepEqual(await running.exit, { code: 0, signal: null }, running.out());
    } finally {
      release();
      running.child.kill('SIGKILL');
    }
  }
});

test('a SIGTERM during the start ends the process cleanly and leaves no live row', async () => {
  for (const index of [1, 2, 3]) {
    const host = `term-${index}`;
    const release = holdWriteLock();
    const running = conductor(host);
    try {
      const pid = running.child.pid ?? assert.fail('no pid');
      await until('opening the database', running, () => hasDatabaseOpen(pid));
      await sleep(50 * index);
      running.child.kill('SIGTERM');
      await sleep(100);
      release();
      assert.deepEqual(await running.exit, { code: 0, signal: null }, running.out());
    } finally {
      release();
      running.child.kill('SIGKILL');
    }
    assert.deepEqual(await liveRows(host), [], running.out());
  }
});

test('a SIGTERM as soon as the services row appears leaves no live row', async () => {
  for (const index of [1, 2, 3]) {
    const host = `term-row-${index}`;
    const running = conductor(host);
    const db = await openDatabase(`sqlite:${dbPath}`, { mustExist: true });
    try {
      const started = Date.now();
      while ((await listServices(db)).every((row) => row.host !== host || !row.live)) {
        if (Date.now() - started > 60_000) assert.fail(`no row in 60 s:\n${running.out()}`);
        await sleep(1);
      }
      running.child.kill('SIGTERM');
      assert.deepEqual(await running.exit, { code: 0, signal: null }, running.out());
      assert.deepEqual(
        (await listServices(db)).filter((row) => row.host === host && row.live),
        [],
      );
    } finally {
      await db.close();
      running.child.kill('SIGKILL');
    }
  }
});

test("a SIGTERM as soon as an API's services row appears leaves no live row", async () => {
  const db = await openDatabase(`sqlite:${dbPath}`, { mustExist: true });
  try {
    for (const _ of [1, 2, 3]) {
      const api = baton([
        'baremetal',
        'api',
        '--config-file',
        conf,
        '--port',
        '0',
        '--drain-wait',
        '0',
      ]);
      try {
        const started = Date.now();
        while (
          (await listServices(db)).every((row) => row.binary !== 'baremetal-api' || !row.live)
        ) {
          if (Date.now() - started > 60_000) assert.fail(`no row in 60 s:\n${api.out()}`);
          await sleep(1);
        }
        api.child.kill('SIGTERM');
        assert.deepEqual(await api.exit, { code: 0, signal: null }, api.out());
        assert.deepEqual(
          (await listServices(db)).filter((row) => row.binary === 'baremetal-api' && row.live),
          [],
        );
      } finally {
        api.child.kill('SIGKILL');
      }
    }
  } finally {
    await db.close();
  }
});

const apiArgs = (service: 'placement' | 'baremetal'): readonly string[] =>
  service === 'baremetal'
    ? ['baremetal', 'api', '--config-file', conf, '--port', '0', '--drain-wait', '0']
    : ['placement', 'serve', '--db', `sqlite:${join(dir, 'placement.sqlite')}`, '--port', '0'];

for (const service of ['baremetal', 'placement'] as const) {
  test(`${service}: Ctrl-C while the code loads is an orderly stop, exit 0`, async () => {
    const running = baton(apiArgs(service));
    try {
      const pid = running.child.pid ?? assert.fail('no pid');
      // bin/baton.mjs's first lines: the command catches its signals from there on.
      await until('catching signals', running, () => catchesSighup(pid));
      assert.doesNotMatch(running.out(), /listening on/);
      running.child.kill('SIGINT');
      assert.deepEqual(await running.exit, { code: 0, signal: null }, running.out());
      assert.match(running.out(), /stopping \(SIGINT\)/);
      assert.doesNotMatch(running.out(), /Error|\n\s+at /);
    } finally {
      running.child.kill('SIGKILL');
    }
  });
}

test('Ctrl-C while an API opens its database is an orderly stop, exit 0, no live row', async () => {
  const release = holdWriteLock();
  const running = baton(apiArgs('baremetal'));
  try {
    const pid = running.child.pid ?? assert.fail('no pid');
    await until('opening the database', running, () => hasDatabaseOpen(pid));
    running.child.kill('SIGINT');
    await sleep(100);
    release();
    assert.deepEqual(await running.exit, { code: 0, signal: null }, running.out());
    assert.doesNotMatch(running.out(), /Error|\n\s+at /);
  } finally {
    release();
    running.child.kill('SIGKILL');
  }
  const db = await openDatabase(`sqlite:${dbPath}`, { mustExist: true });
  try {
    assert.deepEqual(
      (await listServices(db)).filter((row) => row.binary === 'baremetal-api' && row.live),
      [],
    );
  } finally {
    await db.close();
  }
});

test('Ctrl-C while a database does not answer: the start that then fails is an orderly stop, exit 0', async () => {
  // A PostgreSQL server that accepts and never answers: the start waits in its connection.
  const held: Socket[] = [];
  const server = createServer((socket) => {
    held.push(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const running = baton([
    'baremetal',
    'api',
    '--config-file',
    conf,
    '--db',
    `postgresql://baton:secret@127.0.0.1:${port}/baton`,
    '--port',
    '0',
  ]);
  try {
    await until('connecting to the database', running, () => held.length > 0);
    running.child.kill('SIGINT');
    await sleep(200);
    for (const socket of held) socket.destroy();
    assert.deepEqual(await running.exit, { code: 0, signal: null }, running.out());
    assert.match(
      running.out(),
      /baremetal-api stopped during its start \(SIGINT\): cannot open database postgresql:\/\/baton:\*\*\*@/,
    );
    assert.doesNotMatch(running.out(), /secret|\n\s+at /);
  } finally {
    running.child.kill('SIGKILL');
    server.close();
  }
});
