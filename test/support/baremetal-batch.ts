/**
 * The real `baremetal` client, many commands in one Python process (baremetal-batch.py): each
 * command builds the client application afresh and gets its own exit status, stdout and
 * stderr, as a process of its own would, without paying the client's 1.5 s of imports each
 * time. A command that outlives its deadline kills the process (code 124, as runBaremetal
 * reports it); the next command starts a new one.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface, type Interface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { baremetalArgv, type CliResult } from './real-ironic.ts';

const SCRIPT = fileURLToPath(new URL('./baremetal-batch.py', import.meta.url));

interface Running {
  readonly child: ChildProcessWithoutNullStreams;
  readonly lines: Interface;
  stderr: string;
}

export class BaremetalBatch {
  readonly #endpoint: string;
  readonly #env: NodeJS.ProcessEnv;
  #running: Running | undefined;
  /** Commands run one after another, as a shell session would. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(endpoint: string, env: NodeJS.ProcessEnv) {
    this.#endpoint = endpoint;
    this.#env = env;
  }

  /** `baremetal --os-auth-type none --os-endpoint <endpoint> ...args`. */
  run(args: readonly string[], timeoutMs: number): Promise<CliResult> {
    const result = this.#queue.then(() => this.#runNow(args, timeoutMs));
    this.#queue = result.catch(() => undefined);
    return result;
  }

  close(): void {
    this.#running?.child.kill('SIGKILL');
    this.#running = undefined;
  }

  #start(): Running {
    const child = spawn('/usr/bin/python3', [SCRIPT], {
      env: this.#env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const running: Running = { child, lines: createInterface({ input: child.stdout }), stderr: '' };
    child.stderr.on('data', (chunk: Buffer) => {
      running.stderr = (running.stderr + chunk.toString()).slice(-4_000);
    });
    child.stdin.on('error', () => {});
    return running;
  }

  async #runNow(args: readonly string[], timeoutMs: number): Promise<CliResult> {
    this.#running ??= this.#start();
    const running = this.#running;
    return new Promise<CliResult>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        running.lines.off('line', onLine);
        running.child.off('exit', onExit);
      };
      const onLine = (line: string) => {
        done();
        resolve(JSON.parse(line) as CliResult);
      };
      const onExit = (code: number | null) => {
        done();
        this.#running = undefined;
        reject(new Error(`the baremetal batch runner exited (${code}): ${running.stderr}`));
      };
      const timer = setTimeout(() => {
        done();
        this.close();
        resolve({ code: 124, stdout: '', stderr: `(killed after ${timeoutMs} ms)` });
      }, timeoutMs);
      running.lines.on('line', onLine);
      running.child.on('exit', onExit);
      running.child.stdin.write(`${JSON.stringify(baremetalArgv(this.#endpoint, args))}\n`);
    });
  }
}
