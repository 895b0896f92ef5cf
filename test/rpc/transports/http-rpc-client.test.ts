/**
 * The http transport's sending half when a server closes its idle kept-alive connections (as a
 * stopping worker does): a call sent on such a socket is sent again on a new connection, so a
 * pool holding several closed sockets loses nothing; a call whose connection fails after it was
 * read is lost, as before.
 */
import assert from 'node:assert/strict';
import { Agent, createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { JsonRpcHttpClient } from '../../../src/rpc/transports/http-rpc-client.ts';

describe('the http RPC client and closed kept-alive sockets', () => {
  let server: Server;
  let port: number;
  /** When set, a request on a connection that served one before is dropped unread. */
  let dropReused = false;
  /** When set, every request is dropped after it was read. */
  let dropAll = false;
  const served = new WeakMap<Socket, number>();
  let newConnections = 0;

  before(async () => {
    server = createServer((req: IncomingMessage, res) => {
      const socket = req.socket;
      const before = served.get(socket) ?? 0;
      served.set(socket, before + 1);
      if (before === 0) newConnections++;
      if (dropAll || (dropReused && before > 0)) {
        socket.destroy();
        return;
      }
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        const { id } = JSON.parse(body) as { id: number };
        res.setHeader('content-type', 'application/json');
        res.end(`${JSON.stringify({ jsonrpc: '2.0', id, result: 'ok' })}\n`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const send = (client: JsonRpcHttpClient, agent: Agent, id: number) =>
    client.send(
      { host: '127.0.0.1', port, method: 'POST', path: '/', agent },
      id,
      JSON.stringify({ jsonrpc: '2.0', id, method: 'ping', params: {} }),
      5000,
      false,
    );

  it('sends a call again on a new connection when every pooled socket was closed', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const client = new JsonRpcHttpClient(16);
    try {
      // Three calls at once leave three sockets in the pool.
      const warm = await Promise.all([1, 2, 3].map((id) => send(client, agent, id)));
      assert.deepEqual(
        warm.map((sent) => sent.kind),
        ['answer', 'answer', 'answer'],
      );
      assert.equal(newConnections, 3);
      dropReused = true;
      const sent = await send(client, agent, 4);
      assert.equal(sent.kind, 'answer', JSON.stringify(sent));
      assert.deepEqual((sent as { message: unknown }).message, {
        jsonrpc: '2.0',
        id: 4,
        result: 'ok',
      });
      assert.equal(newConnections, 4, 'the call went again on one new connection');
    } finally {
      dropReused = false;
      agent.destroy();
    }
  });

  it('reports a call lost when its new connection fails after the server read it', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const client = new JsonRpcHttpClient(16);
    try {
      dropAll = true;
      const sent = await send(client, agent, 5);
      assert.equal(sent.kind, 'lost', JSON.stringify(sent));
    } finally {
      dropAll = false;
      agent.destroy();
    }
  });
});
