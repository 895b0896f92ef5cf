/**
 * A worker of the leases example stopped (SIGTERM) while the API sends it calls, as an upgrade
 * replaces workers one at a time: another worker serves, and no request fails. The APIs find
 * workers in the services table and reuse what they read for a second, so a stopping worker
 * must go from the table first and keep serving until every API has read it again.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { freePort } from '../../../src/rehearsal/free-port.ts';
import {
  type RunningProcess,
  startNodeProcess,
  stopProcess,
} from '../../../src/rehearsal/processes.ts';

const ROOT = join(import.meta.dirname, '../../..');
const SRC = join(ROOT, 'examples/leases/src');
const run = promisify(execFile);

describe('a leases worker stopped under load', { timeout: 120_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'leases-worker-stop-'));
  const database = `sqlite:${join(dir, 'leases.sqlite')}`;
  const running = new Map<string, RunningProcess>();
  let port = 0;

  async function start(name: string, script: string, lines: string[]): Promise<void> {
    const file = join(dir, `${name}.conf`);
    writeFileSync(file, `${[...lines, '[database]', `connection = ${database}`].join('\n')}\n`);
    const started = await startNodeProcess(
      name,
      ['--import', 'tsx', join(SRC, script), '--config-file', file],
      { ready: script === 'api.ts' ? /listening on/ : /serving topic/, logDir: dir, cwd: ROOT },
    );
    running.set(name, started);
  }

  before(async () => {
    // The example imports the built package: build it when the sources changed.
    await run(process.execPath, [join(ROOT, 'bin/build.mjs')], { cwd: ROOT });
    await run(
      process.execPath,
      ['--import', 'tsx', join(SRC, 'manage.ts'), 'db-upgrade', '--db', database],
      { cwd: ROOT },
    );
    port = await freePort();
    await start('worker-1', 'worker.ts', ['[DEFAULT]', 'host = worker-1']);
    await start('worker-2', 'worker.ts', ['[DEFAULT]', 'host = worker-2']);
    await start('api', 'api.ts', ['[DEFAULT]', 'host = api-1', '[api]', `port = ${port}`]);
  });
  after(async () => {
    for (const process of running.values()) await stopProcess(process, 10_000);
    rmSync(dir, { recursive: true, force: true });
  });

  it('loses no request while each worker in turn stops and comes back', async () => {
    const failures: string[] = [];
    let created = 0;
    let stop = false;
    const client = async (n: number) => {
      for (let i = 0; !stop; i++) {
        const response = await fetch(`http://127.0.0.1:${port}/v1/leases`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ resource: `r-${n}-${i}`, holder: 'load' }),
        });
        const body = await response.text();
        if (response.status === 201) created += 1;
        else failures.push(`${response.status} ${body}`);
      }
    };
    const clients = Array.from({ length: 6 }, (_, n) => client(n));
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const stoppedIn: number[] = [];
    try {
      for (const name of ['worker-1', 'worker-2', 'worker-1', 'worker-2']) {
        await sleep(500);
        const worker = running.get(name);
        assert.ok(worker);
        const at = Date.now();
        const code = await stopProcess(worker, 10_000);
        stoppedIn.push(Date.now() - at);
        running.delete(name);
        assert.equal(code, 0, `${name} exits 0 on SIGTERM`);
        await sleep(300);
        await start(name, 'worker.ts', ['[DEFAULT]', `host = ${name}`]);
      }
      await sleep(500);
    } finally {
      stop = true;
      await Promise.all(clients);
    }
    console.log(`${created} leases created, ${failures.length} failed; stops took ${stoppedIn} ms`);
    assert.ok(created > 100, `the load ran (${created})`);
    assert.deepEqual(failures, []);
  });
});
