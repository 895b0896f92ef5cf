/**
 * The two tiers over RabbitMQ (the amqp transport, oslo.messaging's shape), on an exchange of
 * this run's own: nodes provisioned through their conductors, NodeLocked back across the
 * broker as itself, and a conductor stopped cleanly while another serves, its nodes then
 * answered by the other. Host names carry the run's id, so the per-server queues are this
 * run's alone; they and the exchange are deleted afterwards. An unreachable broker skips the
 * suite with the reason, except under CI=true, where it fails.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { connect } from 'amqplib';
import { NodeLockedError } from '../../../src/baremetal/common/errors.ts';
import { FAKE_NO_DELAYS } from '../../../src/baremetal/conductor/conductor-settings.ts';
import { CONDUCTOR_TOPIC } from '../../../src/baremetal/rpcapi/index.ts';
import { AmqpTransport, type RpcTransport } from '../../../src/rpc/index.ts';
import { AMQP_URL, brokerAvailable } from '../../rpc/support/transports.ts';
import {
  apiStore,
  conductorApi,
  newNode,
  openTestDatabase,
  settled,
  startTestConductor,
  type TestConductor,
} from './support/conductor-harness.ts';

const unavailable = await brokerAvailable();

describe('conductors over RabbitMQ', { skip: unavailable }, () => {
  const run = randomBytes(4).toString('hex');
  const exchange = `baton_bm_${run}`;
  const hosts = [`amqp-${run}-1`, `amqp-${run}-2`];
  const transports: RpcTransport[] = [];
  const transport = () => {
    const made = new AmqpTransport({ url: AMQP_URL, exchange });
    transports.push(made);
    return made;
  };
  let dir: string;
  const conductors: TestConductor[] = [];
  let database: Awaited<ReturnType<typeof openTestDatabase>>;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'baton-amqp-'));
    const url = `sqlite:${join(dir, 'bm.sqlite')}`;
    const settings = {
      automatedClean: false,
      hashRingResetInterval: 1,
      fakeDelays: { ...FAKE_NO_DELAYS, deploy: [0.5, 0.5] as const },
    };
    for (const host of hosts) {
      conductors.push(await startTestConductor({ url, host, transport: transport(), settings }));
    }
    database = await openTestDatabase(url);
  });

  after(async () => {
    for (const conductor of conductors) await conductor.stop();
    await database?.close();
    await Promise.all(transports.map((t) => t.close()));
    const model = await connect(AMQP_URL);
    try {
      const channel = await model.createChannel();
      for (const host of hosts) await channel.deleteQueue(`${CONDUCTOR_TOPIC}.${host}`);
      await channel.deleteExchange(exchange);
      await channel.close();
    } finally {
      await model.close();
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('provisions nodes through their conductors and brings NodeLocked back as itself', async () => {
    const store = apiStore(database);
    const api = conductorApi(store, transport());
    const nodes = [];
    for (let i = 0; i < 6; i++) nodes.push(await api.createNode(newNode()));
    const mapped = new Set(await Promise.all(nodes.map((n) => api.conductorFor(n))));
    assert.equal(mapped.size, 2, 'both conductors have nodes');
    for (const action of ['manage', 'provide']) {
      for (const n of nodes)
        await api.doProvisioningAction(await store.nodes.get(String(n.get('uuid'))), action);
      for (const n of nodes) await settled(store, String(n.get('uuid')));
    }
    const first = await store.nodes.get(String(nodes[0]?.get('uuid')));
    await api.doNodeDeploy(first);
    await assert.rejects(api.doNodeTearDown(first), (error: unknown) => {
      assert.ok(error instanceof NodeLockedError);
      assert.match(
        error.message,
        /^Node .* is locked by host amqp-.*, please retry after the current operation is completed\.$/,
      );
      return true;
    });
    for (const n of nodes.slice(1))
      await api.doNodeDeploy(await store.nodes.get(String(n.get('uuid'))));
    for (const n of nodes) {
      assert.equal((await settled(store, String(n.get('uuid')))).get('provision_state'), 'active');
    }

    // One conductor stops cleanly; its nodes are answered by the other.
    const [, second] = conductors as [TestConductor, TestConductor];
    assert.equal(await second.stop(), true);
    for (const n of nodes) {
      const node = await store.nodes.get(String(n.get('uuid')));
      assert.equal(await api.conductorFor(node), hosts[0]);
      await api.changeNodePowerState(node, 'power off');
      assert.equal((await settled(store, String(n.get('uuid')))).get('power_state'), 'power off');
    }
  });
});
