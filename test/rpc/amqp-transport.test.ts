/**
 * What only the amqp transport has: reconnecting when the broker goes away
 * (cut through a proxy of the test's own: the shared broker keeps running),
 * with every call and cast accounted for, and publisher confirms.
 */
import assert from 'node:assert/strict';
import { createHook } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import {
  AmqpTransport,
  NoRpcServerError,
  RpcClient,
  RpcConnectionLostError,
  RpcServer,
  RpcTimeoutError,
} from '../../src/rpc/index.ts';
import { TcpProxy } from './support/tcp-proxy.ts';
import { AMQP_URL, brokerAvailable, cleanBroker } from './support/transports.ts';

describe('amqp transport', async () => {
  const unavailable = await brokerAvailable();
  if (unavailable !== undefined) {
    describe(unavailable, { skip: unavailable }, () => {});
    return;
  }
  const run = randomBytes(4).toString('hex');
  const exchange = `baton_test_${run}`;
  const topics: string[] = [];
  const transports: AmqpTransport[] = [];
  let proxy: TcpProxy;
  let proxied: string;

  before(async () => {
    const broker = new URL(AMQP_URL);
    proxy = await TcpProxy.start(broker.hostname, Number(broker.port || 5672));
    broker.hostname = '127.0.0.1';
    broker.port = String(proxy.port);
    proxied = broker.toString();
  });
  after(async () => {
    await Promise.all(transports.map((t) => t.close()));
    await proxy.close();
    await cleanBroker(exchange, topics, ['s1']);
  });

  const transport = (url: string) => {
    const t = new AmqpTransport({ url, exchange });
    transports.push(t);
    return t;
  };

  async function echoServer(topic: string, url: string, seen: Set<number>) {
    const server = new RpcServer({
      transport: transport(url),
      topic,
      server: 's1',
      endpoints: [
        {
          version: '1.0',
          methods: {
            echo: {
              params: { n: 'required' },
              handle: async (args) => {
                await new Promise((resolve) => setTimeout(resolve, 2));
                return args.n;
              },
            },
            slow: {
              params: {},
              handle: async () => {
                await new Promise((resolve) => setTimeout(resolve, 300));
                return 'slow';
              },
            },
            record: {
              params: { n: 'required' },
              handle: (args) => {
                seen.add(Number(args.n));
              },
            },
          },
        },
      ],
    });
    await server.start();
    return server;
  }

  test('the connection drops during a stream of calls and casts: every one is accounted for', async () => {
    const topic = `stream_${run}`;
    topics.push(topic);
    const seen = new Set<number>();
    await echoServer(topic, proxied, seen);
    const client = new RpcClient({
      transport: transport(proxied),
      topic,
      version: '1.0',
      timeoutMs: 4000,
    });
    assert.equal(await client.call('echo', { n: -1 }), -1);

    const total = 400;
    const outcomes: ('ok' | 'lost' | 'timeout' | 'wrong')[] = [];
    const casts: ('confirmed' | 'failed')[] = [];
    const confirmed = new Set<number>();
    let next = 0;
    const caller = async () => {
      while (next < total) {
        const n = next++;
        if (n === 100) proxy.cut(300); // the broker "restarts": connections cut, refused for 300 ms
        try {
          outcomes[n] = (await client.call('echo', { n })) === n ? 'ok' : 'wrong';
        } catch (error) {
          if (error instanceof RpcConnectionLostError) outcomes[n] = 'lost';
          else if (error instanceof RpcTimeoutError) outcomes[n] = 'timeout';
          else throw error;
        }
      }
    };
    const caster = async () => {
      for (let n = 0; n < 150; n++) {
        try {
          await client.cast('record', { n });
          confirmed.add(n);
          casts[n] = 'confirmed';
        } catch {
          casts[n] = 'failed';
        }
        await new Promise((resolve) => setTimeout(resolve, 3));
      }
    };
    const started = Date.now();
    await Promise.all([caller(), caller(), caller(), caller(), caller(), caller(), caster()]);

    const count = (what: string) => outcomes.filter((o) => o === what).length;
    assert.equal(outcomes.filter((o) => o !== undefined).length, total, 'every call settled');
    assert.equal(count('wrong'), 0);
    assert.ok(count('lost') >= 1, 'calls in flight at the cut fail with a clear error');
    assert.ok(count('ok') >= total - 20, `most calls complete (${count('ok')} of ${total})`);
    assert.ok(
      outcomes.slice(-50).every((o) => o === 'ok'),
      'after reconnecting every call works',
    );
    assert.ok(Date.now() - started < 20_000);
    // Casts: confirmed ones reach the server (at least once); none is lost silently.
    assert.equal(casts.length, 150);
    assert.ok(confirmed.size >= 140, `${confirmed.size} casts confirmed`);
    const deadline = Date.now() + 5000;
    while ([...confirmed].some((n) => !seen.has(n)) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual(
      [...confirmed].filter((n) => !seen.has(n)),
      [],
    );
  });

  test('a call made while the broker is unreachable waits for the reconnection, within its timeout', async () => {
    const topic = `wait_${run}`;
    topics.push(topic);
    await echoServer(topic, AMQP_URL, new Set());
    const clientTransport = transport(proxied);
    const client = new RpcClient({
      transport: clientTransport,
      topic,
      version: '1.0',
      timeoutMs: 3000,
    });
    assert.equal(await client.call('echo', { n: 1 }), 1);
    proxy.cut(400);
    await new Promise((resolve) => setTimeout(resolve, 50)); // the client has seen the cut
    assert.equal(await client.call('echo', { n: 2 }), 2);
    proxy.cut(5000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await assert.rejects(
      client.prepare({ timeoutMs: 300 }).call('echo', { n: 3 }),
      (e: unknown) => {
        return e instanceof RpcTimeoutError && /not connected to the broker/.test(e.message);
      },
    );
  });

  test('dropping its own connection: in-flight calls fail at once, the next ones succeed', async () => {
    const topic = `drop_${run}`;
    topics.push(topic);
    await echoServer(topic, AMQP_URL, new Set());
    const clientTransport = transport(AMQP_URL);
    const client = new RpcClient({
      transport: clientTransport,
      topic,
      version: '1.0',
      timeoutMs: 5000,
    });
    assert.equal(await client.call('echo', { n: 1 }), 1);
    const inFlight = Promise.all(Array.from({ length: 20 }, () => client.call('slow')));
    await new Promise((resolve) => setTimeout(resolve, 50)); // sent, being handled
    clientTransport.dropConnection('test');
    const started = Date.now();
    await assert.rejects(inFlight, RpcConnectionLostError);
    // At once: well before the calls' own timeout would have ended them.
    assert.ok(Date.now() - started < 5000);
    assert.equal(await client.call('echo', { n: 5 }), 5);
  });

  test('a connection cut while its channel opens is closed for good, and the call goes through', async () => {
    const topic = `channel_cut_${run}`;
    topics.push(topic);
    await echoServer(topic, AMQP_URL, new Set());
    // A proxy of its own: the shared one may still be refusing after the tests above.
    const broker = new URL(AMQP_URL);
    const own = await TcpProxy.start(broker.hostname, Number(broker.port || 5672));
    broker.hostname = '127.0.0.1';
    broker.port = String(own.port);
    // amqplib's heartbeat timers of the connections made from here: each must be cleared.
    const heartbeats = new Set<number>();
    const hook = createHook({
      init(id, type) {
        if (type === 'Timeout' && /amqplib[\\/]lib[\\/]heartbeat/.test(new Error().stack ?? ''))
          heartbeats.add(id);
      },
      destroy(id) {
        heartbeats.delete(id);
      },
    }).enable();
    own.cutAtFirstChannelFrame();
    const clientTransport = new AmqpTransport({ url: broker.toString(), exchange });
    try {
      const client = new RpcClient({
        transport: clientTransport,
        topic,
        version: '1.0',
        timeoutMs: 3000,
      });
      // The first connection opens, then its socket dies while the channel is being opened;
      // the transport reconnects and the call is answered.
      assert.equal(await client.call('echo', { n: 7 }), 7);
      assert.equal(own.channelCuts, 1);
    } finally {
      await clientTransport.close();
      await own.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
      hook.disable();
    }
    // Nothing of either connection keeps running: a connection left unclosed kept its
    // heartbeat timers, which kept the test process alive after its last test.
    assert.deepEqual([...heartbeats], []);
  });

  test('a cast nobody can receive is refused, not lost', async () => {
    const client = new RpcClient({
      transport: transport(AMQP_URL),
      topic: `nobody_${run}`,
      version: '1.0',
      timeoutMs: 3000,
    });
    await assert.rejects(client.cast('record', { n: 1 }), NoRpcServerError);
    await assert.rejects(
      client.prepare({ fanout: true }).cast('record', { n: 1 }),
      NoRpcServerError,
    );
    topics.push(`nobody_${run}`);
  });
});
