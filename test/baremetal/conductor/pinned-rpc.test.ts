/**
 * A conductor of antelope pinned to zed answers over RPC with objects at zed's versions (the
 * fields antelope added removed), whatever version it was sent, and writes its rows at zed's
 * versions; unpinned, it answers at antelope's. The answers are read raw, as a zed API would
 * receive them.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BAREMETAL_OBJECTS, Node, Port } from '../../../src/baremetal/objects/index.ts';
import { CONDUCTOR_RPC, CONDUCTOR_TOPIC } from '../../../src/baremetal/rpcapi/index.ts';
import type { CapsInForce } from '../../../src/releases/index.ts';
import {
  LocalTransport,
  objectRpcSerializer,
  RpcClient,
  type RpcSerializer,
} from '../../../src/rpc/index.ts';
import { pinnedCaps, startBatonApi, unpinnedCaps } from '../api/support/baton-api.ts';

type Primitive = Record<string, unknown> & { 'ironic_object.data': Record<string, unknown> };

/** Sends objects as an unpinned antelope API does; keeps answers as primitives. */
const rawAnswers: RpcSerializer = {
  serializeEntity: (entity) => objectRpcSerializer(BAREMETAL_OBJECTS).serializeEntity(entity),
  deserializeEntity: (entity) => entity,
};

async function exchange(caps: CapsInForce) {
  const baton = await startBatonApi({ caps });
  try {
    const client = new RpcClient({
      transport: new LocalTransport(baton.bus),
      topic: CONDUCTOR_TOPIC,
      version: CONDUCTOR_RPC.latest,
      serializer: rawAnswers,
    }).prepare({ server: '127.0.0.1', version: '1.0' });
    const node = (await client.call('create_node', {
      node: Node.create({ driver: 'fake-hardware', name: 'sharded', shard: 'alpha' }),
    })) as Primitive;
    const nodeRow = await baton.db.kysely
      .selectFrom('nodes')
      .select(['version', 'shard'])
      .where('name', '=', 'sharded')
      .executeTakeFirstOrThrow();
    const nodeId = Number(node['ironic_object.data'].id);
    const port = (await client.call('create_port', {
      port_obj: Port.create({ node_id: nodeId, address: '52:54:00:00:04:a1', pxe_enabled: true }),
    })) as Primitive;
    const portRow = await baton.db.kysely
      .selectFrom('ports')
      .select('version')
      .where('node_id', '=', nodeId)
      .executeTakeFirstOrThrow();
    return { node, nodeRow, port, portRow };
  } finally {
    await baton.close();
  }
}

describe('objects over RPC from a conductor pinned to zed', () => {
  it("are at zed's versions without antelope's fields; its rows too", async () => {
    const { node, nodeRow, port, portRow } = await exchange(pinnedCaps('zed'));
    assert.equal(node['ironic_object.version'], '1.36');
    assert.equal('shard' in node['ironic_object.data'], false);
    assert.equal(node['ironic_object.data'].name, 'sharded');
    assert.deepEqual(nodeRow, { version: '1.36', shard: null });
    assert.equal(port['ironic_object.version'], '1.10');
    assert.equal('node_uuid' in port['ironic_object.data'], false);
    assert.equal(portRow.version, '1.10');
  });

  it("are at antelope's versions once unpinned, with the fields", async () => {
    const { node, nodeRow, port, portRow } = await exchange(unpinnedCaps());
    assert.equal(node['ironic_object.version'], '1.37');
    assert.equal(node['ironic_object.data'].shard, 'alpha');
    assert.deepEqual(nodeRow, { version: '1.37', shard: 'alpha' });
    assert.equal(port['ironic_object.version'], '1.11');
    assert.equal(port['ironic_object.data'].node_uuid, node['ironic_object.data'].uuid);
    assert.equal(portRow.version, '1.11');
  });
});
