/**
 * The http transport's listener stops as the APIs do (service/http/http-drain.ts): a caller's
 * keep-alive connection, idle or with a call in hand, never keeps a stopping conductor alive
 * for the keep-alive timeout (30 s): the call in hand is answered with `Connection: close`,
 * and idle connections are closed at once.
 */
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { describe, test } from 'node:test';
import { HttpRpcListener } from '../../../src/rpc/transports/http-rpc-listener.ts';

/** A raw keep-alive connection collecting what the listener sends. */
function open(port: number): { socket: Socket; received: () => string; closed: Promise<void> } {
  const socket = connect(port, '127.0.0.1');
  let text = '';
  socket.on('data', (chunk) => {
    text += chunk;
  });
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, received: () => text, closed };
}

function call(id: number): string {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'ping',
    params: { version: '1.0', namespace: null, server: 'h1', args: {} },
  });
  return (
    'POST /rpc/topic HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

const until = async (check: () => boolean) => {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(check());
};

describe('http RPC listener: stopping', () => {
  test('a call in hand is answered with Connection: close; idle keep-alive connections close at once', async () => {
    const listener = new HttpRpcListener();
    const port = await listener.start('127.0.0.1', 0);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let calls = 0;
    listener.add({ topic: 'topic', server: 'h1' }, async () => {
      calls++;
      if (calls > 1) await held;
      return { ok: true, result: 'pong' };
    });
    // One connection that made a call and now sits idle, kept alive.
    const idle = open(port);
    idle.socket.write(call(1));
    await until(() => idle.received().includes('pong'));
    assert.doesNotMatch(idle.received(), /connection: close/i);
    // One with a call in hand when the listener closes.
    const busy = open(port);
    busy.socket.write(call(2));
    await until(() => calls === 2);
    const started = performance.now();
    const closing = listener.close();
    await idle.closed;
    release();
    await until(() => busy.received().includes('pong'));
    assert.match(busy.received(), /connection: close/i);
    await busy.closed;
    await closing;
    const seconds = (performance.now() - started) / 1000;
    assert.ok(seconds < 2, `closed in ${seconds} s, not after the keep-alive timeout`);
  });
});
