/**
 * The leases example's processes for a test: one SQLite database in a folder of the test's
 * own, the package built and the schema upgraded first, then APIs and workers started from
 * the example's sources, each with its config file, and stopped at the end.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  type RunningProcess,
  startNodeProcess,
  stopProcess,
} from '../../../../src/rehearsal/processes.ts';

const ROOT = join(import.meta.dirname, '../../../..');
const SRC = join(ROOT, 'examples/leases/src');
const run = promisify(execFile);

export class LeasesCluster {
  readonly dir: string;
  readonly database: string;
  readonly running = new Map<string, RunningProcess>();

  constructor(prefix: string) {
    this.dir = mkdtempSync(join(tmpdir(), prefix));
    this.database = `sqlite:${join(this.dir, 'leases.sqlite')}`;
  }

  /** Builds the package the example imports (when the sources changed); upgrades the schema. */
  async prepare(): Promise<string> {
    await run(process.execPath, [join(ROOT, 'bin/build.mjs')], { cwd: ROOT });
    const upgrade = await run(
      process.execPath,
      ['--import', 'tsx', join(SRC, 'manage.ts'), 'db-upgrade', '--db', this.database],
      { cwd: ROOT },
    );
    return upgrade.stdout;
  }

  /** Starts `api.ts` or `worker.ts` as `name` with these config lines (and the database). */
  async start(name: string, script: 'api.ts' | 'worker.ts', lines: string[]): Promise<void> {
    const file = join(this.dir, `${name}.conf`);
    writeFileSync(
      file,
      `${[...lines, '[database]', `connection = ${this.database}`].join('\n')}\n`,
    );
    const started = await startNodeProcess(
      name,
      ['--import', 'tsx', join(SRC, script), '--config-file', file],
      {
        ready: script === 'api.ts' ? /listening on/ : /serving topic/,
        logDir: this.dir,
        cwd: ROOT,
      },
    );
    this.running.set(name, started);
  }

  /** SIGTERM to `name`; its exit status. */
  async stop(name: string): Promise<number> {
    const process = this.running.get(name);
    if (process === undefined) throw new Error(`${name} is not running`);
    this.running.delete(name);
    return stopProcess(process, 10_000);
  }

  /** Stops every process, the last started first, and removes the folder. */
  async close(): Promise<void> {
    for (const name of [...this.running.keys()].reverse()) await this.stop(name);
    rmSync(this.dir, { recursive: true, force: true });
  }
}
