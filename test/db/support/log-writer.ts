/** Starts support/sqlite-log-writer.ts: another process on the same SQLite file. */
import assert from 'node:assert/strict';
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('./sqlite-log-writer.ts', import.meta.url));

export interface LogWriter {
  readonly child: ChildProcess;
  /** Sends a command and resolves with the process's next answer. */
  ask(command: object): Promise<unknown>;
  stop(): Promise<void>;
}

export async function startLogWriter(url: string): Promise<LogWriter> {
  const child = fork(SCRIPT, [url], { execArgv: ['--import', 'tsx'] });
  const next = () =>
    new Promise<unknown>((resolve, reject) => {
      const exited = (code: number | null) => reject(new Error(`log writer exited with ${code}`));
      child.once('exit', exited);
      child.once('message', (message) => {
        child.off('exit', exited);
        resolve(message);
      });
    });
  assert.equal(await next(), 'ready');
  return {
    child,
    ask: (command) => {
      const answer = next();
      child.send(command);
      return answer;
    },
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.disconnect();
      }),
  };
}
