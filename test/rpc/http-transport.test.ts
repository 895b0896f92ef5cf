/**
 * What only the http transport has: JSON-RPC 2.0 on the wire, the listen
 * address registered in the services table (loopback by default), peers
 * found there, a stale address skipped, the optional shared secret and other
 * credentials (a refusal logged, a 401 retried once with renewed ones), a
 * connection that breaks mid-call, and calls of one turn travelling as a
 * JSON-RPC batch whose answers stream back each on its own.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { type Database, listServices, openDatabase, registerService } from '../../src/db/index.ts';
import {
  type HttpRpcVerdict,
  HttpTransport,
  type HttpTransportOptions,
  NoRpcServerError,
  RpcAuthenticationError,
  RpcClient,
  RpcConnectionLostError,
  type RpcPeer,
  type RpcPeerDirectory,
  RpcServer,
  RpcTimeoutError,
  UnknownMethodError,
} from '../../src/rpc/index.ts';
import { servicesTablePeers } from '../../src/service/index.ts';
import { createScratchDatabase } from '../db/support/backends.ts';

/** A peer directory in memory: what is announced, by `<topic> <server>`. */
function memoryDirectory() {
  const announced = new Map<string, RpcPeer>();
  const directory: RpcPeerDirectory = {
    findPeers: async () => [...announced.values()],
    registerSelf: async (self) => {
      const key = `${self.topic} ${self.server}`;
      announced.set(key, self);
      return { withdraw: async () => void announced.delete(key) };
    },
  };
  return { announced, directory };
}

describe('http transport', () => {
  let scratch: { url: string; drop: () => Promise<void> };
  let db: Database;
  const transports: HttpTransport[] = [];
  before(async () => {
    scratch = await createScratchDatabase('sqlite');
    db = await openDatabase(scratch.url);
  });
  after(async () => {
    await Promise.all(transports.map((t) => t.close()));
    await db.close();
    await scratch.drop();
  });
  const transport = (options: Omit<HttpTransportOptions, 'peers'> = {}) => {
    const t = new HttpTransport({ peers: servicesTablePeers(db), ...options });
    transports.push(t);
    return t;
  };
  const endpoint = {
    version: '1.0',
    methods: {
      ping: {
        params: { x: 'optional' as const },
        handle: (args: Record<string, unknown>) => args.x ?? 'pong',
      },
    },
  };
  async function serve(topic: string, options: Omit<HttpTransportOptions, 'peers'> = {}) {
    const server = new RpcServer({
      transport: transport(options),
      topic,
      server: 'h1',
      endpoints: [endpoint],
    });
    await server.start();
    const row = (await listServices(db)).find((s) => s.binary === topic && s.host === 'h1');
    return { server, address: row?.rpcAddress ?? '' };
  }

  test('a server registers a loopback address; stopping removes it', async () => {
    const { server, address } = await serve('reg');
    assert.match(address, /^http:\/\/127\.0\.0\.1:\d+$/);
    const client = new RpcClient({ transport: transport(), topic: 'reg', version: '1.0' });
    assert.equal(await client.call('ping'), 'pong');
    await server.stop();
    assert.equal(
      (await listServices(db)).some((s) => s.binary === 'reg'),
      false,
    );
    await assert.rejects(client.call('ping'), NoRpcServerError);
  });

  test('any peer directory will do: servers announce themselves there, clients find them there', async () => {
    // No database: an in-memory list stands in for the services table.
    const { announced, directory } = memoryDirectory();
    const serving = new HttpTransport({ peers: directory });
    const calling = new HttpTransport({ peers: directory, directory: { cacheMs: 0 } });
    transports.push(serving, calling);
    const server = new RpcServer({
      transport: serving,
      topic: 'memory',
      server: 'm1',
      endpoints: [endpoint],
    });
    await server.start();
    assert.deepEqual(
      [...announced.values()].map((p) => [p.topic, p.server]),
      [['memory', 'm1']],
    );
    assert.match(announced.get('memory m1')?.address ?? '', /^http:\/\/127\.0\.0\.1:\d+$/);
    const client = new RpcClient({ transport: calling, topic: 'memory', version: '1.0' });
    assert.equal(await client.call('ping', { x: 'via memory' }), 'via memory');
    await server.stop();
    assert.equal(announced.size, 0, 'stopping withdraws the announcement');
    await assert.rejects(client.call('ping'), NoRpcServerError);
  });

  test('a stopping server withdraws, then serves on while clients may still hold its address, if another can take over', async () => {
    const { announced, directory } = memoryDirectory();
    const start = async (server: string) => {
      const t = new HttpTransport({ peers: directory, directory: { cacheMs: 300 } });
      transports.push(t);
      const s = new RpcServer({ transport: t, topic: 'grace', server, endpoints: [endpoint] });
      await s.start();
      return s;
    };
    const first = await start('g1');
    const address = announced.get('grace g1')?.address ?? '';
    const second = await start('g2');
    const at = Date.now();
    const stopping = first.stop();
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(announced.has('grace g1'), false, 'withdrawn at once');
    // A client whose lookup is 150 ms old still reaches it.
    const direct = await fetch(`${address}/rpc/grace`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'ping',
        params: { version: '1.0', namespace: null, args: {} },
      }),
    });
    assert.deepEqual(await direct.json(), { jsonrpc: '2.0', id: 1, result: 'pong' });
    await stopping;
    const graceMs = Date.now() - at;
    assert.ok(
      graceMs >= 500 && graceMs < 2_000,
      `served 300 + 250 ms after withdrawing (${graceMs})`,
    );
    // The last server of its topic has nobody to hand calls to: it stops at once.
    const lastAt = Date.now();
    await second.stop();
    assert.ok(Date.now() - lastAt < 300, `alone, no wait (${Date.now() - lastAt} ms)`);
  });

  test('the wire is JSON-RPC 2.0: results, errors, notifications and malformed bodies', async () => {
    const { address } = await serve('wire');
    const post = async (body: string) => {
      const res = await fetch(`${address}/rpc/wire`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
      });
      const text = await res.text();
      return { status: res.status, json: text === '' ? undefined : JSON.parse(text) };
    };
    const call = (method: string, version: string, args: object) =>
      JSON.stringify({ jsonrpc: '2.0', id: 9, method, params: { version, namespace: null, args } });
    assert.deepEqual(await post(call('ping', '1.0', { x: 5 })), {
      status: 200,
      json: { jsonrpc: '2.0', id: 9, result: 5 },
    });
    const unsupported = await post(call('ping', '1.3', {}));
    assert.equal(unsupported.json.error.code, -32001);
    assert.equal(unsupported.json.error.data.type, 'UnsupportedVersionError');
    assert.deepEqual(unsupported.json.error.data.data, {
      method: 'ping',
      requested: '1.3',
      served: ['1.0'],
    });
    assert.equal((await post(call('nope', '1.0', {}))).json.error.code, -32601);
    assert.equal((await post(call('ping', '1.0', { y: 1 }))).json.error.code, -32602);
    const notification = JSON.stringify({
      jsonrpc: '2.0',
      method: 'ping',
      params: { version: '1.0', args: {} },
    });
    assert.deepEqual(await post(notification), { status: 202, json: undefined });
    const garbage = await post('{not json');
    assert.equal(garbage.status, 400);
    assert.equal(garbage.json.error.code, -32700);
    const noVersion = await post(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { args: {} } }),
    );
    assert.equal(noVersion.json.error.code, -32600);
    assert.equal(noVersion.json.id, 1);
    const elsewhere = await fetch(`${address}/rpc/other-topic`, {
      method: 'POST',
      body: call('ping', '1.0', {}),
    });
    assert.equal(((await elsewhere.json()) as { error: { code: number } }).error.code, -32002);
    assert.equal((await fetch(`${address}/`, { method: 'GET' })).status, 404);
  });

  test('with a shared secret, a client without it or with another is refused', async () => {
    await serve('secret', { sharedSecret: 's3cret' });
    const call = (sharedSecret?: string) =>
      new RpcClient({
        transport: transport(sharedSecret ? { sharedSecret } : {}),
        topic: 'secret',
        version: '1.0',
      }).call('ping');
    await assert.rejects(call(), RpcAuthenticationError);
    await assert.rejects(call('wrong'), RpcAuthenticationError);
    assert.equal(await call('s3cret'), 'pong');
  });

  test('credentials: a refusal runs nothing and is logged once; a 401 is retried once with renewed ones; 403 and 503 are not', async () => {
    const warnings: string[] = [];
    const logger = {
      debug: () => {},
      info: () => {},
      warn: (_fields: unknown, message: string) => warnings.push(message),
      error: () => {},
    };
    let ran = 0;
    const server = new RpcServer({
      transport: transport({
        logger,
        serverAuth: {
          check(headers): HttpRpcVerdict {
            const token = headers['x-auth-token'];
            if (token === 'good') return { ok: true };
            if (token === 'weak')
              return { ok: false, status: 403, message: 'Forbidden', reason: 'no admin role' };
            if (token === 'later')
              return { ok: false, status: 503, message: 'try later', reason: 'Keystone down' };
            return { ok: false, status: 401, message: 'no', reason: `token ${String(token)}` };
          },
        },
      }),
      topic: 'creds',
      server: 'h1',
      endpoints: [
        {
          version: '1.0',
          methods: { count: { params: {}, handle: () => ++ran } },
        },
      ],
    });
    await server.start();
    const client = (tokens: string[]) => {
      let renewed = 0;
      const c = new RpcClient({
        transport: transport({
          clientAuth: {
            headers: () => ({ 'x-auth-token': tokens[Math.min(renewed, tokens.length - 1)] ?? '' }),
            refused: () => {
              renewed++;
              return true;
            },
          },
        }),
        topic: 'creds',
        version: '1.0',
      });
      return { call: () => c.call('count'), renewals: () => renewed };
    };
    // A stale token, then a good one: the call runs once.
    const stale = client(['stale', 'good']);
    assert.equal(await stale.call(), 1);
    assert.equal(stale.renewals(), 1);
    assert.deepEqual(warnings, [
      `RPC request from 127.0.0.1:${warnings[0]?.match(/:(\d+) /)?.[1]} to topic creds refused (401): token stale`,
    ]);
    // Refused again after the renewal: RpcAuthenticationError, no third try, nothing run.
    const bad = client(['bad', 'worse']);
    await assert.rejects(
      bad.call(),
      (error: Error) => error instanceof RpcAuthenticationError && error.status === 401,
    );
    assert.equal(bad.renewals(), 1);
    for (const [token, status] of [
      ['weak', 403],
      ['later', 503],
    ] as const) {
      const other = client([token]);
      await assert.rejects(
        other.call(),
        (error: Error) =>
          error instanceof RpcAuthenticationError &&
          error.status === status &&
          error.message.includes(status === 403 ? 'Forbidden' : 'try later'),
      );
      assert.equal(other.renewals(), 0, 'only a 401 renews');
    }
    assert.equal(ran, 1);
    assert.equal(warnings.length, 5);
    for (const line of warnings) assert.doesNotMatch(line, /\n/);
    // A check that throws refuses (503), never lets the call through.
    const throwing = new RpcServer({
      transport: transport({
        logger,
        serverAuth: {
          check() {
            throw new Error('boom');
          },
        },
      }),
      topic: 'creds-throw',
      server: 'h1',
      endpoints: [{ version: '1.0', methods: { count: { params: {}, handle: () => ++ran } } }],
    });
    await throwing.start();
    await assert.rejects(
      new RpcClient({ transport: transport(), topic: 'creds-throw', version: '1.0' }).call('count'),
      (error: Error) => error instanceof RpcAuthenticationError && error.status === 503,
    );
    assert.equal(ran, 1);
    await server.stop();
    await throwing.stop();
  });

  test('a stale address in the services table is skipped; a broken connection mid-call is reported', async () => {
    await serve('stale');
    // Another live row of the topic pointing at a port nobody listens on.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await registerService(db, {
      binary: 'stale',
      host: 'h0',
      version: 1,
      rpcAddress: `http://127.0.0.1:${deadPort}`,
    });
    const client = new RpcClient({ transport: transport(), topic: 'stale', version: '1.0' });
    for (let i = 0; i < 4; i++) assert.equal(await client.call('ping', { x: i }), i);

    // A "server" that dies after reading the request.
    const dying = createServer((req) => req.socket.destroy());
    await new Promise<void>((resolve) => dying.listen(0, '127.0.0.1', resolve));
    const port = (dying.address() as AddressInfo).port;
    await registerService(db, {
      binary: 'dying',
      host: 'h1',
      version: 1,
      rpcAddress: `http://127.0.0.1:${port}`,
    });
    const victim = new RpcClient({ transport: transport(), topic: 'dying', version: '1.0' });
    await assert.rejects(victim.call('ping'), (e: unknown) => {
      return (
        e instanceof RpcConnectionLostError &&
        e.method === 'ping' &&
        /may or may not have run/.test(e.message)
      );
    });
    await new Promise<void>((resolve) => dying.close(() => resolve()));
  });

  /** A server whose `slow` waits for the test to open its gate; `ping` answers at once. */
  async function serveGated(topic: string) {
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const server = new RpcServer({
      transport: transport(),
      topic,
      server: 'h1',
      endpoints: [
        {
          version: '1.0',
          methods: {
            ping: endpoint.methods.ping,
            slow: { params: {}, handle: async () => gate.then(() => 'slow done') },
          },
        },
      ],
    });
    await server.start();
    const row = (await listServices(db)).find((s) => s.binary === topic && s.host === 'h1');
    return { open, address: row?.rpcAddress ?? '' };
  }

  test('a JSON-RPC batch is answered with an array streamed as each call is done', async () => {
    const { open, address } = await serveGated('batch-wire');
    const request = (id: number | undefined, method: string, args: object = {}) => ({
      jsonrpc: '2.0',
      ...(id === undefined ? {} : { id }),
      method,
      params: { version: '1.0', namespace: null, args },
    });
    const post = (body: unknown) =>
      fetch(`${address}/rpc/batch-wire`, { method: 'POST', body: JSON.stringify(body) });

    const res = await post([
      request(1, 'slow'),
      request(2, 'ping', { x: 2 }),
      request(undefined, 'ping'),
      request(3, 'nope'),
      { jsonrpc: '1.0', id: 4 },
    ]);
    assert.equal(res.status, 200);
    // Everything but the slow call's answer arrives while it still runs.
    const reader = res.body?.getReader();
    assert.ok(reader);
    const decoder = new TextDecoder();
    let text = '';
    while (!/"id":2/.test(text) || !/"id":3/.test(text) || !/"id":4/.test(text)) {
      const { value, done } = await reader.read();
      assert.equal(done, false, `the stream ended early: ${text}`);
      text += decoder.decode(value, { stream: true });
    }
    assert.doesNotMatch(text, /"id":1/);
    open();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    const answers = JSON.parse(text) as {
      id: number;
      result?: unknown;
      error?: { code: number };
    }[];
    const byId = new Map(answers.map((a) => [a.id, a]));
    assert.equal(answers.length, 4, 'no answer for the notification');
    assert.equal(byId.get(1)?.result, 'slow done');
    assert.equal(byId.get(2)?.result, 2);
    assert.equal(byId.get(3)?.error?.code, -32601);
    assert.equal(byId.get(4)?.error?.code, -32600);

    // Only notifications: nothing to answer. An empty batch: one error object.
    assert.equal((await post([request(undefined, 'ping')])).status, 202);
    const empty = await post([]);
    assert.equal(empty.status, 400);
    assert.equal(((await empty.json()) as { error: { code: number } }).error.code, -32600);
  });

  test('calls of one turn share a batch, each with its own result, error and timeout', async () => {
    const { open } = await serveGated('batch-calls');
    const client = new RpcClient({ transport: transport(), topic: 'batch-calls', version: '1.0' });
    const quick = client.prepare({ timeoutMs: 1000 });
    let slowSettled = false;
    const slow = assert.rejects(
      quick.call('slow').finally(() => {
        slowSettled = true;
      }),
      (e: unknown) => e instanceof RpcTimeoutError && e.method === 'slow',
    );
    const fast = [1, 2, 3].map((x) => client.call('ping', { x }));
    const unknown = assert.rejects(client.call('nope'), UnknownMethodError);
    assert.deepEqual(await Promise.all(fast), [1, 2, 3]);
    await unknown;
    assert.equal(slowSettled, false, 'the fast calls did not wait for the slow one');
    await slow;
    open();
    // The transport still works after giving up on the timed-out call's request.
    assert.equal(await client.call('ping', { x: 9 }), 9);
    assert.equal(await client.call('slow'), 'slow done');
  });

  test('a batch answer missing a call, or out of order, settles each call on its own', async () => {
    const bodies: unknown[] = [];
    const fake = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        const batch = JSON.parse(body) as { id: number; params: { args: { x: number } } }[];
        bodies.push(batch);
        const answer = (r: (typeof batch)[number]) =>
          JSON.stringify({ jsonrpc: '2.0', id: r.id, result: r.params.args.x });
        // Answers in reverse order, in two writes; the first call gets none.
        const [head, ...tail] = batch.slice(1).reverse().map(answer);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(`[\n${head}`);
        setTimeout(() => res.end(`${tail.map((a) => `\n,${a}`).join('')}\n]\n`), 20);
      });
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const port = (fake.address() as AddressInfo).port;
    await registerService(db, {
      binary: 'fake-batch',
      host: 'h1',
      version: 1,
      rpcAddress: `http://127.0.0.1:${port}`,
    });
    const client = new RpcClient({ transport: transport(), topic: 'fake-batch', version: '1.0' });
    const calls = [10, 20, 30, 40].map((x) => client.call('ping', { x }));
    const settled = await Promise.allSettled(calls);
    assert.equal(bodies.length, 1, 'the four calls left in one request');
    assert.ok(Array.isArray(bodies[0]) && bodies[0].length === 4);
    assert.equal(settled[0]?.status, 'rejected');
    assert.ok(
      settled[0]?.status === 'rejected' && settled[0].reason instanceof RpcConnectionLostError,
    );
    assert.deepEqual(
      settled.slice(1).map((s) => (s.status === 'fulfilled' ? s.value : s.reason)),
      [20, 30, 40],
    );
    await new Promise<void>((resolve) => fake.close(() => resolve()));
  });

  test('a connection cut in the middle of a streamed answer: the answered keep their results, the others are lost', async () => {
    const fake = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        const [first] = JSON.parse(body) as { id: number }[];
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(`[\n${JSON.stringify({ jsonrpc: '2.0', id: first?.id, result: 'first' })}\n`);
        setTimeout(() => res.destroy(), 20);
      });
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const port = (fake.address() as AddressInfo).port;
    await registerService(db, {
      binary: 'fake-cut',
      host: 'h1',
      version: 1,
      rpcAddress: `http://127.0.0.1:${port}`,
    });
    const client = new RpcClient({ transport: transport(), topic: 'fake-cut', version: '1.0' });
    const [first, second] = await Promise.allSettled([client.call('ping'), client.call('ping')]);
    assert.deepEqual(first, { status: 'fulfilled', value: 'first' });
    assert.ok(second?.status === 'rejected' && second.reason instanceof RpcConnectionLostError);
    await new Promise<void>((resolve) => fake.close(() => resolve()));
  });
});
