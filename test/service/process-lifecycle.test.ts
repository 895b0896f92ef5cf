/**
 * Identity before effect, with real processes (src/service/process-lifecycle.ts):
 * - a second conductor started with the config of one that is deploying a node exits 1 naming
 *   it, and changes nothing: the node stays reserved by the first, whose deploy ends `active`
 *   with no error (it used to clear that reservation on its way to EADDRINUSE);
 * - the rolling upgrade's own step, "SIGTERM the old conductor, start the new one", works as
 *   written: the new one waits for its predecessor of the same host to leave, saying so, then
 *   serves;
 * - a conductor whose hardware registrations are gone says it is unhealthy on /healthcheck and
 *   in its services row.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { listServices } from '../../src/db/index.ts';
import { freePort } from '../../src/rehearsal/free-port.ts';
import {
  type RunningProcess,
  runBaton,
  startBaton,
  stopProcess,
} from '../../src/rehearsal/processes.ts';
import {
  apiStore,
  conductorApi,
  httpTransport,
  newNode,
  openTestDatabase,
  settled,
} from '../baremetal/conductor/support/conductor-harness.ts';

const ROOT = join(import.meta.dirname, '../..');

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('a process claims its identity before it writes anything', () => {
  let dir: string;
  let url: string;
  const running: RunningProcess[] = [];
  const closers: (() => Promise<unknown>)[] = [];
  const config = (host: string, extra: string[] = [], ringReset = 2) => {
    const path = join(dir, `${host}.conf`);
    writeFileSync(
      path,
      [
        '[DEFAULT]',
        `host = ${host}`,
        'rpc_transport = http',
        `hash_ring_reset_interval = ${ringReset}`,
        'graceful_shutdown_timeout = 10',
        '[database]',
        `connection = ${url}`,
        '[conductor]',
        'heartbeat_interval = 1',
        'heartbeat_timeout = 6',
        'automated_clean = false',
        ...extra,
        '',
      ].join('\n'),
    );
    return path;
  };
  const start = async (name: string, path: string, metricsPort?: number) => {
    const process = await startBaton(
      name,
      ROOT,
      [
        'baremetal',
        'conductor',
        '--config-file',
        path,
        ...(metricsPort === undefined ? [] : ['--metrics-port', String(metricsPort)]),
      ],
      { ready: /serving topic/, logDir: dir },
    );
    running.push(process);
    return process;
  };

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'baton-identity-'));
    url = `sqlite:${join(dir, 'bm.sqlite')}`;
  });
  after(async () => {
    for (const process of running) await stopProcess(process, 20_000);
    for (const close of closers.reverse()) await close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a second conductor of the same host exits 1 naming the first, which deploys on unharmed', async () => {
    const path = config('same-host', ['[fake]', 'deploy_delay = 6']);
    const first = await start('first', path);
    const database = await openTestDatabase(url);
    closers.push(() => database.close());
    const transport = await httpTransport(url, 6);
    closers.push(transport.close);
    const store = apiStore(database);
    const api = conductorApi(store, transport.transport, { heartbeatTimeout: 6 });
    const uuid = String((await api.createNode(newNode())).get('uuid'));
    for (const action of ['manage', 'provide']) {
      await api.doProvisioningAction(await store.nodes.get(uuid), action);
      await settled(store, uuid, 20_000);
    }
    await api.doNodeDeploy(await store.nodes.get(uuid));
    assert.equal((await store.nodes.get(uuid)).get('reservation'), 'same-host');

    const second = await runBaton(ROOT, ['baremetal', 'conductor', '--config-file', path]);
    assert.equal(second.status, 1, second.output);
    assert.match(
      second.output,
      /baremetal-conductor same-host is already running: pid \d+, on \S+, since \S+, last seen \S+\. Stop it first, or give this process another \[DEFAULT\] host\./,
    );
    assert.doesNotMatch(second.output, /\n\s+at /, 'no stack trace');
    // Nothing changed: the node is still the first one's, its deploy ends well.
    assert.equal((await store.nodes.get(uuid)).get('reservation'), 'same-host');
    const done = await settled(store, uuid, 30_000);
    assert.equal(done.get('provision_state'), 'active');
    assert.equal(done.get('last_error'), null);
    const rows = (await listServices(database as never)).filter(
      (row) => row.binary === 'baremetal-conductor',
    );
    assert.deepEqual(
      rows.map((row) => [row.host, row.state, row.pid]),
      [['same-host', 'serving', first.child.pid]],
    );
  });

  it('SIGTERM to the old conductor then the new one started at once: it waits for the old to leave', async () => {
    // Another conductor alive makes the old one keep serving its ring for a grace period.
    await start('other', config('other-host'));
    // Its grace (the ring's reset interval, 10 s) outlasts the successor's start.
    const path = config('restarted', [], 10);
    const old = await start('old', path);
    old.child.kill('SIGTERM');
    const successor = await start('successor', path);
    assert.match(
      successor.output(),
      /baremetal-conductor restarted is stopping \(pid \d+ on \S+\): waiting up to \d+ s for it to leave before starting/,
    );
    assert.equal(await old.exited, 0, old.output());
    assert.match(successor.output(), /serving topic/);
  });

  it('a conductor with no hardware registered says it is unhealthy, on /healthcheck and in its row', async () => {
    const metricsPort = await freePort();
    await start('lost', config('lost-hardware'), metricsPort);
    const database = await openTestDatabase(url);
    closers.push(() => database.close());
    const store = apiStore(database);
    const conductor = await store.conductors.get('lost-hardware');
    assert.equal(
      (await fetch(`http://127.0.0.1:${metricsPort}/healthcheck`)).status,
      200,
      'healthy at first',
    );
    // Another process removed its driver registrations (what a second `baton up` used to do).
    await store.conductors.unregisterHardwareInterfaces(Number(conductor.get('id')));
    const answer = await until(
      'the health check to say so',
      async () => {
        const response = await fetch(`http://127.0.0.1:${metricsPort}/healthcheck`);
        return response.status === 503 ? response.text() : undefined;
      },
      10_000,
    );
    assert.equal(answer, 'no hardware interfaces registered: it cannot act on nodes');
    const row = (await listServices(database as never)).find((r) => r.host === 'lost-hardware');
    assert.equal(row?.health, 'no hardware interfaces registered: it cannot act on nodes');
  });
});
