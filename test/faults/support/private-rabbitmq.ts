/**
 * A RabbitMQ node of the test's own (its own node name, ports, data and cookie in a temporary
 * directory), so a fault test can stop and start the broker without touching the machine's
 * shared one. `restart` stops the rabbit application (every connection is closed, as a broker
 * restart does) and starts it again; the Erlang node stays up, which keeps the restart short.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.ts';

const run = promisify(execFile);
const RABBIT_BIN = process.env.BATON_FAULT_RABBITMQ_BIN ?? '/usr/lib/rabbitmq/bin';

export class PrivateRabbitmq {
  restarts = 0;
  readonly dir: string;
  readonly node: string;
  readonly port: number;
  readonly #server: ChildProcess;
  readonly #env: NodeJS.ProcessEnv;

  private constructor(dir: string, node: string, port: number, env: NodeJS.ProcessEnv) {
    this.dir = dir;
    this.node = node;
    this.port = port;
    this.#env = env;
    this.#server = spawn(join(RABBIT_BIN, 'rabbitmq-server'), [], {
      env,
      stdio: ['ignore', 'ignore', 'ignore'],
    });
  }

  static async start(): Promise<PrivateRabbitmq> {
    if (!existsSync(join(RABBIT_BIN, 'rabbitmq-server'))) {
      throw new Error(`rabbitmq-server not found in ${RABBIT_BIN} (BATON_FAULT_RABBITMQ_BIN)`);
    }
    const dir = mkdtempSync(join(tmpdir(), 'baton-fault-rmq-'));
    const port = await freePort();
    const node = `baton-fault-${randomBytes(4).toString('hex')}@localhost`;
    writeFileSync(join(dir, 'enabled_plugins'), '[].\n');
    writeFileSync(
      join(dir, 'rabbitmq.conf'),
      `listeners.tcp.default = ${port}\nloopback_users = none\n`,
    );
    const env = {
      ...process.env,
      // The Erlang cookie is created in HOME: a private one, not the shared broker's.
      HOME: dir,
      RABBITMQ_NODENAME: node,
      RABBITMQ_NODE_PORT: String(port),
      RABBITMQ_DIST_PORT: String(await freePort()),
      RABBITMQ_MNESIA_BASE: join(dir, 'mnesia'),
      RABBITMQ_LOG_BASE: join(dir, 'log'),
      RABBITMQ_CONFIG_FILE: join(dir, 'rabbitmq'),
      RABBITMQ_ENABLED_PLUGINS_FILE: join(dir, 'enabled_plugins'),
      RABBITMQ_PID_FILE: join(dir, 'pid'),
      RABBITMQ_FEATURE_FLAGS_FILE: join(dir, 'feature_flags'),
    };
    const broker = new PrivateRabbitmq(dir, node, port, env);
    await broker.ctl(['wait', join(dir, 'pid'), '--timeout', '90']);
    return broker;
  }

  get url(): string {
    return `amqp://guest:guest@127.0.0.1:${this.port}/`;
  }

  async ctl(args: readonly string[]): Promise<string> {
    const { stdout } = await run(join(RABBIT_BIN, 'rabbitmqctl'), ['-n', this.node, ...args], {
      env: this.#env,
      timeout: 120_000,
    });
    return stdout;
  }

  /** The client ports of the broker's open connections: a reconnected client has a new one. */
  async connections(): Promise<string[]> {
    const out = await this.ctl(['list_connections', '--silent', 'peer_port']);
    return out
      .split('\n')
      .filter((line) => /^\d+$/.test(line.trim()))
      .map((line) => line.trim());
  }

  /** The broker stops (every connection closed), stays down `downMs`, and starts again. */
  async restart(downMs: number): Promise<void> {
    await this.ctl(['stop_app']);
    await new Promise((resolve) => setTimeout(resolve, downMs));
    await this.ctl(['start_app']);
    this.restarts += 1;
  }

  async destroy(): Promise<void> {
    await this.ctl(['stop']).catch(() => {});
    if (this.#server.exitCode === null) {
      const exited = new Promise((resolve) => this.#server.once('exit', resolve));
      const timer = setTimeout(() => this.#server.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
