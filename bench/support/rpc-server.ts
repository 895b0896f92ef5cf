/**
 * The conductor side of `npm run bench:rpc`, in its own process: an RPC
 * server on the given transport whose `update_node` takes a Node and returns
 * it with one field changed. Says 'ready' to its parent once listening and
 * stops when told.
 */
import { openDatabase } from '../../src/db/index.ts';
import { ObjectRegistry } from '../../src/objects/index.ts';
import {
  createTransport,
  objectRpcSerializer,
  RpcServer,
  type RpcSettings,
  readRpcConfig,
} from '../../src/rpc/index.ts';
import { servicesTablePeers } from '../../src/service/index.ts';
import { IRONIC_NAMESPACE, Node } from '../../test/objects/support/ironic-family.ts';

const [kind, url, topic, dbUrl] = process.argv.slice(2);
if (kind === undefined || url === undefined || topic === undefined)
  throw new Error('usage: rpc-server <http|amqp> <transport url> <topic> [db url]');

const db = dbUrl === undefined ? undefined : await openDatabase(dbUrl);
const settings: RpcSettings = {
  rpc_transport: kind,
  rpc_transport_url: url,
  rpc_exchange: process.env.BATON_BENCH_EXCHANGE ?? 'baton_bench',
};
const transport = createTransport(
  readRpcConfig(settings),
  db === undefined ? {} : { peers: servicesTablePeers(db) },
);
const server = new RpcServer({
  transport,
  topic,
  server: 'bench-conductor',
  endpoints: [
    {
      version: '1.2',
      methods: {
        update_node: {
          params: { node: 'required', reason: 'optional' },
          handle: (args) => {
            const node = args.node as ReturnType<typeof Node.create>;
            node.assign('power_state', 'power on');
            return node;
          },
        },
      },
    },
  ],
  serializer: objectRpcSerializer(new ObjectRegistry(IRONIC_NAMESPACE, [Node])),
});
await server.start();
process.send?.('ready');
process.on('message', async (message) => {
  if (message !== 'stop') return;
  await server.stop();
  await transport.close();
  await db?.close();
  process.exit(0);
});
