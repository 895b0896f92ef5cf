/**
 * The hand-over issue 14's rolling upgrade relies on: two conductors serve while the API keeps
 * calling them; each is stopped (SIGTERM's sequence) and started again in turn, and not one
 * call fails. Over http (peers in the services table) and over RabbitMQ (where a call sent to
 * a conductor that stopped listening would wait in its queue: the grace after going offline
 * is what prevents it).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { connect } from 'amqplib';
import type { ConductorSettings } from '../../../src/baremetal/conductor/conductor-settings.ts';
import { CONDUCTOR_TOPIC } from '../../../src/baremetal/rpcapi/index.ts';
import { AmqpTransport, type RpcTransport } from '../../../src/rpc/index.ts';
import { AMQP_URL, brokerAvailable } from '../../rpc/support/transports.ts';
import {
  apiStore,
  conductorApi,
  httpTransport,
  newNode,
  openTestDatabase,
  settled,
  startTestConductor,
  type TestConductor,
} from './support/conductor-harness.ts';

const SETTINGS: Partial<ConductorSettings> = {
  heartbeatInterval: 1,
  heartbeatTimeout: 10,
  hashRingResetInterval: 1,
  automatedClean: false,
  nodeLockedRetryAttempts: 3,
  nodeLockedRetryInterval: 0.2,
};

type TransportFactory = () => Promise<{ transport: RpcTransport; close(): Promise<unknown> }>;

async function rollThrough(url: string, hosts: readonly string[], makeTransport: TransportFactory) {
  const closers: (() => Promise<unknown>)[] = [];
  try {
    const start = async (host: string) => {
      const t = await makeTransport();
      const conductor = await startTestConductor({
        url,
        host,
        transport: t.transport,
        settings: SETTINGS,
      });
      return { conductor, close: t.close };
    };
    const running = new Map<string, { conductor: TestConductor; close(): Promise<unknown> }>();
    for (const host of hosts) running.set(host, await start(host));
    const database = await openTestDatabase(url);
    closers.push(() => database.close());
    const apiTransport = await makeTransport();
    closers.push(apiTransport.close);
    const store = apiStore(database);
    // The API's rings are cached for the conductors' hash_ring_reset_interval.
    const api = conductorApi(store, apiTransport.transport, {
      heartbeatTimeout: 10,
      ringResetIntervalMs: 1000,
    });
    const nodes = [];
    for (let i = 0; i < 8; i++) {
      const node = await api.createNode(newNode());
      await api.doProvisioningAction(node, 'manage');
      nodes.push(node);
    }
    for (const node of nodes) await settled(store, String(node.get('uuid')));

    let calls = 0;
    const failures: string[] = [];
    let loading = true;
    const load = (async () => {
      while (loading) {
        for (const node of nodes) {
          if (!loading) break;
          try {
            const fresh = await store.nodes.get(String(node.get('uuid')));
            await api.validateDriverInterfaces(fresh);
            await api.changeNodePowerState(fresh, calls % 2 === 0 ? 'power on' : 'power off');
            await settled(store, String(node.get('uuid')));
            calls += 2;
          } catch (error) {
            failures.push(`${(error as Error).name}: ${(error as Error).message}`);
          }
        }
      }
    })();
    for (const host of hosts) {
      const current = running.get(host);
      assert.ok(current);
      assert.equal(await current.conductor.stop(), true);
      await current.close();
      running.set(host, await start(host));
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    loading = false;
    await load;
    for (const { conductor, close } of running.values()) {
      await conductor.stop();
      await close();
    }
    return { calls, failures };
  } finally {
    for (const close of closers.reverse()) await close();
  }
}

describe('conductors restarted one at a time under load', () => {
  const dirs: string[] = [];
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('over http: no call fails', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'baton-roll-'));
    dirs.push(dir);
    const url = `sqlite:${join(dir, 'bm.sqlite')}`;
    const { calls, failures } = await rollThrough(url, ['roll-1', 'roll-2'], () =>
      httpTransport(url, 10),
    );
    assert.deepEqual(failures, []);
    assert.ok(calls > 20, `only ${calls} calls were made`);
  });

  it('over RabbitMQ: no call fails', async (t) => {
    const unavailable = await brokerAvailable();
    if (unavailable !== undefined) {
      t.skip(unavailable);
      return;
    }
    const dir = mkdtempSync(join(tmpdir(), 'baton-roll-'));
    dirs.push(dir);
    const url = `sqlite:${join(dir, 'bm.sqlite')}`;
    const run = randomBytes(4).toString('hex');
    const exchange = `baton_roll_${run}`;
    const hosts = [`roll-${run}-1`, `roll-${run}-2`];
    try {
      const { calls, failures } = await rollThrough(url, hosts, async () => {
        const transport = new AmqpTransport({ url: AMQP_URL, exchange });
        return { transport, close: () => transport.close() };
      });
      assert.deepEqual(failures, []);
      assert.ok(calls > 20, `only ${calls} calls were made`);
    } finally {
      const model = await connect(AMQP_URL);
      try {
        const channel = await model.createChannel();
        for (const host of hosts) await channel.deleteQueue(`${CONDUCTOR_TOPIC}.${host}`);
        await channel.deleteExchange(exchange);
        await channel.close();
      } finally {
        await model.close();
      }
    }
  });
});
