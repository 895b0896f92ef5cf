/**
 * The RPC rules of issue 6, on every transport: version caps, the tolerant
 * server, objects crossing at the pinned version and arriving at the latest,
 * typed errors, timeouts, addressing one server or all of them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ObjectRegistry, type VersionedObject } from '../../src/objects/index.ts';
import { ReleasePin } from '../../src/releases/index.ts';
import {
  InvalidArgumentsError,
  NoRpcServerError,
  objectRpcSerializer,
  RemoteError,
  RpcClient,
  RpcServer,
  RpcTimeoutError,
  RpcVersionCapError,
  UnknownMethodError,
  UnsupportedVersionError,
} from '../../src/rpc/index.ts';
import { IRONIC_NAMESPACE, Node, NodeList, OldNode } from '../objects/support/ironic-family.ts';
import {
  CONDUCTOR_ERRORS,
  CONDUCTOR_RELEASES,
  CONDUCTOR_RPC,
  ConductorApi,
  conductorEndpoint,
  NodeLockedError,
  type Seen,
} from './support/conductor-family.ts';
import { forEachTransport, type TransportContext } from './support/transports.ts';

type Release = 'old' | 'new';
const registryOf = (release: Release) =>
  new ObjectRegistry(IRONIC_NAMESPACE, release === 'old' ? [OldNode] : [Node, NodeList]);
const UUID = '1be26c0b-03f2-4d2e-ae87-c02d7f33c123';

async function startConductor(
  ctx: TransportContext,
  topic: string,
  options: { release: Release; server: string; pin?: string },
) {
  const seen: Seen[] = [];
  const pin = ReleasePin.resolve(CONDUCTOR_RELEASES, options.pin);
  const rpcServer = new RpcServer({
    transport: ctx.transport(),
    topic,
    server: options.server,
    endpoints: [conductorEndpoint(options.release === 'old' ? '1.1' : '1.2', seen, options.server)],
    serializer: objectRpcSerializer(registryOf(options.release), pin),
  });
  await rpcServer.start();
  return { seen, rpcServer };
}

/** An API tier's client: old code speaks 1.1 uncapped; new code speaks 1.2, capped by its pin. */
function apiClient(
  ctx: TransportContext,
  topic: string,
  options: { release: Release; pin?: string; timeoutMs?: number },
): RpcClient {
  const pin = ReleasePin.resolve(CONDUCTOR_RELEASES, options.pin);
  const latest = options.release === 'old' ? '1.1' : CONDUCTOR_RPC.latest;
  return new RpcClient({
    transport: ctx.transport(),
    topic,
    version: latest,
    ...(pin.pinned ? { versionCap: pin.rpcVersionCap(latest) } : {}),
    serializer: objectRpcSerializer(registryOf(options.release), pin),
    remoteErrors: CONDUCTOR_ERRORS,
    timeoutMs: options.timeoutMs ?? 5000,
  });
}

const newNode = () =>
  Node.create({ id: 1, uuid: UUID, driver: 'ipmi', maintenance: false, meta: { rack: 'r1' } });
const oldNode = () =>
  OldNode.create({ id: 1, uuid: UUID, driver: 'ipmi', maintenance: false, extra: { rack: 'r1' } });

const changed = (obj: VersionedObject) => [...obj.changedFields()].sort();

forEachTransport('rpc', (ctx) => {
  test('a call returns the result; a cast runs on the server', async () => {
    const topic = ctx.topic();
    const { seen } = await startConductor(ctx, topic, { release: 'new', server: 'cond-1' });
    const client = apiClient(ctx, topic, { release: 'new' });
    assert.equal(await client.call('whoami'), 'cond-1');
    await client.cast('touch', { node_id: 7 });
    await waitFor(() => seen.some((s) => s.method === 'touch'));
    assert.deepEqual(seen.find((s) => s.method === 'touch')?.args, { node_id: 7 });
  });

  test('a newer client pinned to the old release talks to an old server: 1.1 requests, Node 1.14', async () => {
    const topic = ctx.topic();
    const { seen } = await startConductor(ctx, topic, { release: 'old', server: 'old-cond' });
    const api = new ConductorApi(apiClient(ctx, topic, { release: 'new', pin: 'old' }));
    assert.equal(api.client.versionCap, '1.1');
    const node = newNode().resetChanges();
    node.set('meta', { rack: 'r2' });

    const result = (await api.updateNode(node, 'maintenance window')) as VersionedObject;

    const got = seen.find((s) => s.method === 'update_node');
    assert.equal(got?.version, '1.1');
    assert.equal(got?.args.reason, 'maintenance window');
    // The old server read a Node 1.14: meta went into extra, and extra is marked changed.
    const received = got?.args.node as VersionedObject;
    assert.equal(received.type, OldNode);
    assert.equal(received.version, '1.14');
    assert.deepEqual(received.get('extra'), { rack: 'r2' });
    assert.deepEqual(got?.changes.node, ['extra']);
    // Its 1.14 answer arrives at 1.15: extra back into meta, with both marked changed.
    assert.equal(result.type, Node);
    assert.equal(result.version, '1.15');
    assert.deepEqual(result.get('meta'), { rack: 'r2' });
    assert.deepEqual(result.get('extra'), {}); // a nullable FlexibleDict's null, as in Ironic
    assert.deepEqual(changed(result), ['extra', 'meta', 'power_state']);
    assert.equal(result.get('power_state'), 'power on');
  });

  test('a capped client sends nothing above its cap', async () => {
    const topic = ctx.topic();
    const { seen } = await startConductor(ctx, topic, { release: 'new', server: 'new-cond' });
    const api = new ConductorApi(apiClient(ctx, topic, { release: 'new', pin: 'old' }));
    assert.equal(api.client.canSendVersion(CONDUCTOR_RPC.named.updateReason), true);
    assert.equal(api.client.canSendVersion(CONDUCTOR_RPC.named.setMeta), false);
    assert.throws(() => api.setMeta(newNode(), { a: 1 }), /unpin to use it/);
    await assert.rejects(
      api.client.prepare({ version: '1.2' }).call('set_meta', { node: newNode(), meta: {} }),
      (error: unknown) =>
        error instanceof RpcVersionCapError && error.version === '1.2' && error.cap === '1.1',
    );
    await assert.rejects(
      api.client.prepare({ version: '1.2' }).cast('touch', { node_id: 1 }),
      RpcVersionCapError,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(seen, []);
  });

  test('a cap given as a function is read at each send, so caps refreshed live apply at once', async () => {
    const topic = ctx.topic();
    await startConductor(ctx, topic, { release: 'new', server: 'new-cond' });
    let cap: string | undefined = '1.1';
    const client = new RpcClient({
      transport: ctx.transport(),
      topic,
      version: '1.2',
      versionCap: () => cap,
      timeoutMs: 5000,
    });
    const prepared = client.prepare({ timeoutMs: 4000 });
    assert.equal(client.canSendVersion('1.2'), false);
    await assert.rejects(prepared.call('whoami'), RpcVersionCapError);
    cap = '1.2';
    assert.equal(client.versionCap, '1.2');
    assert.equal(await prepared.call('whoami'), 'new-cond', 'a prepared copy follows too');
    cap = undefined;
    assert.equal(client.canSendVersion('1.2'), true);
    cap = 'one';
    assert.throws(() => client.canSendVersion('1.2'), /RPC version cap/);
  });

  test('a capped client talking to a newer server: 1.1 accepted, objects at 1.14 upgraded on arrival', async () => {
    const topic = ctx.topic();
    const { seen } = await startConductor(ctx, topic, {
      release: 'new',
      server: 'new-cond',
      pin: 'old',
    });
    const api = new ConductorApi(apiClient(ctx, topic, { release: 'new', pin: 'old' }));
    const result = (await api.updateNode(newNode().resetChanges())) as VersionedObject;
    const got = seen.find((s) => s.method === 'update_node');
    assert.equal(got?.version, '1.1');
    const received = got?.args.node as VersionedObject;
    assert.equal(received.type, Node);
    assert.equal(received.version, '1.15');
    assert.deepEqual(received.get('meta'), { rack: 'r1' });
    assert.deepEqual(got?.changes.node, ['extra', 'meta']);
    // The pinned server answered at 1.14; the client holds 1.15 again.
    assert.equal(result.version, '1.15');
    assert.deepEqual(result.get('meta'), { rack: 'r1' });
  });

  test('an old client calls a new server: older minor accepted, Node 1.14 arrives as 1.15 with the changes', async () => {
    const topic = ctx.topic();
    const { seen } = await startConductor(ctx, topic, {
      release: 'new',
      server: 'new-cond',
      pin: 'old',
    });
    const client = apiClient(ctx, topic, { release: 'old' });
    const node = oldNode().resetChanges();
    node.set('extra', { rack: 'r9' });
    const result = (await client
      .prepare({ version: '1.0' })
      .call('update_node', { node })) as VersionedObject;
    const got = seen.find((s) => s.method === 'update_node');
    assert.equal(got?.version, '1.0');
    assert.equal(got?.args.reason, undefined);
    const received = got?.args.node as VersionedObject;
    assert.equal(received.version, '1.15');
    assert.deepEqual(received.get('meta'), { rack: 'r9' });
    assert.deepEqual(received.get('extra'), {});
    assert.deepEqual(got?.changes.node, ['extra', 'meta']);
    // Pinned to the old release, the new server answers in a version the old client reads.
    assert.equal(result.type, OldNode);
    assert.equal(result.version, '1.14');
    assert.deepEqual(result.get('extra'), { rack: 'r9' });
  });

  test('an unpinned newer client gets UnsupportedVersionError from an old server, naming both versions', async () => {
    const topic = ctx.topic();
    await startConductor(ctx, topic, { release: 'old', server: 'old-cond' });
    const client = apiClient(ctx, topic, { release: 'new' });
    await assert.rejects(client.call('get_node', { node: 1 }), (error: unknown) => {
      assert.ok(error instanceof UnsupportedVersionError);
      assert.equal(error.requested, '1.2');
      assert.deepEqual(error.served, ['1.1']);
      assert.match(error.message, /1\.2.*1\.1/);
      return true;
    });
    await assert.rejects(
      client.prepare({ version: '2.0' }).call('get_node', { node: 1 }),
      (error: unknown) => error instanceof UnsupportedVersionError && error.requested === '2.0',
    );
    // A method the old server's version lacks, asked at a version it serves.
    await assert.rejects(
      client.prepare({ version: '1.1' }).call('set_meta', { node: 1, meta: {} }),
      UnknownMethodError,
    );
  });

  test('unknown methods, bad arguments and handler errors arrive typed', async () => {
    const topic = ctx.topic();
    await startConductor(ctx, topic, { release: 'new', server: 'cond-1' });
    const client = apiClient(ctx, topic, { release: 'new' });
    await assert.rejects(
      client.call('no_such_method'),
      (e: unknown) => e instanceof UnknownMethodError && e.method === 'no_such_method',
    );
    await assert.rejects(client.call('get_node', {}), (e: unknown) => {
      return e instanceof InvalidArgumentsError && /missing argument\(s\) node/.test(e.message);
    });
    await assert.rejects(
      client.call('get_node', { node: 1, colour: 'red' }),
      /unexpected argument\(s\) colour/,
    );
    const badNode = {
      'ironic_object.name': 'Node',
      'ironic_object.namespace': 'ironic',
      'ironic_object.version': '1.99',
      'ironic_object.data': {},
    };
    await assert.rejects(client.call('get_node', { node: badNode }), InvalidArgumentsError);
    await assert.rejects(client.call('lock', { node_id: 'n1' }), (e: unknown) => {
      return e instanceof NodeLockedError && e.node === 'n1' && e.holder === 'cond-1';
    });
    await assert.rejects(client.call('explode'), (e: unknown) => {
      return (
        e instanceof RemoteError &&
        e.remoteType === 'TypeError' &&
        e.remoteMessage === 'internal failure'
      );
    });
  });

  test('a call that times out names the topic, server and method', async () => {
    const topic = ctx.topic();
    await startConductor(ctx, topic, { release: 'new', server: 'cond-1' });
    const client = apiClient(ctx, topic, { release: 'new', timeoutMs: 150 });
    const started = Date.now();
    // The handler answers after 2 s: a rejection before then came from the client's timeout.
    await assert.rejects(
      client.prepare({ server: 'cond-1' }).call('sleep', { ms: 2000 }),
      (e: unknown) => {
        assert.ok(e instanceof RpcTimeoutError);
        assert.equal(e.topic, topic);
        assert.equal(e.server, 'cond-1');
        assert.equal(e.method, 'sleep');
        assert.match(
          e.message,
          new RegExp(`'sleep' to topic '${topic}' server 'cond-1' timed out after 150 ms`),
        );
        return true;
      },
    );
    assert.ok(Date.now() - started < 2000, 'not the answer: the timeout');
    // The server is still fine afterwards.
    assert.equal(await client.prepare({ timeoutMs: 5000 }).call('whoami'), 'cond-1');
  });

  test('prepare({server}) reaches that server; a fanout cast reaches every server', async () => {
    const topic = ctx.topic();
    const one = await startConductor(ctx, topic, { release: 'new', server: 'cond-1' });
    const two = await startConductor(ctx, topic, { release: 'new', server: 'cond-2' });
    const client = apiClient(ctx, topic, { release: 'new' });
    for (let i = 0; i < 4; i++) {
      assert.equal(await client.prepare({ server: 'cond-2' }).call('whoami'), 'cond-2');
      assert.equal(await client.prepare({ server: 'cond-1' }).call('whoami'), 'cond-1');
    }
    const anyServer = new Set<unknown>();
    for (let i = 0; i < 12; i++) anyServer.add(await client.call('whoami'));
    assert.ok(anyServer.size >= 1);
    await client.prepare({ fanout: true }).cast('touch', { node_id: 42 });
    await waitFor(() => [one, two].every((c) => c.seen.some((s) => s.method === 'touch')));
    await assert.rejects(client.prepare({ fanout: true }).call('whoami'), /can only cast/);
  });

  test('no server for the topic: the call is not delivered, and says so', async () => {
    const topic = ctx.topic();
    const client = apiClient(ctx, topic, { release: 'new', timeoutMs: 2000 });
    await assert.rejects(
      client.call('whoami'),
      (e: unknown) => e instanceof NoRpcServerError && e.topic === topic,
    );
    await assert.rejects(client.cast('touch', { node_id: 1 }), NoRpcServerError);
  });

  test('a stopped server finishes what it holds and takes nothing more', async () => {
    const topic = ctx.topic();
    const { rpcServer, seen } = await startConductor(ctx, topic, {
      release: 'new',
      server: 'cond-1',
    });
    const client = apiClient(ctx, topic, { release: 'new', timeoutMs: 3000 });
    assert.equal(await client.call('whoami'), 'cond-1'); // connected
    const slow = client.call('sleep', { ms: 200 });
    await waitFor(() => seen.some((s) => s.method === 'sleep')); // the server holds it
    await rpcServer.stop();
    assert.equal(await slow, 'slept');
    await assert.rejects(
      client.prepare({ timeoutMs: 300 }).call('whoami'),
      (e: unknown) => e instanceof NoRpcServerError || e instanceof RpcTimeoutError,
    );
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 3000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
