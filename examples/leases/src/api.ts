/**
 * The API tier: leases over HTTP, with microversions (`X-Leases-API-Version`). It reads the
 * database itself and sends every write to a worker over RPC. Started as
 * `node --import tsx examples/leases/src/api.ts --config-file leases.conf`.
 */
import { randomUUID } from 'node:crypto';
import { openDatabase, registerService } from 'baton/db';
import { parseVersion, ResolvedVersion } from 'baton/microversion';
import { objectFromDbRow } from 'baton/objects';
import { ReleasePin } from 'baton/releases';
import {
  createTransport,
  NoRpcServerError,
  objectRpcSerializer,
  RpcClient,
  RpcConnectionLostError,
  RpcTimeoutError,
} from 'baton/rpc';
import { servicesTablePeers } from 'baton/service';
import Fastify, { type FastifyRequest } from 'fastify';
import { followPool } from './api-versions.ts';
import { readConfig } from './config.ts';
import { Lease, OBJECTS } from './lease.ts';
import {
  API_BINARY,
  CODE,
  MOVE_RPC_VERSION,
  POOL_MICROVERSION,
  RELEASES,
  RPC_BASE,
  WORKER_TOPIC,
} from './releases.ts';
import { type LeasesTables, leasesQueries } from './schema.ts';

const config = readConfig(process.argv);
const db = await openDatabase(config.databaseUrl);
const leases = leasesQueries(db);
const pin = ReleasePin.resolve(RELEASES, config.pin);
const transport = createTransport(config.rpc, { peers: servicesTablePeers(db) });
// Calls are built at 1.0 unless they need more; pinned, the API sends nothing above the
// pinned release's RPC version, and objects at its versions.
const workers = new RpcClient({
  transport,
  topic: WORKER_TOPIC,
  version: RPC_BASE,
  versionCap: pin.rpcVersionCap(CODE.rpc),
  serializer: objectRpcSerializer(OBJECTS, pin),
  timeoutMs: 10_000,
});

// Pinned, the API serves no microversion above the pinned release's; unpinned, none above
// what every API of the pool serves.
const versions = await followPool(db, config.pin);

const app = Fastify();
app.decorateRequest('microversion', null as unknown as ResolvedVersion);
app.addHook('onRequest', async (request, reply) => {
  const negotiator = versions.current();
  const resolved = negotiator.resolve(request.headers);
  const answered = resolved instanceof ResolvedVersion ? resolved : negotiator.defaultVersion;
  request.microversion = answered;
  for (const [name, value] of answered.headers) reply.header(name, value);
  // The health check answers whatever version is asked (the balancer asks none).
  if (!(resolved instanceof ResolvedVersion) && request.url !== '/healthcheck') {
    return reply.code(resolved.status).send(negotiator.errorBody(resolved));
  }
});

// Every error in the API's one format, `{"error": "…"}`: a body that is not JSON is a 400 as
// Fastify says; the worker tier out of reach (none serving, the connection lost, no answer in
// time) a 503, which the client may try again; a failure of the API's own a 500.
const WORKERS_UNAVAILABLE = [NoRpcServerError, RpcConnectionLostError, RpcTimeoutError];
app.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) => {
  const status = WORKERS_UNAVAILABLE.some((kind) => error instanceof kind)
    ? 503
    : error.statusCode !== undefined && error.statusCode < 500
      ? error.statusCode
      : 500;
  return reply.code(status).send({ error: error.message });
});

const POOL = parseVersion(POOL_MICROVERSION);

/** A lease as the API shows it at the request's microversion: its pool from 1.1 on. */
function view(request: FastifyRequest, row: LeasesTables['leases']) {
  const { pool, ...lease } = objectFromDbRow(Lease, row).asDict();
  return request.microversion.atLeast(POOL) ? { ...lease, pool } : lease;
}

let draining = false;
app.get('/healthcheck', async (_request, reply) =>
  draining ? reply.code(503).send('draining') : reply.send('OK'),
);
app.get('/v1', async (request) => ({ version: request.microversion.text }));

app.get('/v1/leases', async (request) => {
  const rows = await leases
    .selectFrom('leases')
    .selectAll()
    .orderBy('id', 'desc')
    .limit(20)
    .execute();
  return { leases: rows.map((row) => view(request, row)) };
});

app.get<{ Params: { uuid: string } }>('/v1/leases/:uuid', async (request, reply) => {
  const row = await leases
    .selectFrom('leases')
    .selectAll()
    .where('uuid', '=', request.params.uuid)
    .executeTakeFirst();
  if (row === undefined) return reply.code(404).send({ error: `no lease ${request.params.uuid}` });
  return view(request, row);
});

app.post('/v1/leases', async (request, reply) => {
  const body = (request.body ?? {}) as Record<string, unknown>;
  const problem = ['resource', 'holder'].find(
    (key) => typeof body[key] !== 'string' || body[key] === '',
  );
  if (problem !== undefined) {
    return reply.code(400).send({ error: `'${problem}' must be a non-empty string` });
  }
  const atPool = request.microversion.atLeast(POOL);
  if (atPool && body.pool !== undefined && (typeof body.pool !== 'string' || body.pool === '')) {
    return reply.code(400).send({ error: "'pool' must be a non-empty string" });
  }
  const lease = Lease.create({
    uuid: randomUUID(),
    resource: body.resource as string,
    holder: body.holder as string,
    pool: atPool && typeof body.pool === 'string' ? body.pool : 'default',
  });
  await workers.call('create_lease', { lease });
  const { pool, ...created } = lease.asDict();
  return reply.code(201).send(atPool ? { ...created, pool } : created);
});

// Microversion 1.1: move a lease to another pool. A pinned API serves no 1.1, and its RPC
// cap (1.0) would refuse `move_lease` before sending it anyway.
app.patch<{ Params: { uuid: string } }>('/v1/leases/:uuid', async (request, reply) => {
  if (!request.microversion.atLeast(POOL)) {
    return reply.code(405).send({ error: `PATCH needs microversion ${POOL_MICROVERSION}` });
  }
  const pool = ((request.body ?? {}) as Record<string, unknown>).pool;
  if (typeof pool !== 'string' || pool === '') {
    return reply.code(400).send({ error: "'pool' must be a non-empty string" });
  }
  if (!workers.canSendVersion(MOVE_RPC_VERSION)) {
    return reply.code(409).send({ error: 'the workers do not all run release 2 yet' });
  }
  const moved = await workers
    .prepare({ version: MOVE_RPC_VERSION })
    .call('move_lease', { uuid: request.params.uuid, pool });
  if (moved !== true) return reply.code(404).send({ error: `no lease ${request.params.uuid}` });
  const row = await leases
    .selectFrom('leases')
    .selectAll()
    .where('uuid', '=', request.params.uuid)
    .executeTakeFirstOrThrow();
  return view(request, row);
});

app.delete<{ Params: { uuid: string } }>('/v1/leases/:uuid', async (request, reply) => {
  const released = await workers.call('release_lease', { uuid: request.params.uuid });
  if (released !== true) return reply.code(404).send({ error: `no lease ${request.params.uuid}` });
  return reply.code(204).send();
});

await app.listen({ host: '127.0.0.1', port: config.apiPort });
const registration = await registerService(db, {
  binary: API_BINARY,
  host: `${config.host}:${config.apiPort}`,
  version: CODE.serviceVersion,
  // The pin goes in the row: the other APIs of the pool read it (api-versions.ts).
  caps: () => ({ pin: config.pin, release: config.pin }),
});
const stopHeartbeats = registration.startHeartbeats();
console.log(`listening on http://127.0.0.1:${config.apiPort}`);

// A stop that fails no request: the health check fails first, so that the balancer sends
// nothing new here, then the port closes after the requests under way are answered.
process.once('SIGTERM', async () => {
  draining = true;
  await new Promise((resolve) => setTimeout(resolve, config.drainWaitSeconds * 1000));
  await app.close();
  stopHeartbeats();
  versions.stop();
  await registration.deregister();
  await transport.close();
  await db.close();
  process.exit(0);
});
