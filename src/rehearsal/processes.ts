/**
 * The processes of a rehearsal: `baton` of one build or the other, run as an operator runs
 * it (`node <build>/bin/baton.mjs …`), its output kept in a log file of the temporary folder.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';

export interface RunningProcess {
  readonly name: string;
  readonly child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  /** Its exit status, once it exited (a signal: 128 + the signal's number, as a shell says). */
  readonly exited: Promise<number>;
}

const SIGNALS: Readonly<Record<string, number>> = { SIGKILL: 9, SIGTERM: 15, SIGINT: 2 };

/** How a process is started and when it counts as started. */
export interface StartOptions {
  readonly ready: RegExp;
  readonly logDir: string;
  readonly timeoutMs?: number;
  /** Added to the environment (the rehearsal's status file for the dashboard). */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** Flags for node itself, before the script (`--cpu-prof` …). */
  readonly nodeFlags?: readonly string[];
}

/** Starts `node <root>/bin/baton.mjs <args>` and waits until its output matches `ready`. */
export function startBaton(
  name: string,
  root: string,
  args: readonly string[],
  options: StartOptions,
): Promise<RunningProcess> {
  return startNodeProcess(name, [join(root, 'bin/baton.mjs'), ...args], options);
}

/** Starts `node <args>` and waits until its output matches `ready`. */
export async function startNodeProcess(
  name: string,
  args: readonly string[],
  options: StartOptions,
): Promise<RunningProcess> {
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: options.cwd,
    env: { ...process.env, BATON_DATA_DIR: options.logDir, ...options.env },
  });
  const log = createWriteStream(join(options.logDir, `${name}.out`), { flags: 'a' });
  let output = '';
  const exited = new Promise<number>((resolve) =>
    child.on('exit', (code, signal) => {
      log.end();
      resolve(code ?? 128 + (SIGNALS[signal ?? ''] ?? 0));
    }),
  );
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start in time: ${output}`));
    }, options.timeoutMs ?? 60_000);
    const take = (chunk: Buffer) => {
      output += chunk;
      log.write(chunk);
      if (options.ready.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited ${code} while starting: ${output.trim()}`));
    });
  });
  return { name, child, output: () => output, exited };
}

/** SIGTERM, then its exit status; SIGKILL (and 137) past the grace period. */
export async function stopProcess(running: RunningProcess, graceMs = 60_000): Promise<number> {
  running.child.kill('SIGTERM');
  const timer = setTimeout(() => running.child.kill('SIGKILL'), graceMs);
  try {
    return await running.exited;
  } finally {
    clearTimeout(timer);
  }
}

export interface CommandResult {
  readonly command: string;
  readonly status: number;
  readonly output: string;
  readonly seconds: number;
}

/** Runs a program to its end, its output captured. */
export async function runCommand(
  program: string,
  args: readonly string[],
  options: { readonly cwd?: string; readonly env?: NodeJS.ProcessEnv } = {},
): Promise<CommandResult> {
  const started = performance.now();
  const child = spawn(program, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const status = await new Promise<number>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? 128 + (SIGNALS[signal ?? ''] ?? 0)));
  });
  return {
    command: [program, ...args].join(' '),
    status,
    output,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
}

/** `baton <args>` of a build, to its end; `env` is added to the environment. */
export function runBaton(
  root: string,
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<CommandResult> {
  return runCommand(process.execPath, [join(root, 'bin/baton.mjs'), ...args], {
    env: { ...process.env, ...env },
  });
}
