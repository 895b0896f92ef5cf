/**
 * `baton …` commands run as an operator runs them (child processes from the working tree's
 * sources), with their output kept, a wait for the line saying they serve, and their memory
 * read from /proc.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const MAIN = join(import.meta.dirname, '../../../src/cli/main.ts');

export interface BatonProcess {
  readonly name: string;
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
  /** Resolves with the first match of `pattern` in the output (fails if the process exits). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  running(): boolean;
  /** Resident memory in KiB (VmRSS), undefined once exited. */
  rssKiB(): number | undefined;
}

/** `prefix` runs the command through another (e.g. `ip netns exec <ns>`). */
export function startBaton(
  name: string,
  args: readonly string[],
  prefix: readonly string[] = [],
): BatonProcess {
  const argv = [process.execPath, '--import', 'tsx', MAIN, ...args];
  const [command, ...rest] = [...prefix, ...argv] as [string, ...string[]];
  const child = spawn(command, rest, { stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  const listeners = new Set<() => void>();
  const append = (chunk: Buffer) => {
    text += chunk.toString();
    // Keeps the tail only: a soak runs for an hour.
    if (text.length > 2_000_000) text = text.slice(-1_000_000);
    for (const listener of listeners) listener();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    name,
    child,
    exited,
    output: () => text,
    running,
    waitFor(pattern, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = text.match(pattern);
          if (found) {
            done();
            resolve(found);
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`${name}: ${pattern} not seen within ${timeoutMs} ms:\n${text}`));
        }, timeoutMs);
        const onExit = () => {
          done();
          reject(new Error(`${name} exited before ${pattern}:\n${text}`));
        };
        const done = () => {
          clearTimeout(timer);
          listeners.delete(check);
          child.off('exit', onExit);
        };
        listeners.add(check);
        child.once('exit', onExit);
        check();
      });
    },
    rssKiB() {
      if (!running() || child.pid === undefined) return undefined;
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
        const match = status.match(/VmRSS:\s+(\d+) kB/);
        return match ? Number(match[1]) : undefined;
      } catch {
        return undefined;
      }
    },
  };
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. */
export async function stopBaton(process_: BatonProcess, graceMs = 15_000): Promise<void> {
  if (!process_.running()) return;
  process_.child.kill('SIGTERM');
  const timer = setTimeout(() => process_.child.kill('SIGKILL'), graceMs);
  await process_.exited;
  clearTimeout(timer);
}

export async function placementServe(dbUrl: string, extra: readonly string[] = []) {
  const p = startBaton('placement', ['placement', 'serve', '--db', dbUrl, '--port', '0', ...extra]);
  const [, url] = await p.waitFor(/listening on (http:\/\/\S+?)[\s(]/);
  return { process: p, url: String(url) };
}

export async function baremetalApi(config: string, extra: readonly string[] = []) {
  const p = startBaton('baremetal-api', [
    'baremetal',
    'api',
    '--config-file',
    config,
    '--port',
    '0',
    ...extra,
  ]);
  const [, url] = await p.waitFor(/listening on (http:\/\/\S+?)[\s(]/);
  return { process: p, url: String(url) };
}

export async function baremetalConductor(
  name: string,
  config: string,
  prefix: readonly string[] = [],
) {
  const p = startBaton(name, ['baremetal', 'conductor', '--config-file', config], prefix);
  await p.waitFor(/serving topic/);
  return p;
}

/**
 * A suite's clean-up: a process that died on its own says why (its test then fails on it),
 * then every process is stopped, the last started first.
 */
export async function stopAllBaton(processes: BatonProcess[]): Promise<void> {
  for (const p of processes) {
    if (!p.running()) console.log(`${p.name} exited; its last output:\n${p.output().slice(-3000)}`);
  }
  for (const p of [...processes].reverse()) await stopBaton(p, 5_000);
}
