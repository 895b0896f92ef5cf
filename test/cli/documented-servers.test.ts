/**
 * Whatever README.md and docs/*.md tell people to run to start a server, a supervisor can
 * manage: started exactly as written, it serves, and SIGTERM to the process that was started
 * (npm or npx, a wrapper) stops every process of its group with the documented status and
 * leaves no live services row; a server that cannot start makes the wrapper exit non-zero.
 *
 * The lines are marked in the docs: `<!-- server: COMMAND -->` just before the code block
 * that holds them. COMMAND is the line as written, less its `[optional]` parts, its `# comment`
 * and any setup before a final `&&` (`npm install && npm start`: the install is what this
 * test's own checkout has done). Every code line that looks like it starts a server must be
 * marked, so a new one cannot be missed. Each command runs without a shell, as a supervisor's
 * ExecStart= would, in its own process group, from the checkout, on a scratch data directory
 * (BATON_DATA_DIR) and free ports (BATON_PLACEMENT_PORT=0, BATON_BAREMETAL_PORT=0). `baton up`
 * (`npm run up`) runs three servers: each must answer, have its live row, and be gone after.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { listServices, openDatabase } from '../../src/db/index.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MARKER = /^<!-- server: (.+?) -->$/;
/** Code lines that start a server, whatever the docs call them. */
const LOOKS_LIKE_A_SERVER = /\bnpm start\b|\bnpm run up\b|\bbaton\b.*\bserve\b|\bbaton up\b/;

interface DocumentedServer {
  readonly file: string;
  readonly line: number;
  readonly command: string;
}

function documentationFiles(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs.sort()];
}

/** A code line as a command: no `[optional]` parts, no comment, only what follows a last `&&`. */
function runnablePart(line: string): string {
  const bare = line
    .replace(/\s+#.*$/, '')
    .replace(/\[[^\]]*\]/g, '')
    .trim();
  return (bare.split('&&').at(-1) ?? '').trim().replace(/\s+/g, ' ');
}

/** The marked commands, each checked against its code block; fails on an unmarked server line. */
function documentedServers(): DocumentedServer[] {
  const found: DocumentedServer[] = [];
  const unmarked: string[] = [];
  for (const file of documentationFiles()) {
    const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
    let pending: { command: string; line: number } | undefined;
    let block: { marked?: string; lines: string[]; start: number } | undefined;
    for (const [index, text] of lines.entries()) {
      if (block === undefined) {
        const marker = MARKER.exec(text.trim());
        if (marker?.[1] !== undefined) {
          pending = { command: marker[1], line: index + 1 };
          continue;
        }
        if (text.startsWith('```')) {
          block = { marked: pending?.command, lines: [], start: index + 1 };
          if (pending !== undefined) found.push({ file, ...pending });
          pending = undefined;
        } else if (text.trim() !== '' && pending !== undefined) {
          assert.fail(`${file}:${pending.line}: a server marker must come just before its block`);
        }
        continue;
      }
      if (!text.startsWith('```')) {
        block.lines.push(text);
        continue;
      }
      for (const [offset, code] of block.lines.entries()) {
        if (!LOOKS_LIKE_A_SERVER.test(code)) continue;
        if (block.marked === undefined || runnablePart(code) !== block.marked) {
          unmarked.push(`${file}:${block.start + offset + 1}: ${code.trim()}`);
        }
      }
      if (block.marked !== undefined) {
        const marked = block.marked;
        assert.ok(
          block.lines.some((code) => runnablePart(code) === marked),
          `${file}: the marker '${marked}' names no line of the block after it`,
        );
      }
      block = undefined;
    }
  }
  assert.deepEqual(unmarked, [], 'server command lines without a <!-- server: … --> marker');
  return found;
}

/** The live processes of a process group, with their command lines (zombies have ended). */
function groupMembers(pgid: number): string[] {
  const members: string[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    let cmdline: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    } catch {
      continue; // ended while we looked
    }
    // After "(comm)": state, ppid, pgrp, …
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z') members.push(`${name} ${cmdline}`);
  }
  return members;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The promise's value, or a failure naming `what` after `ms` (a hung process fails, not hangs). */
async function within<T>(promise: Promise<T>, ms: number, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what()}: not within ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The group's members and every descendant of them, whatever their group: `baton up` starts
 * each child in a process group of its own (a SIGHUP to its group reaches each once).
 */
function family(pgid: number): Map<number, string> {
  const parents = new Map<number, { ppid: number; pgrp: number; cmdline: string }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const [state, ppid, pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (state === 'Z') continue;
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      parents.set(Number(name), { ppid: Number(ppid), pgrp: Number(pgrp), cmdline });
    } catch {
      // ended while we looked
    }
  }
  const members = new Map<number, string>();
  for (const [pid, p] of parents) if (p.pgrp === pgid) members.set(pid, p.cmdline);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, p] of parents) {
      if (!members.has(pid) && members.has(p.ppid)) {
        members.set(pid, p.cmdline);
        grew = true;
      }
    }
  }
  return members;
}

/** Every process seen in the family while the command runs, polled until `stop`. */
function watchFamily(pgid: number): { seen: Map<number, string>; stop: () => void } {
  const seen = new Map<number, string>();
  const look = () => {
    for (const [pid, cmdline] of family(pgid)) seen.set(pid, cmdline);
  };
  look();
  const timer = setInterval(look, 100);
  return { seen, stop: () => clearInterval(timer) };
}

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] !== 'Z';
  } catch {
    return false;
  }
}

/** The processes of the family seen that are still alive, after up to 10 s. */
async function waitForNoneLeft(seen: Map<number, string>): Promise<string[]> {
  const left = () => [...seen].filter(([pid]) => alive(pid)).map(([pid, c]) => `${pid} ${c}`);
  for (let i = 0; i < 100 && left().length > 0; i++) await sleep(100);
  return left();
}

async function waitForEmptyGroup(pgid: number): Promise<string[]> {
  let members = groupMembers(pgid);
  for (let i = 0; i < 100 && members.length > 0; i++) {
    await sleep(100);
    members = groupMembers(pgid);
  }
  return members;
}

interface Started {
  readonly child: ChildProcess;
  readonly output: () => string;
  readonly exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts the command as written (split on spaces; no shell), leading its own process group. */
function start(command: string, env: Record<string, string>): Started {
  assert.match(command, /^[\w ./=:-]+$/, `'${command}' needs a shell; this test runs argv only`);
  const [file, ...args] = command.split(' ');
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')),
  );
  const child = spawn(file ?? '', args, {
    cwd: ROOT,
    detached: true,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exit };
}

/** SIGKILL to a process seen in the family, if it is still that process (pids are reused). */
function killSeen(pid: number, cmdline: string): void {
  try {
    const now = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    if (now === cmdline) process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

function killGroup(pgid: number | undefined): void {
  if (pgid === undefined) return;
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** What a documented command runs: the servers' binaries, and what it says once serving. */
interface Expected {
  readonly binaries: readonly string[];
  readonly ready: RegExp;
  readonly stopped: RegExp;
}

function expectedOf(command: string): Expected {
  if (/\bup\b/.test(command)) {
    return {
      binaries: ['baremetal-api', 'baremetal-conductor', 'placement-api'],
      ready: /^baton up: ready/m,
      stopped: /^baton up: stopped \(SIGTERM\)$/m,
    };
  }
  return {
    binaries: ['placement-api'],
    ready: /listening on http/,
    stopped: /placement-api stopped/,
  };
}

/** The URLs the command's servers listen on, once it says it is ready. */
async function waitForUrls(started: Started, expected: Expected): Promise<string[]> {
  for (let i = 0; i < 1200; i++) {
    if (expected.ready.test(started.output())) {
      // A server says it on stdout and in its log: each URL once.
      const said = started.output().matchAll(/listening on (http:\/\/\S+)/g);
      return [...new Set([...said].map((m) => m[1] ?? ''))];
    }
    if (started.child.exitCode !== null || started.child.signalCode !== null) break;
    await sleep(100);
  }
  assert.fail(`never listened:\n${started.output()}`);
}

function scratchDir(): string {
  return mkdtempSync(join(tmpdir(), 'documented-server-'));
}

const SERVERS = documentedServers();
const COMMANDS = [...new Set(SERVERS.map((server) => server.command))];

describe('documented server commands', () => {
  it('are marked: README.md names at least npm run up, npx baton up, npm start and npx baton placement serve', () => {
    for (const command of [
      'npm run up',
      'npx baton up',
      'npm start',
      'npx baton placement serve',
    ]) {
      assert.ok(COMMANDS.includes(command), `${command} not in ${COMMANDS.join(', ')}`);
    }
  });

  for (const command of COMMANDS) {
    it(`${command}: serves, and SIGTERM to it leaves no process and no live services row`, async () => {
      const dataDir = scratchDir();
      const expected = expectedOf(command);
      const started = start(command, {
        BATON_DATA_DIR: dataDir,
        BATON_PLACEMENT_PORT: '0',
        BATON_BAREMETAL_PORT: '0',
      });
      const pgid = started.child.pid;
      const watched = watchFamily(pgid ?? 0);
      try {
        const urls = await waitForUrls(started, expected);
        for (const url of urls) assert.equal((await fetch(`${url}/`)).status, 200, url);
        const db = await openDatabase(`sqlite:${join(dataDir, 'baton.sqlite')}`);
        try {
          const rows = await listServices(db);
          // An API's row is its host and port; the conductor's its host name.
          const ports = urls.map((url) => `:${new URL(url).port}`);
          for (const binary of expected.binaries) {
            const row = rows.find((r) => r.binary === binary);
            assert.ok(row?.live, `${binary} has a live row: ${JSON.stringify(rows)}`);
            if (binary.endsWith('-api')) {
              assert.ok(
                ports.some((port) => row.host.endsWith(port)),
                row.host,
              );
            }
          }
          assert.equal(urls.length, expected.binaries.filter((b) => b.endsWith('-api')).length);
          started.child.kill('SIGTERM');
          const ended = await within(
            started.exit,
            30_000,
            () => `exit after SIGTERM\n${started.output()}`,
          );
          assert.deepEqual(ended, { code: 0, signal: null }, started.output());
          watched.stop();
          assert.ok(watched.seen.size >= expected.binaries.length, 'the family was watched');
          assert.deepEqual(await waitForEmptyGroup(pgid ?? 0), [], 'processes left behind');
          assert.deepEqual(await waitForNoneLeft(watched.seen), [], 'processes left behind');
          assert.deepEqual(await listServices(db), [], 'a clean stop removes the rows');
        } finally {
          await db.close();
        }
        assert.match(started.output(), expected.stopped);
      } finally {
        watched.stop();
        killGroup(pgid);
        for (const [pid, cmdline] of watched.seen) killSeen(pid, cmdline);
      }
    });

    it(`${command}: a server that cannot start makes it exit 1`, async () => {
      const taken = createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      const address = taken.address();
      assert.ok(address !== null && typeof address === 'object');
      const started = start(command, {
        BATON_DATA_DIR: scratchDir(),
        BATON_PLACEMENT_PORT: String(address.port),
        BATON_BAREMETAL_PORT: '0',
      });
      const pgid = started.child.pid;
      const watched = watchFamily(pgid ?? 0);
      try {
        const ended = await within(started.exit, 60_000, () => `exit\n${started.output()}`);
        assert.deepEqual(ended, { code: 1, signal: null }, started.output());
        assert.match(
          started.output(),
          /baton: error: cannot listen on 127\.0\.0\.1:\d+: EADDRINUSE/,
        );
        watched.stop();
        assert.deepEqual(await waitForEmptyGroup(pgid ?? 0), [], 'processes left behind');
        assert.deepEqual(await waitForNoneLeft(watched.seen), [], 'processes left behind');
      } finally {
        watched.stop();
        killGroup(pgid);
        for (const [pid, cmdline] of watched.seen) killSeen(pid, cmdline);
        taken.close();
      }
    });
  }
});
