/**
 * The amqp transport against a real oslo.messaging 14 peer (oslo_peer.py,
 * Debian's python3-oslo.messaging) on the same RabbitMQ, both ways: calls,
 * casts, fanout, servers of both kinds sharing a topic's queues, versions
 * above the server's, unknown methods, timeouts, other failures and a
 * versioned object in oslo.versionedobjects' primitive form. Where a Python
 * caller is involved, what it sees from a Baton server is compared with what
 * it sees from a Python server. Every run uses an exchange of its own.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import {
  defineObjectType,
  f,
  type ObjectNamespace,
  ObjectRegistry,
  VersionedObject,
} from '../../src/objects/index.ts';
import {
  AmqpTransport,
  InvalidArgumentsError,
  objectRpcSerializer,
  RemoteError,
  RpcClient,
  type RpcClientOptions,
  type RpcEndpoint,
  RpcServer,
  RpcTimeoutError,
  UnknownMethodError,
  UnsupportedVersionError,
} from '../../src/rpc/index.ts';
import { type CapturedRecord, capturedRpcLogger } from './support/captured-logger.ts';
import { OsloPeer, osloAvailable, type PythonError } from './support/oslo-peer.ts';
import { AMQP_URL, brokerAvailable, cleanBroker } from './support/transports.ts';

/** oslo.versionedobjects' default namespace, which the Python Widget uses. */
const OVO_NAMESPACE: ObjectNamespace = { project: 'versionedobjects', serial: 'versioned_object' };
const Widget = defineObjectType({
  name: 'Widget',
  namespace: OVO_NAMESPACE,
  fields: { id: f.integer(), name: f.string(), colour: f.string({ nullable: true }) },
  history: [
    { version: '1.0', note: 'id, name' },
    { version: '1.1', note: 'colour', added: ['colour'] },
  ],
});
const widgets = () => new ObjectRegistry(OVO_NAMESPACE, [Widget]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('amqp transport and oslo.messaging', async () => {
  const unavailable = (await brokerAvailable()) ?? (await osloAvailable());
  if (unavailable !== undefined) {
    describe(unavailable, { skip: unavailable }, () => {});
    return;
  }
  const run = randomBytes(4).toString('hex');
  const exchange = `baton_oslo_${run}`;
  const topics: string[] = [];
  const transports: AmqpTransport[] = [];
  const logged: string[] = [];
  const logRecords: CapturedRecord[] = [];
  let python: OsloPeer;

  before(async () => {
    python = await OsloPeer.start(AMQP_URL, exchange);
  });
  after(async () => {
    await Promise.all(transports.map((t) => t.close()));
    await python?.stop();
    await cleanBroker(exchange, topics, ['py-1', 'py-2', 'baton-1', 'baton-2']);
  });

  const topic = (name: string) => {
    const t = `${name}_${run}`;
    topics.push(t);
    return t;
  };
  const transport = () => {
    const t = new AmqpTransport({
      url: AMQP_URL,
      exchange,
      logger: capturedRpcLogger(logged, logRecords),
    });
    transports.push(t);
    return t;
  };
  const client = (options: Omit<RpcClientOptions, 'transport'>) =>
    new RpcClient({ transport: transport(), timeoutMs: 5000, ...options });

  /** Baton's conductor: the Python peer's endpoints, as a Baton server. */
  async function batonServer(topicName: string, server: string) {
    const seen: { method: string; args: Record<string, unknown>; context: unknown }[] = [];
    const endpoints: RpcEndpoint[] = [
      {
        version: '1.1',
        methods: {
          echo: { params: { value: 'required' }, handle: (args) => args.value },
          whoami: { params: {}, handle: () => server },
          context: { params: {}, handle: (_args, call) => call.context },
          sleep: {
            params: { seconds: 'required' },
            handle: async (args) => {
              await sleep(Number(args.seconds) * 1000);
              return 'slept';
            },
          },
          record: {
            params: { n: 'required' },
            handle: (args, call) => {
              seen.push({ method: 'record', args, context: call.context });
            },
          },
          fail: {
            params: {},
            handle: () => {
              throw new TypeError('internal failure');
            },
          },
          downstream_timeout: {
            params: {},
            handle: () => {
              throw new RpcTimeoutError({ topic: 'downstream', server: 'd-1' }, 'probe', 1000);
            },
          },
          rename_widget: {
            params: { widget: 'required', name: 'required' },
            handle: (args) => {
              const widget = args.widget as VersionedObject;
              seen.push({ method: 'rename_widget', args, context: null });
              widget.assign('name', args.name);
              return widget;
            },
          },
        },
      },
      {
        namespace: 'admin',
        version: '1.0',
        methods: { ping: { params: {}, handle: () => 'pong-admin' } },
      },
    ];
    const rpcServer = new RpcServer({
      transport: transport(),
      topic: topicName,
      server,
      endpoints,
      serializer: objectRpcSerializer(widgets()),
    });
    await rpcServer.start();
    return seen;
  }

  test('a Baton client calls a Python server: results, context, one server, a namespace, an older minor', async () => {
    const t = topic('to_python');
    await python.serve(t, 'py-1');
    const context = { request_id: 'req-7f3a', user_id: 'alice', roles: ['admin'] };
    const baton = client({ topic: t, version: '1.1', context });
    const value = { nested: { list: [1, 2.5, 'x', null, true] }, text: 'héllo' };
    assert.deepEqual(await baton.call('echo', { value }), value);
    // oslo's server hands its endpoints the context with the call's `_timeout` added.
    const asOsloSees = { ...context, client_timeout: null };
    assert.deepEqual(await baton.call('context'), asOsloSees);
    const handled = await python.waitForEvent((e) => e.method === 'echo');
    assert.deepEqual(handled.context, asOsloSees);
    assert.equal(await baton.prepare({ server: 'py-1' }).call('whoami'), 'py-1');
    assert.equal(
      await baton.prepare({ namespace: 'admin', version: '1.0' }).call('ping'),
      'pong-admin',
    );
    assert.deepEqual(await baton.prepare({ version: '1.0' }).call('echo', { value: 3 }), 3);
  });

  test('a Python client calls a Baton server: results, context, one server, a namespace', async () => {
    const t = topic('to_baton');
    await batonServer(t, 'baton-1');
    const context = { request_id: 'req-9c1d', project_id: 'p1' };
    const value = { nested: { list: [1, 2.5, 'x', null, true] }, text: 'héllo' };
    assert.deepEqual(await python.result({ topic: t, method: 'echo', args: { value } }), value);
    assert.deepEqual(await python.result({ topic: t, method: 'context', context }), context);
    assert.equal(await python.result({ topic: t, server: 'baton-1', method: 'whoami' }), 'baton-1');
    assert.equal(
      await python.result({ topic: t, method: 'ping', namespace: 'admin', version: '1.0' }),
      'pong-admin',
    );
  });

  test('casts and fanout reach servers of both kinds sharing a topic, whichever declared it first', async () => {
    for (const pythonFirst of [true, false]) {
      const t = topic(pythonFirst ? 'mixed_py_first' : 'mixed_baton_first');
      let seen: Awaited<ReturnType<typeof batonServer>>;
      if (pythonFirst) {
        await python.serve(t, 'py-1');
        seen = await batonServer(t, 'baton-1');
      } else {
        seen = await batonServer(t, 'baton-1');
        await python.serve(t, 'py-1');
      }
      const base = pythonFirst ? 0 : 100;
      const batonGot = (n: number) => seen.some((s) => s.args.n === base + n);
      const pythonGot = (n: number) => (e: { method?: string; args?: Record<string, unknown> }) =>
        e.method === 'record' && e.args?.n === base + n;
      const baton = client({ topic: t, version: '1.1', context: { request_id: 'req-cast' } });

      await baton.prepare({ fanout: true }).cast('record', { n: base + 1 });
      await python.waitForEvent(pythonGot(1));
      await waitFor(() => batonGot(1));
      await python.cast({ topic: t, fanout: true, method: 'record', args: { n: base + 2 } });
      await python.waitForEvent(pythonGot(2));
      await waitFor(() => batonGot(2));

      await baton.prepare({ server: 'py-1' }).cast('record', { n: base + 3 });
      const event = await python.waitForEvent(pythonGot(3));
      assert.deepEqual(event.context, { request_id: 'req-cast', client_timeout: null });
      await python.cast({
        topic: t,
        server: 'baton-1',
        method: 'record',
        args: { n: base + 4 },
        context: { request_id: 'req-py' },
      });
      await waitFor(() => batonGot(4));
      assert.deepEqual(seen.find((s) => s.args.n === base + 4)?.context, { request_id: 'req-py' });
      // Through the shared queue: one server of either kind takes each.
      for (let n = 5; n < 9; n++) await baton.cast('record', { n: base + n });
      await waitFor(() =>
        [5, 6, 7, 8].every((n) => batonGot(n) || python.events.some(pythonGot(n))),
      );
      assert.equal(seen.filter((s) => s.args.n === base + 3).length, 0, 'addressed to py-1 only');
    }
  });

  test('a version above the server’s: UnsupportedVersion both ways', async () => {
    const t = topic('versions');
    await python.serve(t, 'py-1');
    await batonServer(t, 'baton-1');
    const baton = client({ topic: t, version: '1.5' });
    for (const server of ['py-1', 'baton-1'])
      await assert.rejects(baton.prepare({ server }).call('echo', { value: 1 }), (e: unknown) => {
        assert.ok(e instanceof UnsupportedVersionError, String(e));
        assert.equal(e.method, 'echo');
        assert.equal(e.requested, '1.5');
        return true;
      });
    await assert.rejects(
      baton.prepare({ server: 'py-1', version: '2.0' }).call('echo', { value: 1 }),
      (e: unknown) => e instanceof UnsupportedVersionError && e.requested === '2.0',
    );
    const fromPython = await python.error({
      topic: t,
      server: 'py-1',
      method: 'echo',
      version: '1.5',
      args: { value: 1 },
    });
    const fromBaton = await python.error({
      topic: t,
      server: 'baton-1',
      method: 'echo',
      version: '1.5',
      args: { value: 1 },
    });
    assertSameKind(fromBaton, fromPython);
    assert.deepEqual(fromBaton.is, ['UnsupportedVersion']);
    assert.equal(fromBaton.class, 'UnsupportedVersion_Remote');
    assert.equal(fromBaton.version, '1.5');
    assert.equal(fromBaton.method, 'echo');
  });

  test('an unknown method: NoSuchMethod both ways', async () => {
    const t = topic('methods');
    await python.serve(t, 'py-1');
    await batonServer(t, 'baton-1');
    const baton = client({ topic: t, version: '1.1' });
    for (const server of ['py-1', 'baton-1']) {
      await assert.rejects(
        baton.prepare({ server }).call('no_such_method'),
        (e: unknown) => e instanceof UnknownMethodError && e.method === 'no_such_method',
      );
      await assert.rejects(
        baton.prepare({ server, namespace: 'admin', version: '1.0' }).call('echo', { value: 1 }),
        (e: unknown) => e instanceof UnknownMethodError && e.namespace === 'admin',
      );
    }
    const ask = (server: string) => python.error({ topic: t, server, method: 'no_such_method' });
    const fromBaton = await ask('baton-1');
    assertSameKind(fromBaton, await ask('py-1'));
    assert.deepEqual(fromBaton.is, ['NoSuchMethod']);
  });

  test('timeouts: the caller’s own, both ways, and a server’s, rebuilt as the caller’s type', async () => {
    const t = topic('timeouts');
    await python.serve(t, 'py-1');
    await batonServer(t, 'baton-1');
    const baton = client({ topic: t, version: '1.1', timeoutMs: 300 });
    await assert.rejects(
      baton.prepare({ server: 'py-1' }).call('sleep', { seconds: 1.5 }),
      (e: unknown) => e instanceof RpcTimeoutError && e.server === 'py-1' && e.method === 'sleep',
    );
    const slow = await python.error({
      topic: t,
      server: 'baton-1',
      method: 'sleep',
      args: { seconds: 2 },
      timeout: 1,
    });
    assert.deepEqual(slow.is, ['MessagingTimeout']);
    // A server whose own call timed out: the caller gets its own timeout type, with the text.
    await assert.rejects(
      baton.prepare({ server: 'py-1', timeoutMs: 5000 }).call('downstream_timeout'),
      (e: unknown) =>
        e instanceof RpcTimeoutError && /timed out calling its own peer/.test(e.message),
    );
    await assert.rejects(
      baton.prepare({ server: 'baton-1', timeoutMs: 5000 }).call('downstream_timeout'),
      (e: unknown) =>
        e instanceof RpcTimeoutError && e.topic === 'downstream' && e.method === 'probe',
    );
    const ask = (server: string) =>
      python.error({ topic: t, server, method: 'downstream_timeout' });
    const fromBaton = await ask('baton-1');
    assertSameKind(fromBaton, await ask('py-1'));
    assert.deepEqual(fromBaton.is, ['MessagingTimeout']);
    // oslo's call monitor: a 3 s call under a 2 s monitor lives on the server's keep-alives.
    assert.equal(
      await python.result({
        topic: t,
        server: 'baton-1',
        method: 'sleep',
        args: { seconds: 3 },
        timeout: 20,
        call_monitor_timeout: 2,
      }),
      'slept',
    );
  });

  test('other failures keep their type and message; bad arguments are refused', async () => {
    const t = topic('failures');
    await python.serve(t, 'py-1');
    await batonServer(t, 'baton-1');
    const baton = client({ topic: t, version: '1.1' });
    await assert.rejects(baton.prepare({ server: 'py-1' }).call('fail'), (e: unknown) => {
      return (
        e instanceof RemoteError && e.remoteType === 'ValueError' && e.remoteMessage === 'bad value'
      );
    });
    const fromBaton = await python.error({ topic: t, server: 'baton-1', method: 'fail' });
    assert.deepEqual(fromBaton.is, ['RemoteError']);
    assert.equal(fromBaton.exc_type, 'TypeError');
    assert.equal(fromBaton.value, 'internal failure');
    const badArgs = await python.error({
      topic: t,
      server: 'baton-1',
      method: 'echo',
      args: { colour: 1 },
    });
    assert.equal(badArgs.exc_type, 'InvalidArgumentsError');
    assert.match(badArgs.value ?? '', /unexpected argument\(s\) colour/);
    await assert.rejects(
      baton.prepare({ server: 'baton-1' }).call('echo', {}),
      InvalidArgumentsError,
    );
  });

  test('a versioned object crosses in oslo.versionedobjects primitive form, both ways', async () => {
    const t = topic('objects');
    await python.serve(t, 'py-1');
    const seen = await batonServer(t, 'baton-1');
    const widget = () => Widget.create({ id: 7, name: 'w', colour: 'red' });

    const latest = client({ topic: t, version: '1.1', serializer: objectRpcSerializer(widgets()) });
    const renamed = (await latest
      .prepare({ server: 'py-1' })
      .call('rename_widget', { widget: widget(), name: 'renamed' })) as VersionedObject;
    assert.ok(renamed instanceof VersionedObject);
    assert.equal(renamed.type, Widget);
    assert.deepEqual(
      [renamed.get('id'), renamed.get('name'), renamed.get('colour')],
      [7, 'renamed', 'red'],
    );
    assert.ok(renamed.changedFields().has('name'));
    const arrived = await python.waitForEvent((e) => e.method === 'rename_widget');
    assert.deepEqual(arrived.args?.widget, {
      $widget: {
        version: '1.1',
        fields: { id: 7, name: 'w', colour: 'red' },
        changes: ['colour', 'id', 'name'],
      },
    });

    // Pinned to Widget 1.0: the Python side gets 1.0 (no colour) and answers at 1.0.
    const pinned = client({
      topic: t,
      version: '1.1',
      serializer: objectRpcSerializer(widgets(), { objectVersion: () => '1.0' }),
    });
    const old = (await pinned
      .prepare({ server: 'py-1' })
      .call('rename_widget', { widget: widget(), name: 'old' })) as VersionedObject;
    assert.equal(old.get('name'), 'old');
    assert.equal(old.version, Widget.version, 'read at the latest version this side knows');
    const arrivedOld = await python.waitForEvent(
      (e) => e.method === 'rename_widget' && e.args?.name === 'old',
    );
    assert.deepEqual(arrivedOld.args?.widget, {
      $widget: { version: '1.0', fields: { id: 7, name: 'w' }, changes: ['id', 'name'] },
    });

    const fromPython = await python.result({
      topic: t,
      server: 'baton-1',
      method: 'rename_widget',
      args: { widget: { $widget: { id: 8, name: 'p', colour: 'blue' } }, name: 'by-baton' },
    });
    assert.deepEqual(fromPython, {
      $widget: {
        version: '1.1',
        fields: { id: 8, name: 'by-baton', colour: 'blue' },
        changes: ['colour', 'id', 'name'],
      },
    });
    const got = seen.find((s) => s.method === 'rename_widget')?.args.widget;
    assert.ok(
      got instanceof VersionedObject && got.type === Widget && got.get('colour') === 'blue',
    );
  });

  test('nothing was unreadable on either side', () => {
    // oslo logs an exception it was sent but could not rebuild, and one it could not read.
    assert.doesNotMatch(
      python.stderr,
      /Failed to rebuild remote exception|Failed to process message/,
    );
    assert.deepEqual(logged, []);
  });
});

/** A Python caller saw the same exception type from both servers. */
function assertSameKind(fromBaton: PythonError, fromPython: PythonError) {
  assert.deepEqual(
    { class: fromBaton.class, module: fromBaton.module, is: fromBaton.is },
    { class: fromPython.class, module: fromPython.module, is: fromPython.is },
  );
}

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await sleep(10);
  }
}
