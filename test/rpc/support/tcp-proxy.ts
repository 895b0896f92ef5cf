/**
 * A TCP proxy of the test's own between a client and the broker, so a test
 * can cut every connection (as a broker restart or a network failure would)
 * and refuse new ones for a while, without touching the shared broker.
 */

import type { AddressInfo } from 'node:net';
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export class TcpProxy {
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  #refusing = false;
  #cutAtChannelFrame = false;
  cuts = 0;
  channelCuts = 0;

  private constructor(server: Server) {
    this.#server = server;
  }

  static async start(targetHost: string, targetPort: number): Promise<TcpProxy> {
    const server = createServer();
    const proxy = new TcpProxy(server);
    server.on('connection', (client) => proxy.#accept(client, targetHost, targetPort));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    return (this.#server.address() as AddressInfo).port;
  }

  #accept(client: Socket, host: string, port: number): void {
    if (this.#refusing) {
      client.destroy();
      return;
    }
    const upstream = createConnection({ host, port });
    for (const socket of [client, upstream]) {
      this.#sockets.add(socket);
      socket.setNoDelay(true);
      socket.on('close', () => this.#sockets.delete(socket));
      socket.on('error', () => {});
    }
    if (this.#cutAtChannelFrame) {
      this.#cutAtChannelFrame = false;
      this.#forwardUntilChannelFrame(client, upstream);
    } else {
      client.pipe(upstream);
    }
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }

  /**
   * The next connection is cut when the client sends its first frame on a channel (the
   * channel.open that follows a completed handshake): the client's connection is open, and
   * its first channel is being opened.
   */
  cutAtFirstChannelFrame(): void {
    this.#cutAtChannelFrame = true;
  }

  #forwardUntilChannelFrame(client: Socket, upstream: Socket): void {
    // AMQP 0-9-1: an 8-byte protocol header, then frames of type (1 byte), channel (2),
    // payload size (4), payload and a frame-end byte.
    let pending = Buffer.alloc(0);
    let headerSeen = false;
    client.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      let forward = 0;
      for (;;) {
        if (!headerSeen) {
          if (pending.length < 8) break;
          headerSeen = true;
          forward = 8;
          continue;
        }
        if (pending.length < forward + 7) break;
        const channel = pending.readUInt16BE(forward + 1);
        if (channel !== 0) {
          upstream.write(pending.subarray(0, forward));
          this.channelCuts++;
          client.destroy();
          upstream.destroy();
          return;
        }
        const end = forward + 7 + pending.readUInt32BE(forward + 3) + 1;
        if (pending.length < end) break;
        forward = end;
      }
      upstream.write(pending.subarray(0, forward));
      pending = pending.subarray(forward);
    });
  }

  /** Drops every connection now; with `refuseMs`, new ones are dropped too for that long. */
  cut(refuseMs = 0): void {
    this.cuts++;
    for (const socket of this.#sockets) socket.destroy();
    if (refuseMs > 0) {
      this.#refusing = true;
      setTimeout(() => {
        this.#refusing = false;
      }, refuseMs).unref();
    }
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
