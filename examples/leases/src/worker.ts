/**
 * The worker tier: the only writer of leases. It serves the RPC interface on the topic
 * `leases-worker`; the API tier calls it. Started as
 * `node --import tsx examples/leases/src/worker.ts --config-file leases.conf`.
 */
import { openDatabase } from 'baton/db';
import { convertForDb, type VersionedObject } from 'baton/objects';
import { ReleasePin } from 'baton/releases';
import { createTransport, objectRpcSerializer, type RpcEndpoint, RpcServer } from 'baton/rpc';
import { servicesTablePeers } from 'baton/service';
import { readConfig } from './config.ts';
import { Lease, OBJECTS } from './lease.ts';
import { CODE, RELEASES, WORKER_TOPIC } from './releases.ts';
import { type LeasesTables, leasesQueries } from './schema.ts';

const config = readConfig(process.argv);
const db = await openDatabase(config.databaseUrl);
const leases = leasesQueries(db);
// Pinned, the worker writes rows at the pinned release's Lease version, which every process
// of that release can read.
const pin = ReleasePin.resolve(RELEASES, config.pin);
const rowVersion = pin.objectVersion('Lease', Lease.version);
const transport = createTransport(config.rpc, {
  peers: servicesTablePeers(db, { serviceVersion: CODE.serviceVersion }),
});

type LeaseObject = VersionedObject<typeof Lease.fields>;

/** The RPC interface, version 1.0. A later release adds methods in a 1.x endpoint. */
const v1: RpcEndpoint = {
  version: CODE.rpc,
  methods: {
    create_lease: {
      params: { lease: 'required' },
      async handle({ lease }) {
        const row = convertForDb(lease as LeaseObject, rowVersion).asDict();
        await leases
          .insertInto('leases')
          .values({ ...row, version: rowVersion } as LeasesTables['leases'])
          .execute();
        return lease;
      },
    },
    release_lease: {
      params: { uuid: 'required' },
      async handle({ uuid }) {
        const result = await leases
          .deleteFrom('leases')
          .where('uuid', '=', String(uuid))
          .executeTakeFirst();
        return Number(result.numDeletedRows) > 0;
      },
    },
  },
};

const server = new RpcServer({
  transport,
  topic: WORKER_TOPIC,
  server: config.host,
  endpoints: [v1],
  serializer: objectRpcSerializer(OBJECTS, pin),
});
await server.start();
console.log(
  `serving topic ${WORKER_TOPIC} as ${config.host} (${pin.pinned ? `pinned to ${config.pin}` : 'unpinned'})`,
);

// A clean stop: the requests under way are answered, the services-table row goes.
process.once('SIGTERM', async () => {
  await server.stop();
  await transport.close();
  await db.close();
  process.exit(0);
});
