/**
 * Drives oslo_peer.py, a real oslo.messaging 14 process (Debian's
 * python3-oslo.messaging under /usr/bin/python3), from a test: its RPC
 * servers and client requests, one JSON line each way. Unavailable (no
 * python3 or no oslo.messaging) is a skip with the reason, except under
 * CI=true, where it fails.
 */
import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const PYTHON = '/usr/bin/python3';
const SCRIPT = fileURLToPath(new URL('./oslo_peer.py', import.meta.url));

/** Why the peer cannot run here, or undefined; throws under CI=true. */
export async function osloAvailable(): Promise<string | undefined> {
  try {
    await promisify(execFile)(PYTHON, ['-c', 'import oslo_messaging, oslo_versionedobjects'], {
      timeout: 30_000,
    });
    return undefined;
  } catch (error) {
    const reason = `oslo.messaging unavailable (${PYTHON}; Debian python3-oslo.messaging): ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
    if (process.env.CI === 'true')
      throw new Error(`${reason} (CI=true: the interop must be tested)`);
    return reason;
  }
}

/** An error as the Python side saw it. */
export interface PythonError {
  readonly class: string;
  readonly module: string;
  readonly message: string;
  /** Which of MessagingTimeout, UnsupportedVersion, NoSuchMethod, RemoteError it is an instance of. */
  readonly is: readonly string[];
  readonly exc_type?: string;
  readonly value?: string;
  readonly version?: string;
  readonly method?: string;
}

export type PythonAnswer =
  | { readonly ok: true; readonly result: unknown }
  | { readonly ok: false; readonly error: PythonError };

export interface PythonRequest {
  readonly topic: string;
  readonly method: string;
  readonly args?: Record<string, unknown>;
  readonly server?: string;
  readonly fanout?: boolean;
  readonly version?: string;
  readonly namespace?: string;
  readonly context?: Record<string, unknown>;
  /** Seconds. */
  readonly timeout?: number;
  readonly call_monitor_timeout?: number;
}

export interface PythonEvent {
  readonly event: string;
  readonly server?: string;
  readonly method?: string;
  readonly args?: Record<string, unknown>;
  readonly context?: Record<string, unknown>;
}

export class OsloPeer {
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #waiting = new Map<number, (answer: PythonAnswer) => void>();
  readonly events: PythonEvent[] = [];
  #stderr = '';
  #next = 0;
  #exited: Promise<number | null>;

  private constructor(child: ChildProcessWithoutNullStreams) {
    this.#child = child;
    this.#exited = new Promise((resolve) => child.once('exit', resolve));
    child.stderr.on('data', (chunk: Buffer) => {
      this.#stderr += chunk.toString('utf8');
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      const message = JSON.parse(line) as { id?: number } & PythonAnswer & PythonEvent;
      if (typeof message.id === 'number') {
        this.#waiting.get(message.id)?.(message);
        this.#waiting.delete(message.id);
      } else this.events.push(message);
    });
  }

  /** Starts the peer on the broker of `amqpUrl` with `exchange` as its control exchange. */
  static async start(amqpUrl: string, exchange: string): Promise<OsloPeer> {
    const url = amqpUrl.replace(/^amqp:/, 'rabbit:');
    const peer = new OsloPeer(spawn(PYTHON, [SCRIPT, url, exchange]));
    await peer.waitForEvent((e) => e.event === 'ready', 30_000);
    return peer;
  }

  /** What the peer wrote to stderr (oslo's warnings), for failure messages. */
  get stderr(): string {
    return this.#stderr;
  }

  #send(command: Record<string, unknown>): Promise<PythonAnswer> {
    const id = this.#next++;
    return new Promise((resolve) => {
      this.#waiting.set(id, resolve);
      this.#child.stdin.write(`${JSON.stringify({ ...command, id })}\n`);
    });
  }

  async serve(topic: string, server: string): Promise<void> {
    const answer = await this.#send({ op: 'serve', topic, server });
    if (!answer.ok)
      throw new Error(`oslo server ${topic}.${server} did not start: ${answer.error.message}`);
  }

  call(request: PythonRequest): Promise<PythonAnswer> {
    return this.#send({ op: 'call', ...request });
  }

  /** A call that must succeed: its result. */
  async result(request: PythonRequest): Promise<unknown> {
    const answer = await this.call(request);
    if (!answer.ok)
      throw new Error(`oslo call '${request.method}' failed: ${JSON.stringify(answer.error)}`);
    return answer.result;
  }

  /** A call that must fail: the error as Python saw it. */
  async error(request: PythonRequest): Promise<PythonError> {
    const answer = await this.call(request);
    if (answer.ok)
      throw new Error(
        `oslo call '${request.method}' returned ${JSON.stringify(answer.result)}, not an error`,
      );
    return answer.error;
  }

  async cast(request: PythonRequest): Promise<void> {
    const answer = await this.#send({ op: 'cast', ...request });
    if (!answer.ok) throw new Error(`oslo cast failed: ${answer.error.message}`);
  }

  async waitForEvent(match: (event: PythonEvent) => boolean, timeoutMs = 5000) {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const found = this.events.find(match);
      if (found !== undefined) return found;
      if (Date.now() > until || this.#child.exitCode !== null)
        throw new Error(`no such event from the oslo peer; its stderr:\n${this.#stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  async stop(): Promise<void> {
    if (this.#child.exitCode === null) {
      const stopped = this.#send({ op: 'stop' });
      const timer = setTimeout(() => this.#child.kill('SIGKILL'), 20_000);
      await Promise.race([stopped, this.#exited]);
      await this.#exited;
      clearTimeout(timer);
    }
  }
}
