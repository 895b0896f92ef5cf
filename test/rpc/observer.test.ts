/**
 * The observer hook: every call and cast, on the client and on the server, ends in one
 * event naming its method, version and outcome; a failed cast is logged through the
 * server's logger. The transport is the local one: the hook sits above any transport.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  LocalBus,
  LocalTransport,
  NoRpcServerError,
  RemoteError,
  type RpcCallEvent,
  RpcClient,
  RpcServer,
  RpcTimeoutError,
  RpcVersionCapError,
  UnsupportedVersionError,
} from '../../src/rpc/index.ts';
import { type CapturedRecord, capturedRpcLogger } from './support/captured-logger.ts';

class NodeLocked extends Error {
  override name = 'NodeLocked';
}

async function setUp() {
  const bus = new LocalBus();
  const serverEvents: RpcCallEvent[] = [];
  const clientEvents: RpcCallEvent[] = [];
  const records: CapturedRecord[] = [];
  const server = new RpcServer({
    transport: new LocalTransport(bus),
    topic: 'conductor',
    server: 'c1',
    endpoints: [
      {
        version: '1.2',
        methods: {
          echo: { params: { value: 'required' }, handle: (args) => args.value },
          locked: {
            params: {},
            handle: () => {
              throw new NodeLocked('node n1 is locked by c2');
            },
          },
          slow: {
            params: {},
            handle: () => new Promise((resolve) => setTimeout(() => resolve('late'), 300)),
          },
        },
      },
    ],
    observer: { rpcEnded: (event) => serverEvents.push(event) },
    logger: capturedRpcLogger([], records),
  });
  await server.start();
  const client = new RpcClient({
    transport: new LocalTransport(bus),
    topic: 'conductor',
    version: '1.2',
    timeoutMs: 2000,
    observer: { rpcEnded: (event) => clientEvents.push(event) },
  });
  return { bus, server, client, serverEvents, clientEvents, records };
}

test('a call that returns is one ok event on each side, with topic, method and version', async () => {
  const { server, client, serverEvents, clientEvents } = await setUp();
  assert.equal(await client.call('echo', { value: 7 }), 7);
  await server.stop();
  for (const [side, events] of [
    ['client', clientEvents],
    ['server', serverEvents],
  ] as const) {
    assert.equal(events.length, 1, side);
    const event = events[0] as RpcCallEvent;
    assert.equal(event.side, side);
    assert.equal(event.kind, 'call');
    assert.equal(event.topic, 'conductor');
    assert.equal(event.method, 'echo');
    assert.equal(event.version, '1.2');
    assert.equal(event.outcome, 'ok');
    assert.ok(event.seconds >= 0 && event.seconds < 60);
    assert.equal(event.errorType, undefined);
  }
});

test('outcomes: a raised error, a refused version, a cap, a timeout, no server', async () => {
  const { server, client, serverEvents, clientEvents } = await setUp();
  await assert.rejects(client.call('locked'), RemoteError);
  await assert.rejects(client.prepare({ version: '1.3' }).call('echo', { value: 1 }), (error) => {
    return error instanceof UnsupportedVersionError;
  });
  const capped = new RpcClient({
    transport: new LocalTransport(new LocalBus()),
    topic: 'conductor',
    version: '1.2',
    versionCap: '1.1',
    observer: { rpcEnded: (event) => clientEvents.push(event) },
  });
  await assert.rejects(capped.call('echo', { value: 1 }), RpcVersionCapError);
  await assert.rejects(client.prepare({ timeoutMs: 50 }).call('slow'), RpcTimeoutError);
  await assert.rejects(
    client.prepare({ server: 'nobody' }).call('echo', { value: 1 }),
    NoRpcServerError,
  );
  // The timed-out call's handler still runs to its end on the server; wait for its event.
  for (let i = 0; i < 500 && !serverEvents.some((e) => e.method === 'slow'); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await server.stop();

  assert.deepEqual(
    clientEvents.map((e) => [e.method, e.version, e.outcome, e.errorType]),
    [
      ['locked', '1.2', 'error', 'NodeLocked'],
      ['echo', '1.3', 'unsupported_version', 'UnsupportedVersionError'],
      ['echo', '1.2', 'capped', 'RpcVersionCapError'],
      ['slow', '1.2', 'timeout', 'RpcTimeoutError'],
      ['echo', '1.2', 'no_server', 'NoRpcServerError'],
    ],
  );
  assert.deepEqual(
    serverEvents.map((e) => [e.method, e.outcome, e.errorType]),
    [
      ['locked', 'error', 'NodeLocked'],
      ['echo', 'unsupported_version', 'UnsupportedVersionError'],
      ['slow', 'ok', undefined],
    ],
  );
  assert.equal(serverEvents[0]?.errorMessage, 'node n1 is locked by c2');
});

test('a cast ends in an event on each side; a failed one is logged by the server', async () => {
  const { server, client, serverEvents, clientEvents, records } = await setUp();
  await client.cast('locked');
  await client.cast('echo', { value: 1 });
  for (let i = 0; i < 50 && serverEvents.length < 2; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await server.stop();
  assert.deepEqual(
    clientEvents.map((e) => [e.kind, e.method, e.outcome]),
    [
      ['cast', 'locked', 'ok'],
      ['cast', 'echo', 'ok'],
    ],
  );
  assert.deepEqual(serverEvents.map((e) => [e.kind, e.method, e.outcome]).sort(), [
    ['cast', 'echo', 'ok'],
    ['cast', 'locked', 'error'],
  ]);
  const warning = records.find((r) => r.level === 'warn');
  assert.equal(warning?.fields.method, 'locked');
  assert.equal(warning?.fields.error_type, 'NodeLocked');
  assert.match(String(warning?.message), /RPC cast 'locked' failed: NodeLocked: node n1 is locked/);
});
