/**
 * The parent's side of bench/support/keepalive-load.ts (the load generator child), and pinning
 * threads or processes to a CPU with `taskset` so that a server and its loader stop migrating.
 */
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LoadMessage, LoadResult } from './keepalive-load.ts';

export type { LoadResult } from './keepalive-load.ts';

export class KeepAliveLoader {
  readonly #child: ChildProcess;

  private constructor(child: ChildProcess) {
    this.#child = child;
  }

  static start(): Promise<KeepAliveLoader> {
    const script = fileURLToPath(new URL('./keepalive-load.ts', import.meta.url));
    const child = fork(script, [], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('message', () => resolve(new KeepAliveLoader(child)));
    });
  }

  get pid(): number {
    return this.#child.pid ?? 0;
  }

  /** Drives `message.connections` keep-alive connections to the port for the duration. */
  run(message: LoadMessage): Promise<LoadResult> {
    return new Promise((resolve, reject) => {
      this.#child.once('message', (result: LoadResult) => {
        if (result.error) reject(new Error(result.error));
        else if (result.bad > 0)
          reject(new Error(`${result.bad} bad responses on ${message.port}`));
        else resolve(result);
      });
      this.#child.send(message);
    });
  }

  stop(): void {
    this.#child.disconnect();
  }
}

/** Pins a thread (with `all`, every thread of a process) to one CPU; false if it cannot. */
export function pinToCpu(id: number, cpu: number, all = false): boolean {
  if (!id) return false;
  try {
    const args = [...(all ? ['-a'] : []), '-p', '-c', String(cpu), String(id)];
    execFileSync('taskset', args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
