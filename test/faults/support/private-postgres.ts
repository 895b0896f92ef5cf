/**
 * A PostgreSQL cluster of the test's own (initdb + pg_ctl in a temporary directory, on a free
 * port), so a fault test can stop and restart it without touching the machine's shared server
 * that other tests use. As root the cluster runs as the `postgres` user (PostgreSQL refuses
 * to run as root); otherwise as the current user.
 */
import { execFile } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './free-port.ts';

const run = promisify(execFile);
const PG_BIN = process.env.BATON_FAULT_PG_BIN ?? '/usr/lib/postgresql/15/bin';

function asOwner(command: string, args: readonly string[]): [string, string[]] {
  if (process.getuid?.() === 0) return ['runuser', ['-u', 'postgres', '--', command, ...args]];
  return [command, [...args]];
}

async function pgTool(tool: string, args: readonly string[]): Promise<string> {
  const [command, argv] = asOwner(join(PG_BIN, tool), args);
  const { stdout } = await run(command, argv, { timeout: 60_000 });
  return stdout;
}

export class PrivatePostgres {
  restarts = 0;

  readonly dir: string;
  readonly port: number;

  private constructor(dir: string, port: number) {
    this.dir = dir;
    this.port = port;
  }

  /** The cluster is created and started; `url(name)` names a database in it. */
  static async start(): Promise<PrivatePostgres> {
    if (!existsSync(join(PG_BIN, 'initdb'))) {
      throw new Error(`PostgreSQL's initdb not found in ${PG_BIN} (BATON_FAULT_PG_BIN)`);
    }
    const dir = mkdtempSync(join(tmpdir(), 'baton-fault-pg-'));
    chmodSync(dir, 0o755);
    if (process.getuid?.() === 0) {
      const { stdout } = await run('id', ['-u', 'postgres']);
      const { stdout: gid } = await run('id', ['-g', 'postgres']);
      chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
    }
    await pgTool('initdb', ['-D', join(dir, 'data'), '-A', 'trust', '-U', 'postgres', '-N']);
    const cluster = new PrivatePostgres(dir, await freePort());
    await cluster.#pgCtlStart();
    await cluster.createDatabase('test');
    return cluster;
  }

  url(database = 'test'): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/${database}`;
  }

  async createDatabase(name: string): Promise<string> {
    const [command, argv] = asOwner('psql', [
      '-h',
      '127.0.0.1',
      '-p',
      String(this.port),
      '-U',
      'postgres',
      '-d',
      'postgres',
      '-c',
      `create database ${name}`,
    ]);
    await run(command, argv, { timeout: 30_000 });
    return this.url(name);
  }

  async #pgCtlStart(): Promise<void> {
    await pgTool('pg_ctl', [
      '-D',
      join(this.dir, 'data'),
      '-l',
      join(this.dir, 'server.log'),
      '-w',
      '-t',
      '60',
      '-o',
      `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
      'start',
    ]);
  }

  /** Fast shutdown: every session is ended at once (as an operator's restart does). */
  async stop(): Promise<void> {
    await pgTool('pg_ctl', ['-D', join(this.dir, 'data'), '-m', 'fast', '-w', 'stop']);
  }

  async startAgain(): Promise<void> {
    await this.#pgCtlStart();
  }

  /** Stopped, down for `downMs`, started again. */
  async restart(downMs: number): Promise<void> {
    await this.stop();
    await new Promise((resolve) => setTimeout(resolve, downMs));
    await this.startAgain();
    this.restarts += 1;
  }

  async destroy(): Promise<void> {
    await pgTool('pg_ctl', ['-D', join(this.dir, 'data'), '-m', 'immediate', '-w', 'stop']).catch(
      () => {},
    );
    rmSync(this.dir, { recursive: true, force: true });
  }
}
