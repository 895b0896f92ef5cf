/**
 * The embedded default transport: JSON-RPC 2.0 over HTTP (http-json-rpc.ts),
 * nothing to install. A server listens on a configured address (loopback,
 * any port, by default) and announces it in the peer directory it is given
 * (the services table, in Baton's services: binary = topic, host = server
 * name); a client finds the live servers of a topic there
 * (http-server-directory.ts) and keeps connections alive.
 *
 * Outcomes of a call: a refused connection means nothing was sent, so the
 * next server is tried (after a fresh lookup); a connection that breaks
 * after sending is RpcConnectionLostError; no answer in time is
 * RpcTimeoutError. A cast resolves when the server has accepted it (202).
 */
import { Agent, type OutgoingHttpHeaders, type RequestOptions } from 'node:http';
import { hostname } from 'node:os';
import {
  NoRpcServerError,
  RpcAuthenticationError,
  RpcConnectionLostError,
  type RpcDestination,
  RpcError,
  RpcTimeoutError,
} from '../errors.ts';
import type { RpcReply, RpcRequest } from '../message.ts';
import { decodeResponseMessage, encodeRequest, JSON_RPC_CODES } from './http-json-rpc.ts';
import { JsonRpcHttpClient, type Sent } from './http-rpc-client.ts';
import { HttpRpcListener, RPC_PATH_PREFIX } from './http-rpc-listener.ts';
import {
  HttpServerDirectory,
  type RpcServerAddress,
  type ServerDirectoryOptions,
} from './http-server-directory.ts';
import type { RpcPeerDirectory } from './peer-directory.ts';
import type { RpcListener, RpcListenTarget, RpcRequestHandler, RpcTransport } from './transport.ts';

/** How the HTTP transport finds servers and listens. */
export interface HttpTransportOptions {
  /** Where servers announce their address and clients look them up. */
  readonly peers: RpcPeerDirectory;
  /** Listen address; default 127.0.0.1, port 0 (any free port). */
  readonly host?: string;
  readonly port?: number;
  /** The host name peers should use (default: the listen host; the machine's name on a wildcard). */
  readonly advertiseHost?: string;
  /** When set, every request must carry it (`Authorization: Bearer`). */
  readonly sharedSecret?: string;
  /** Concurrent connections per server (default 64). */
  readonly maxSockets?: number;
  /** Most calls in one JSON-RPC batch (default 64; 1 sends every call alone). */
  readonly maxBatch?: number;
  readonly directory?: ServerDirectoryOptions;
}

const WILDCARDS = new Set(['0.0.0.0', '::', '']);

/** RPC over HTTP: servers announce their address in a directory, clients post to it. */
export class HttpTransport implements RpcTransport {
  readonly kind = 'http';
  readonly #options: HttpTransportOptions;
  readonly #agent: Agent;
  readonly #directory: HttpServerDirectory;
  readonly #listener: HttpRpcListener;
  readonly #listeners = new Set<RpcListener>();
  readonly #client: JsonRpcHttpClient;
  readonly #headers: OutgoingHttpHeaders;
  readonly #optionsCache = new Map<string, RequestOptions>();
  #nextId = 1;
  #roundRobin = 0;

  constructor(options: HttpTransportOptions) {
    this.#options = options;
    this.#agent = new Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 64 });
    this.#directory = new HttpServerDirectory(options.peers, options.directory);
    this.#listener = new HttpRpcListener(options.sharedSecret);
    this.#client = new JsonRpcHttpClient(options.maxBatch ?? 64);
    this.#headers = { 'content-type': 'application/json' };
    if (options.sharedSecret !== undefined)
      this.#headers.authorization = `Bearer ${options.sharedSecret}`;
  }

  /** Sends a request and waits for its reply. */
  async call(dest: RpcDestination, request: RpcRequest, timeoutMs: number): Promise<RpcReply> {
    const deadline = Date.now() + timeoutMs;
    const id = this.#nextId++;
    const body = encodeRequest(id, request, dest.server);
    let lastRefusal = 'no live server registered in the services table';
    for (let attempt = 0; attempt < 2; attempt++) {
      const servers = await this.#servers(dest);
      for (const target of this.#rotate(servers)) {
        const left = deadline - Date.now();
        if (left <= 0) throw new RpcTimeoutError(dest, request.method, timeoutMs);
        const options = this.#requestOptions(target.address, dest.topic);
        const sent = await this.#client.send(options, id, body, left, true);
        if (sent.kind === 'timeout') throw new RpcTimeoutError(dest, request.method, timeoutMs);
        if (sent.kind === 'lost')
          throw new RpcConnectionLostError(dest, request.method, sent.reason);
        if (sent.kind === 'refused') {
          lastRefusal = `${target.server} at ${target.address}: ${sent.reason}`;
          continue;
        }
        const decoded = this.#decode(dest, request.method, sent);
        if (decoded.code === JSON_RPC_CODES.noSuchTarget) {
          // A stale row: another process took the port. Nothing ran there.
          lastRefusal = `${target.server} at ${target.address}: ${decoded.reply.ok ? '' : decoded.reply.failure.message}`;
          continue;
        }
        return decoded.reply;
      }
      this.#directory.invalidate();
    }
    throw new NoRpcServerError(dest, request.method, lastRefusal);
  }

  /** Sends a request without waiting for a reply. */
  async cast(dest: RpcDestination, request: RpcRequest, timeoutMs: number): Promise<void> {
    const body = encodeRequest(undefined, request, dest.server);
    if (!dest.fanout) {
      await this.#castTo(dest, request.method, body, timeoutMs, false);
      return;
    }
    const servers = await this.#servers(dest);
    if (servers.length === 0)
      throw new NoRpcServerError(dest, request.method, 'no live server registered');
    const results = await Promise.allSettled(
      servers.map((s) =>
        this.#castTo(
          { topic: dest.topic, server: s.server },
          request.method,
          body,
          timeoutMs,
          true,
        ),
      ),
    );
    const failed = results.flatMap((r, i) =>
      r.status === 'rejected' ? [`${servers[i]?.server}: ${(r.reason as Error).message}`] : [],
    );
    if (failed.length > 0) {
      throw new RpcError(
        `fanout cast '${request.method}' to topic '${dest.topic}' reached ${servers.length - failed.length} of ${servers.length} servers; failed: ${failed.join('; ')}`,
      );
    }
  }

  async #castTo(
    dest: RpcDestination,
    method: string,
    body: string,
    timeoutMs: number,
    exact: boolean,
  ): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    let lastRefusal = 'no live server registered in the services table';
    for (let attempt = 0; attempt < 2; attempt++) {
      const servers = await this.#servers(dest);
      for (const target of exact ? servers.slice(0, 1) : this.#rotate(servers)) {
        const options = this.#requestOptions(target.address, dest.topic);
        const sent = await this.#client.send(
          options,
          undefined,
          body,
          deadline - Date.now(),
          false,
        );
        if (sent.kind === 'timeout') throw new RpcTimeoutError(dest, method, timeoutMs);
        if (sent.kind === 'lost') throw new RpcConnectionLostError(dest, method, sent.reason);
        if (sent.kind === 'refused') {
          lastRefusal = `${target.server}: ${sent.reason}`;
          continue;
        }
        if (sent.kind === 'answer' && sent.status === 202) return;
        const decoded = this.#decode(dest, method, sent);
        if (decoded.code === JSON_RPC_CODES.noSuchTarget) continue;
        throw new RpcError(
          `cast '${method}' to ${dest.topic} refused: ${decoded.reply.ok ? sent.status : decoded.reply.failure.message}`,
        );
      }
      this.#directory.invalidate();
    }
    throw new NoRpcServerError(dest, method, lastRefusal);
  }

  #decode(
    dest: RpcDestination,
    method: string,
    sent: Extract<Sent, { kind: 'answer' | 'unreadable' }>,
  ) {
    if (sent.status === 401)
      throw new RpcAuthenticationError(
        `RPC '${method}' to ${dest.topic}: the server refused the shared secret`,
      );
    const unreadable = (reason: string) =>
      new RpcConnectionLostError(
        dest,
        method,
        `HTTP ${sent.status} with an unreadable body: ${reason}`,
      );
    if (sent.kind === 'unreadable') throw unreadable(sent.reason);
    try {
      return decodeResponseMessage(sent.message);
    } catch (error) {
      throw unreadable((error as Error).message);
    }
  }

  async #servers(dest: RpcDestination): Promise<RpcServerAddress[]> {
    return this.#directory.find(dest.topic, dest.server);
  }

  #rotate(servers: RpcServerAddress[]): RpcServerAddress[] {
    if (servers.length <= 1) return servers;
    const start = this.#roundRobin++ % servers.length;
    return [...servers.slice(start), ...servers.slice(0, start)];
  }

  /** Request options per server and topic, built once (no URL parsing per call). */
  #requestOptions(address: string, topic: string): RequestOptions {
    const key = `${address} ${topic}`;
    let options = this.#optionsCache.get(key);
    if (options === undefined) {
      const url = new URL(address);
      options = {
        host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: url.port === '' ? 80 : Number(url.port),
        path: RPC_PATH_PREFIX + encodeURIComponent(topic),
        method: 'POST',
        headers: this.#headers,
        agent: this.#agent,
      };
      if (this.#optionsCache.size > 1000) this.#optionsCache.clear();
      this.#optionsCache.set(key, options);
    }
    return options;
  }

  /** Starts taking requests for a target. */
  async listen(target: RpcListenTarget, handler: RpcRequestHandler): Promise<RpcListener> {
    const o = this.#options;
    const host = o.host ?? '127.0.0.1';
    const port = await this.#listener.start(host, o.port ?? 0);
    const route = this.#listener.add(target, handler);
    const advertised = o.advertiseHost ?? (WILDCARDS.has(host) ? hostname() : host);
    const urlHost = advertised.includes(':') ? `[${advertised}]` : advertised;
    const registration = await o.peers.registerSelf({
      topic: target.topic,
      server: target.server,
      address: `http://${urlHost}:${port}`,
    });
    const listener: RpcListener = {
      stop: async () => {
        this.#listeners.delete(listener);
        await registration.withdraw().catch(() => {});
        await this.#listener.remove(route);
      },
    };
    this.#listeners.add(listener);
    return listener;
  }

  async close(): Promise<void> {
    await Promise.all([...this.#listeners].map((l) => l.stop()));
    await this.#listener.close();
    this.#agent.destroy();
  }
}
