import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { NodeLockedError, NoValidHostError } from '../../../src/baremetal/common/errors.ts';
import { ConductorRings, type LiveConductor } from '../../../src/baremetal/common/hash-ring.ts';
import { BAREMETAL_OBJECTS, Node, type NodeObject } from '../../../src/baremetal/objects/index.ts';
import {
  BAREMETAL_REMOTE_ERRORS,
  CONDUCTOR_RPC,
  CONDUCTOR_TOPIC,
  ConductorApi,
  ConductorRingCache,
  liveConductorsFrom,
} from '../../../src/baremetal/rpcapi/index.ts';
import {
  LocalBus,
  LocalTransport,
  objectRpcSerializer,
  RpcClient,
  RpcServer,
} from '../../../src/rpc/index.ts';

function node(uuid = randomUUID()): NodeObject {
  return Node.create({ uuid, driver: 'fake-hardware', conductor_group: '' });
}

const conductor = (hostname: string): LiveConductor => ({
  hostname,
  conductorGroup: '',
  hardwareTypes: ['fake-hardware'],
});

/** A conductor endpoint that records which host got which call. */
function recordingServer(bus: LocalBus, host: string, seen: string[]) {
  return new RpcServer({
    transport: new LocalTransport(bus),
    topic: CONDUCTOR_TOPIC,
    server: host,
    serializer: objectRpcSerializer(BAREMETAL_OBJECTS),
    endpoints: [
      {
        version: CONDUCTOR_RPC.latest,
        methods: {
          change_node_power_state: {
            params: { node_id: 'required', new_state: 'required', timeout: 'optional' },
            handle: (args) => {
              seen.push(`${host} ${args.node_id} ${args.new_state}`);
            },
          },
          update_node: {
            params: { node: 'required', reset_interfaces: 'optional' },
            handle: (args) => {
              const n = args.node as NodeObject;
              n.set('power_state', 'power on');
              seen.push(`${host} update`);
              return n;
            },
          },
          destroy_node: {
            params: { node_id: 'required' },
            handle: (args) => {
              throw new NodeLockedError(String(args.node_id), host);
            },
          },
        },
      },
    ],
  });
}

function apiOn(bus: LocalBus, live: () => LiveConductor[], cap?: string) {
  const client = new RpcClient({
    transport: new LocalTransport(bus),
    topic: CONDUCTOR_TOPIC,
    version: CONDUCTOR_RPC.latest,
    ...(cap === undefined ? {} : { versionCap: cap }),
    serializer: objectRpcSerializer(BAREMETAL_OBJECTS),
    remoteErrors: BAREMETAL_REMOTE_ERRORS,
  });
  return new ConductorApi({ client, rings: new ConductorRingCache(async () => live()) });
}

describe('ConductorApi', () => {
  it("sends each node's calls to the conductor the ring maps it to", async () => {
    const bus = new LocalBus();
    const seen: string[] = [];
    const servers = ['c1', 'c2', 'c3'].map((h) => recordingServer(bus, h, seen));
    for (const s of servers) await s.start();
    const live = ['c1', 'c2', 'c3'].map(conductor);
    const api = apiOn(bus, () => live);
    const rings = new ConductorRings(live);
    const nodes = Array.from({ length: 12 }, () => node());
    for (const n of nodes) await api.changeNodePowerState(n, 'power on');
    assert.deepEqual(
      seen,
      nodes.map(
        (n) =>
          `${rings.conductorFor({ uuid: n.get('uuid') as string, driver: 'fake-hardware', conductorGroup: '' })} ${n.get('uuid')} power on`,
      ),
    );
    assert.equal(new Set(seen.map((line) => line.split(' ')[0])).size > 1, true);
    for (const s of servers) await s.stop();
  });

  it('returns objects at the latest version and rebuilds remote errors as themselves', async () => {
    const bus = new LocalBus();
    const seen: string[] = [];
    const server = recordingServer(bus, 'c1', seen);
    await server.start();
    const api = apiOn(bus, () => [conductor('c1')]);
    const updated = await api.updateNode(node());
    assert.equal(updated.get('power_state'), 'power on');
    const n = node();
    await assert.rejects(api.destroyNode(n), (error: unknown) => {
      assert.ok(error instanceof NodeLockedError);
      assert.equal(error.host, 'c1');
      assert.equal(error.node, n.get('uuid'));
      return true;
    });
    await server.stop();
  });

  it('rebuilds the rings and retries once on the new conductor when a call is not delivered', async () => {
    const bus = new LocalBus();
    const seen: string[] = [];
    const c2 = recordingServer(bus, 'c2', seen);
    await c2.start();
    // The cached rings still name c1, which has gone; the table now has only c2.
    let live = [conductor('c1')];
    const api = apiOn(bus, () => live);
    await api.rings.rings();
    live = [conductor('c2')];
    const n = node();
    await api.changeNodePowerState(n, 'power off');
    assert.deepEqual(seen, [`c2 ${n.get('uuid')} power off`]);
    await c2.stop();
  });

  it('is NoValidHost when no live conductor has the driver, after rebuilding once', async () => {
    let reads = 0;
    const cache = new ConductorRingCache(async () => {
      reads++;
      return [conductor('c1')];
    });
    const other = Node.create({ uuid: randomUUID(), driver: 'ipmi', conductor_group: '' });
    const api = new ConductorApi({
      client: new RpcClient({
        transport: new LocalTransport(),
        topic: CONDUCTOR_TOPIC,
        version: '1.0',
      }),
      rings: cache,
    });
    await assert.rejects(api.conductorFor(other), (error: unknown) => {
      assert.ok(error instanceof NoValidHostError);
      assert.equal(
        error.message,
        'No valid host was found. Reason: No conductor service registered which supports driver ipmi for conductor group "".',
      );
      return true;
    });
    assert.equal(reads, 2);
  });

  it('keeps the rings for the reset interval, then reads the conductors again', async () => {
    let now = 0;
    let reads = 0;
    const cache = new ConductorRingCache(
      async () => {
        reads++;
        return [conductor('c1')];
      },
      { resetIntervalMs: 15_000, now: () => now },
    );
    const route = { uuid: randomUUID(), driver: 'fake-hardware', conductorGroup: '' };
    assert.equal(await cache.conductorFor(route), 'c1');
    now = 14_999;
    await cache.conductorFor(route);
    assert.equal(reads, 1);
    now = 15_000;
    await cache.conductorFor(route);
    assert.equal(reads, 2);
  });

  it('reads the store map of live hardware types into conductors', () => {
    const map = new Map([
      [':fake-hardware', new Set(['c1', 'c2'])],
      [':ipmi', new Set(['c1'])],
      ['rack1:fake-hardware', new Set(['c3'])],
    ]);
    const byHost = Object.fromEntries(liveConductorsFrom(map).map((c) => [c.hostname, c]));
    assert.deepEqual(byHost.c1, {
      hostname: 'c1',
      conductorGroup: '',
      hardwareTypes: ['fake-hardware', 'ipmi'],
    });
    assert.deepEqual(byHost.c3?.conductorGroup, 'rack1');
  });
});
