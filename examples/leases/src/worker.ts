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

/**
 * The RPC interface, version 1.1: release 2 added `move_lease`. One endpoint serves every 1.x
 * request up to its version, so a pinned API's 1.0 calls land here too.
 */
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
    // RPC 1.1. A worker of release 1 has no such method: the API calls it only unpinned,
    // that is once every worker runs release 2.
    move_lease: {
      params: { uuid: 'required', pool: 'required' },
      async handle({ uuid, pool }) {
        const result = await leases
          .updateTable('leases')
          .set({ pool: String(pool), version: '1.1' })
          .where('uuid', '=', String(uuid))
          .executeTakeFirst();
        return Number(result.numUpdatedRows) > 0;
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
