/**
 * Conductors as processes, started with `baton baremetal conductor` on one SQLite file, at the
 * same moment (their registration must wait for the file's write lock, not fail), RPC over
 * http. One is killed with SIGKILL in the middle of a deploy (the fake deploy takes 30 s): the
 * other, once the dead one misses `[conductor] heartbeat_timeout`, takes the node over, clears
 * the dead one's reservation and ends the deploy in `deploy failed` with the real last_error,
 * within a few check intervals. The survivor then stops on SIGTERM with exit 0.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  apiStore,
  conductorApi,
  httpTransport,
  newNode,
  openTestDatabase,
  settled,
} from './support/conductor-harness.ts';

const MAIN = fileURLToPath(new URL('../../../src/cli/main.ts', import.meta.url));

interface Conductor {
  readonly child: ChildProcess;
  output: string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function startConductor(config: string): Conductor {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', MAIN, 'baremetal', 'conductor', '--config-file', config],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const conductor: Conductor = {
    child,
    output: '',
    exited: new Promise((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    ),
  };
  child.stdout?.on('data', (chunk) => (conductor.output += chunk));
  child.stderr?.on('data', (chunk) => (conductor.output += chunk));
  return conductor;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('conductor processes: a SIGKILL during a deploy, the takeover', () => {
  let dir: string;
  let url: string;
  const conductors: Conductor[] = [];
  const closers: (() => Promise<unknown>)[] = [];

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'baton-mp-'));
    url = `sqlite:${join(dir, 'bm.sqlite')}`;
  });
  after(async () => {
    for (const c of conductors)
      if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
    await Promise.all(conductors.map((c) => c.exited));
    for (const close of closers.reverse()) await close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('takes a dead conductor’s deploying node over and fails it as the real service does', async () => {
    const configs = ['mp-1', 'mp-2'].map((host) => {
      const path = join(dir, `${host}.conf`);
      writeFileSync(
        path,
        [
          '[DEFAULT]',
          `host = ${host}`,
          'rpc_transport = http',
          'hash_ring_reset_interval = 1',
          'graceful_shutdown_timeout = 5',
          '[database]',
          `connection = ${url}`,
          '[conductor]',
          'heartbeat_interval = 1',
          'heartbeat_timeout = 4',
          'check_provision_state_interval = 1',
          'sync_local_state_interval = 1',
          'automated_clean = false',
          '[fake]',
          'deploy_delay = 30',
          '',
        ].join('\n'),
      );
      return path;
    });
    // Both at once: the SQLite file is created and registered into by two processes together.
    for (const config of configs) conductors.push(startConductor(config));
    const [first, second] = conductors as [Conductor, Conductor];
    await until(
      'both conductors serving',
      async () => {
        for (const c of conductors) {
          if (c.child.exitCode !== null) throw new Error(`a conductor exited:\n${c.output}`);
        }
        return conductors.every((c) => c.output.includes('serving topic')) ? true : undefined;
      },
      60_000,
    );
    const database = await openTestDatabase(url);
    closers.push(() => database.close());
    const transport = await httpTransport(url, 4);
    closers.push(transport.close);
    const store = apiStore(database);
    const api = conductorApi(store, transport.transport, { heartbeatTimeout: 4 });
    let node = await api.createNode(newNode());
    while ((await api.conductorFor(node)) !== 'mp-1') node = await api.createNode(newNode());
    const uuid = String(node.get('uuid'));
    for (const action of ['manage', 'provide']) {
      await api.doProvisioningAction(await store.nodes.get(uuid), action);
      await settled(store, uuid, 20_000);
    }
    await api.doNodeDeploy(await store.nodes.get(uuid));
    const deploying = await store.nodes.get(uuid);
    assert.equal(deploying.get('provision_state'), 'deploying');
    assert.equal(deploying.get('reservation'), 'mp-1');

    first.child.kill('SIGKILL');
    assert.equal((await first.exited).signal, 'SIGKILL');

    // heartbeat_timeout (4 s) for mp-1 to count as dead, then mp-2's next checks.
    const failed = await until(
      'the takeover',
      async () => {
        const now = await store.nodes.get(uuid);
        return now.get('provision_state') === 'deploy failed' && now.get('reservation') === null
          ? now
          : undefined;
      },
      30_000,
    );
    assert.equal(failed.get('last_error'), 'Operation was aborted due to conductor take over');
    assert.equal(failed.get('target_provision_state'), 'active');
    assert.equal(await api.conductorFor(failed), 'mp-2');

    second.child.kill('SIGTERM');
    const end = await second.exited;
    assert.equal(end.code, 0, second.output);
    assert.match(second.output, /baremetal-conductor stopping \(SIGTERM\)/);
    assert.match(second.output, /baremetal-conductor stopped/);
    assert.deepEqual(await store.conductors.active(4), [], 'both gone from the live conductors');
  });
});
