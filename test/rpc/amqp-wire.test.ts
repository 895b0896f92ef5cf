/**
 * The amqp transport's wire, byte for byte where it matters: request and
 * reply bodies as oslo.messaging 14 writes and reads them, failures both
 * ways, the durability settings; then, on the broker with raw AMQP, what a
 * server does with messages it cannot read or has seen, and the reply forms
 * a client must accept (keep-alives, oslo's older two-message replies).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { type Channel, type ChannelModel, type ConsumeMessage, connect } from 'amqplib';
import {
  AmqpTransport,
  RemoteError,
  RpcClient,
  RpcConfigError,
  RpcServer,
  readRpcConfig,
  UnknownMethodError,
  UnsupportedVersionError,
} from '../../src/rpc/index.ts';
import { osloFailureOf, wireFailureOfOslo } from '../../src/rpc/transports/amqp-failures.ts';
import {
  decodeReply,
  decodeRequest,
  encodeReply,
  encodeRequest,
} from '../../src/rpc/transports/amqp-wire.ts';
import { BUILT_IN_REMOTE_ERRORS, errorFromFailure } from '../../src/rpc/wire-errors.ts';
import { type CapturedRecord, capturedRpcLogger } from './support/captured-logger.ts';
import { AMQP_URL, brokerAvailable, cleanBroker } from './support/transports.ts';

const HEX32 = /^[0-9a-f]{32}$/;
const open = (body: Buffer) => {
  const outer = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
  assert.deepEqual(Object.keys(outer), ['oslo.version', 'oslo.message']);
  assert.equal(outer['oslo.version'], '2.0');
  return JSON.parse(outer['oslo.message'] as string) as Record<string, unknown>;
};
const envelope = (message: unknown) =>
  Buffer.from(JSON.stringify({ 'oslo.version': '2.0', 'oslo.message': JSON.stringify(message) }));

test('a request is oslo’s: the envelope, namespace only when set, reply address and context in the body', () => {
  const request = {
    method: 'update_node',
    version: '1.3',
    namespace: 'admin',
    args: { node_id: 4 },
    context: { request_id: 'req-1', user: 'u' },
  };
  const call = open(encodeRequest(request, { msgId: 'm1', replyQ: 'reply_q1' }).body);
  assert.deepEqual(Object.keys(call), [
    'method',
    'args',
    'namespace',
    'version',
    '_msg_id',
    '_reply_q',
    '_timeout',
    '_unique_id',
    '_context_request_id',
    '_context_user',
  ]);
  assert.deepEqual(
    { ...call, _unique_id: 'x' },
    {
      method: 'update_node',
      args: { node_id: 4 },
      namespace: 'admin',
      version: '1.3',
      _msg_id: 'm1',
      _reply_q: 'reply_q1',
      _timeout: null,
      _unique_id: 'x',
      _context_request_id: 'req-1',
      _context_user: 'u',
    },
  );
  assert.match(String(call._unique_id), HEX32);
  const { body, uniqueId } = encodeRequest({ ...request, namespace: null, context: undefined });
  const cast = open(body);
  assert.deepEqual(Object.keys(cast), ['method', 'args', 'version', '_unique_id']);
  assert.equal(cast._unique_id, uniqueId);
});

test('a request as oslo.messaging 14 sent it is read, context and all; older forms too', () => {
  // Captured from a Python RPCClient.prepare(namespace='ns').call({'request_id': ...}, 'callme', b=[1]).
  const python = Buffer.from(
    '{"oslo.version": "2.0", "oslo.message": "{\\"method\\": \\"callme\\", \\"args\\": {\\"b\\": [1]}, \\"namespace\\": \\"ns\\", \\"version\\": \\"1.3\\", \\"_msg_id\\": \\"8bf64293b37449d7be9f51ae4eb72fc4\\", \\"_reply_q\\": \\"reply_9cff3aba7b8a4cf78b5736d32b05202d\\", \\"_timeout\\": null, \\"_unique_id\\": \\"988218d98a1e47a592dcceae65f42b3c\\", \\"_context_request_id\\": \\"req-1\\"}"}',
  );
  assert.deepEqual(decodeRequest(python, 'application/json'), {
    ok: true,
    request: {
      method: 'callme',
      version: '1.3',
      namespace: 'ns',
      args: { b: [1] },
      context: { request_id: 'req-1' },
    },
    reply: {
      msgId: '8bf64293b37449d7be9f51ae4eb72fc4',
      replyQ: 'reply_9cff3aba7b8a4cf78b5736d32b05202d',
    },
    uniqueId: '988218d98a1e47a592dcceae65f42b3c',
  });
  // Envelope 1.0 (no envelope), no version (1.0), no args; a call-monitor timeout.
  const legacy = decodeRequest(Buffer.from('{"method": "ping", "_timeout": 30}'));
  assert.ok(legacy.ok);
  assert.deepEqual(legacy.request, { method: 'ping', version: '1.0', namespace: null, args: {} });
  assert.equal(legacy.monitorSeconds, 30);
  // A context key cannot reach an object's prototype.
  const sneaky = decodeRequest(envelope({ method: 'm', _context___proto__: { polluted: true } }));
  assert.ok(sneaky.ok);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.deepEqual(Object.keys(sneaky.request.context ?? {}), ['__proto__']);
});

test('a request that cannot be read says why, with the reply address when it can be found', () => {
  const address = { _msg_id: 'm2', _reply_q: 'reply_x' };
  const cases: [Buffer, string | undefined, RegExp, boolean][] = [
    [Buffer.from('not json'), undefined, /not JSON/, false],
    [Buffer.from('[1]'), undefined, /not a JSON object/, false],
    [Buffer.from('{}'), 'text/plain', /content type 'text\/plain'/, false],
    [
      envelope({ ...address, method: 'm', args: 'oops' }),
      undefined,
      /args must be an object/,
      true,
    ],
    [envelope({ ...address, method: '' }), undefined, /method must be a non-empty string/, true],
    [
      envelope({ ...address, method: 'm', version: 2 }),
      undefined,
      /version must be a string/,
      true,
    ],
    [
      Buffer.from(
        JSON.stringify({
          'oslo.version': '3.0',
          'oslo.message': JSON.stringify({ ...address, method: 'm' }),
        }),
      ),
      undefined,
      /envelope version "3.0" is not supported/,
      true,
    ],
    [
      Buffer.from(JSON.stringify({ 'oslo.version': '2.0', 'oslo.message': '{' })),
      undefined,
      /oslo.message is not JSON/,
      false,
    ],
  ];
  for (const [body, type, problem, answerable] of cases) {
    const decoded = decodeRequest(body, type);
    assert.equal(decoded.ok, false);
    if (decoded.ok) continue;
    assert.match(decoded.problem, problem);
    assert.deepEqual(decoded.reply, answerable ? { msgId: 'm2', replyQ: 'reply_x' } : undefined);
  }
});

test('a reply is {result, failure, ending, _msg_id, _unique_id}; a failure is oslo’s JSON string', () => {
  const ok = open(encodeReply('m3', { ok: true, result: { a: 1 } }));
  assert.deepEqual(Object.keys(ok), ['result', 'failure', 'ending', '_msg_id', '_unique_id']);
  assert.deepEqual(
    { ...ok, _unique_id: 'x' },
    {
      result: { a: 1 },
      failure: null,
      ending: true,
      _msg_id: 'm3',
      _unique_id: 'x',
    },
  );
  const failed = open(
    encodeReply('m4', {
      ok: false,
      failure: {
        type: 'UnsupportedVersionError',
        message: 'no',
        data: { method: 'echo', requested: '1.5', served: ['1.1'] },
      },
    }),
  );
  assert.equal(failed.result, null);
  assert.deepEqual(JSON.parse(failed.failure as string), {
    class: 'UnsupportedVersion',
    module: 'oslo_messaging.rpc.dispatcher',
    args: ['1.5'],
    kwargs: { method: 'echo' },
    message: 'no',
    tb: [],
    baton: {
      type: 'UnsupportedVersionError',
      data: { method: 'echo', requested: '1.5', served: ['1.1'] },
    },
  });
  const decoded = decodeReply(envelope({ result: null, failure: 'x', _msg_id: 'm5' }));
  assert.deepEqual(decoded, { ok: true, msgId: 'm5', result: null, failure: 'x', ending: false });
  assert.equal(decodeReply(envelope({ result: 1 })).ok, false);
});

test('failures: Baton’s become oslo’s classes where oslo has one; oslo’s become Baton’s typed errors', () => {
  const call = { method: 'echo', version: '1.5', namespace: 'admin' };
  const baton = (type: string, data?: Record<string, unknown>) =>
    JSON.parse(osloFailureOf({ type, message: 'm', ...(data ? { data } : {}) })) as Record<
      string,
      unknown
    >;
  assert.deepEqual(
    [
      baton('UnknownMethodError', { method: 'x', namespace: null }).class,
      baton('UnknownMethodError', { method: 'x' }).args,
    ],
    ['NoSuchMethod', ['x']],
  );
  const timeout = baton('RpcTimeoutError', { topic: 't', method: 'm', timeoutMs: 5 });
  assert.deepEqual(
    [timeout.class, timeout.module, timeout.args],
    ['MessagingTimeout', 'oslo_messaging.exceptions', ['m']],
  );
  const own = baton('NodeLockedError', { node: 'n1' });
  assert.deepEqual(
    [own.class, own.module, own.args, own.kwargs],
    ['NodeLockedError', 'baton', ['m'], { node: 'n1' }],
  );

  // As an oslo server writes them (serialize_remote_exception): no `baton` key.
  const python = (cls: string, module: string, message: string, kwargs = {}) =>
    JSON.stringify({ class: cls, module, message, tb: ['Traceback…'], args: [message], kwargs });
  const rebuilt = (failure: string) =>
    errorFromFailure(wireFailureOfOslo(failure, call), BUILT_IN_REMOTE_ERRORS);
  const unsupported = rebuilt(
    python(
      'UnsupportedVersion',
      'oslo_messaging.rpc.dispatcher',
      'Endpoint does not support RPC version 1.5. Attempted method: echo',
    ),
  );
  assert.ok(unsupported instanceof UnsupportedVersionError);
  assert.deepEqual(
    [unsupported.method, unsupported.requested, unsupported.served],
    ['echo', '1.5', []],
  );
  assert.match(unsupported.message, /not supported by the server/);
  const noMethod = rebuilt(python('NoSuchMethod', 'oslo_messaging.rpc.dispatcher', 'no'));
  assert.ok(noMethod instanceof UnknownMethodError && noMethod.namespace === 'admin');
  const other = rebuilt(
    python('NodeLocked', 'ironic.common.exception', 'locked', { node: 'n1', host: 'h' }),
  );
  assert.ok(other instanceof RemoteError);
  assert.deepEqual(
    [other.remoteType, other.remoteMessage, other.data],
    ['NodeLocked', 'locked', { node: 'n1', host: 'h' }],
  );
  const garbled = rebuilt('{not json');
  assert.ok(garbled instanceof RemoteError && garbled.remoteType === 'InvalidReply');
});

test('amqp_durable_queues and amqp_auto_delete: oslo’s spellings, oslo’s defaults', () => {
  const amqp = { rpc_transport: 'amqp' };
  assert.deepEqual(
    [readRpcConfig(amqp).durable, readRpcConfig(amqp).autoDelete],
    [undefined, undefined],
  );
  const set = readRpcConfig({ ...amqp, amqp_durable_queues: 'True', amqp_auto_delete: 'no' });
  assert.deepEqual([set.durable, set.autoDelete], [true, false]);
  assert.throws(
    () => readRpcConfig({ ...amqp, amqp_durable_queues: 'maybe' }),
    (e: unknown) => e instanceof RpcConfigError && /amqp_durable_queues 'maybe'/.test(e.message),
  );
  assert.deepEqual(new AmqpTransport({ url: AMQP_URL }).durability, {
    durable: false,
    autoDelete: false,
  });
});

describe('amqp wire on the broker', async () => {
  const unavailable = await brokerAvailable();
  if (unavailable !== undefined) {
    describe(unavailable, { skip: unavailable }, () => {});
    return;
  }
  const run = randomBytes(4).toString('hex');
  const exchange = `baton_wire_${run}`;
  const topics: string[] = [];
  const transports: AmqpTransport[] = [];
  const logged: string[] = [];
  const logRecords: CapturedRecord[] = [];
  let raw: ChannelModel | undefined;
  after(async () => {
    await Promise.all(transports.map((t) => t.close()));
    await raw?.close();
    await cleanBroker(exchange, topics, ['s1']);
  });
  const transport = (options: { durable?: boolean; exchange?: string } = {}) => {
    const t = new AmqpTransport({
      url: AMQP_URL,
      exchange,
      connectTimeoutMs: 1500,
      logger: capturedRpcLogger(logged, logRecords),
      ...options,
    });
    transports.push(t);
    return t;
  };
  const topic = (name: string) => {
    const t = `${name}_${run}`;
    topics.push(t);
    return t;
  };
  async function rawChannel(): Promise<Channel> {
    raw ??= await connect(AMQP_URL);
    const channel = await raw.createChannel();
    channel.on('error', () => {});
    return channel;
  }
  /** A reply queue of the test's own: what arrives on it. */
  async function replyQueueOf(channel: Channel) {
    const { queue } = await channel.assertQueue('', { exclusive: true });
    const got: Record<string, unknown>[] = [];
    await channel.consume(queue, (m) => m && got.push(open(m.content)), { noAck: true });
    return { queue, got };
  }

  test('a server logs what it cannot read, answers the calls among them, and drops duplicates', async () => {
    const t = topic('unreadable');
    let echoed = 0;
    await new RpcServer({
      transport: transport(),
      topic: t,
      server: 's1',
      endpoints: [
        {
          version: '1.0',
          methods: {
            echo: {
              params: { n: 'required' },
              handle: (a) => {
                echoed++;
                return a.n;
              },
            },
          },
        },
      ],
    }).start();
    const channel = await rawChannel();
    const { queue, got } = await replyQueueOf(channel);
    const publish = (body: Buffer) =>
      channel.publish(exchange, t, body, { contentType: 'application/json' });
    publish(Buffer.from('not json'));
    publish(envelope({ method: 'echo', args: 'oops', _msg_id: 'bad-1', _reply_q: queue }));
    publish(
      Buffer.from(
        JSON.stringify({
          'oslo.version': '3.1',
          'oslo.message': JSON.stringify({
            method: 'echo',
            args: { n: 1 },
            _msg_id: 'bad-2',
            _reply_q: queue,
          }),
        }),
      ),
    );
    const twice = envelope({
      method: 'echo',
      args: { n: 5 },
      version: '1.0',
      _msg_id: 'dup',
      _reply_q: queue,
      _unique_id: 'u-dup',
    });
    publish(twice);
    publish(twice);
    await waitFor(() => got.length >= 3 && logged.length >= 4);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const byId = Object.fromEntries(got.map((g) => [g._msg_id, g]));
    for (const id of ['bad-1', 'bad-2']) {
      const failure = JSON.parse(String(byId[id]?.failure)) as Record<string, unknown>;
      assert.equal(failure.class, 'InvalidRpcMessage');
      assert.equal(byId[id]?.ending, true);
    }
    assert.match(
      String(JSON.parse(String(byId['bad-1']?.failure)).message),
      /args must be an object/,
    );
    assert.match(
      String(JSON.parse(String(byId['bad-2']?.failure)).message),
      /envelope version "3.1"/,
    );
    assert.equal(byId.dup?.result, 5);
    assert.equal(got.length, 3, 'the duplicate got no second answer');
    assert.equal(echoed, 1);
    assert.match(
      logged.join('\n'),
      new RegExp(`unreadable RPC message on ${exchange}/${t}: the body is not JSON; dropped`),
    );
    assert.match(logged.join('\n'), /args must be an object; answered with a failure/);
    assert.match(logged.join('\n'), /duplicate RPC message u-dup \('echo'\)/);
    // The service's logger gets fields it can index, not only the sentence.
    const duplicate = logRecords.find((r) => r.fields.unique_id === 'u-dup');
    assert.equal(duplicate?.level, 'warn');
    assert.equal(duplicate?.fields.origin, `${exchange}/${t}`);
    assert.equal(duplicate?.fields.method, 'echo');
  });

  test('a client takes keep-alives, oslo’s older two-message replies and failures, and logs unreadable replies', async () => {
    const t = topic('replies');
    const channel = await rawChannel();
    const client = new RpcClient({
      transport: transport(),
      topic: t,
      version: '1.0',
      timeoutMs: 3000,
    });
    await client.call('warm_up').catch(() => {}); // declares the exchange: no queue yet
    await channel.assertQueue(t, { durable: false });
    await channel.bindQueue(t, exchange, t);
    // A hand-written oslo server: each call answered in the form its method names.
    await channel.consume(t, (m: ConsumeMessage | null) => {
      if (m === null) return;
      channel.ack(m);
      const request = open(m.content);
      const to = String(request._reply_q);
      const send = (body: Record<string, unknown>) =>
        channel.publish('', to, envelope({ _msg_id: request._msg_id, ...body }), {
          contentType: 'application/json',
        });
      if (request.method === 'two_messages') {
        send({ result: null, failure: null, ending: false }); // keep-alive
        send({ result: 'first', failure: null, ending: false });
        send({ result: null, failure: null, ending: true });
      } else if (request.method === 'failure_then_ending') {
        send({
          result: null,
          failure: JSON.stringify({
            class: 'ValueError',
            module: 'builtins',
            message: 'bad',
            tb: [],
            args: ['bad'],
            kwargs: {},
          }),
          ending: false,
        });
        send({ ending: true });
      } else if (request.method === 'garbled') {
        channel.publish('', to, Buffer.from('{oops'), { contentType: 'application/json' });
        send({ result: 'after garbage', failure: null, ending: true });
      } else send({ result: null, failure: null, ending: true });
    });
    assert.equal(await client.call('two_messages'), 'first');
    await assert.rejects(
      client.call('failure_then_ending'),
      (e: unknown) => e instanceof RemoteError && e.remoteType === 'ValueError',
    );
    assert.equal(await client.call('garbled'), 'after garbage');
    assert.equal(await client.call('nothing'), null);
    assert.ok(
      logged.some((line) =>
        /unreadable RPC reply on reply_[0-9a-f]{32}: the body is not JSON/.test(line),
      ),
    );
  });

  test('durability is configurable, and a peer declaring other flags is refused (406), not ignored', async () => {
    const durableExchange = `${exchange}_durable`;
    const t = topic('durable');
    const durable = transport({ durable: true, exchange: durableExchange });
    const server = new RpcServer({
      transport: durable,
      topic: t,
      server: 's1',
      endpoints: [{ version: '1.0', methods: {} }],
    });
    await server.start();
    const channel = await rawChannel();
    await channel.checkQueue(t);
    await channel.assertQueue(t, { durable: true }); // same flags: fine
    const other = await rawChannel();
    await assert.rejects(other.assertQueue(t, { durable: false }), /PRECONDITION_FAILED/);
    // A default (non-durable) transport on the durable exchange cannot declare it.
    const mismatched = transport({ exchange: durableExchange });
    await assert.rejects(
      new RpcServer({ transport: mismatched, topic: t, server: 's1', endpoints: [] }).start(),
      /PRECONDITION_FAILED/,
    );
    await server.stop();
    await durable.close();
    const cleanup = await rawChannel();
    await cleanup.deleteExchange(durableExchange);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
