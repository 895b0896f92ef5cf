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
 *
 * Credentials (http-rpc-auth.ts): the client's go with every request; a 401 lets the client
 * renew them and send once more (keystoneauth's re-authentication), then it is
 * RpcAuthenticationError, as a 403 or a server that cannot check them (503) are at once.
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
import { type RpcLogger, stderrRpcLogger } from '../observer.ts';
import { decodeResponseMessage, encodeRequest, JSON_RPC_CODES } from './http-json-rpc.ts';
import {
  allClientAuths,
  allServerAuths,
  type HttpRpcClientAuth,
  type HttpRpcServerAuth,
  sharedSecretClientAuth,
  sharedSecretServerAuth,
} from './http-rpc-auth.ts';
import { JsonRpcHttpClient, type Sent } from './http-rpc-client.ts';
import { HttpRpcListener, RPC_PATH_PREFIX } from './http-rpc-listener.ts';
import {
  DIRECTORY_CACHE_MS,
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
  /** Further credentials this process sends (a Keystone token), beside the shared secret. */
  readonly clientAuth?: HttpRpcClientAuth;
  /** Further checks this process's server makes (a Keystone token), after the shared secret. */
  readonly serverAuth?: HttpRpcServerAuth;
  /** Where the server reports a refused request (one warning each). */
  readonly logger?: RpcLogger;
  /** Concurrent connections per server (default 64). */
  readonly maxSockets?: number;
  /** Most calls in one JSON-RPC batch (default 64; 1 sends every call alone). */
  readonly maxBatch?: number;
  readonly directory?: ServerDirectoryOptions;
  /**
   * How long a stopping server keeps serving after it has withdrawn from the directory, when
   * another server of its topic is live: clients reuse a lookup for `directory.cacheMs`, and a
   * call sent to a server already gone could be lost on its way. Default: the directory's
   * cache time and 250 ms more. A service that stops sending to a server by other means first
   * (the bare metal hash ring) sets 0.
   */
  readonly stopGraceMs?: number;
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
  readonly #clientAuth: HttpRpcClientAuth | undefined;
  readonly #serverAuth: HttpRpcServerAuth | undefined;
  readonly #optionsCache = new Map<string, RequestOptions>();
  #nextId = 1;
  #roundRobin = 0;

  constructor(options: HttpTransportOptions) {
    this.#options = options;
    this.#agent = new Agent({ keepAlive: true, maxSockets: options.maxSockets ?? 64 });
    this.#directory = new HttpServerDirectory(options.peers, options.directory);
    const secret = options.sharedSecret;
    this.#clientAuth = allClientAuths([
      ...(secret === undefined ? [] : [sharedSecretClientAuth(secret)]),
      ...(options.clientAuth === undefined ? [] : [options.clientAuth]),
    ]);
    this.#serverAuth = allServerAuths([
      ...(secret === undefined ? [] : [sharedSecretServerAuth(secret)]),
      ...(options.serverAuth === undefined ? [] : [options.serverAuth]),
    ]);
    this.#listener = new HttpRpcListener(
      this.#serverAuth,
      options.logger ?? stderrRpcLogger('baton rpc'),
    );
    this.#client = new JsonRpcHttpClient(options.maxBatch ?? 64);
    this.#headers = { 'content-type': 'application/json' };
  }

  /**
   * The credentials into the headers every cached request option shares (changed in place, so
   * a renewed token reaches them all). Their failure to be had is RpcAuthenticationError.
   */
  async #authorize(): Promise<void> {
    const auth = this.#clientAuth;
    if (auth === undefined) return;
    Object.assign(this.#headers, await auth.headers());
  }

  /** A 401 answer, to be sent once more with renewed credentials (the caller sends it once). */
  #retryAfter(sent: Sent): boolean {
    return (
      sent.kind !== 'refused' &&
      sent.kind !== 'lost' &&
      sent.kind !== 'timeout' &&
      sent.status === 401 &&
      this.#clientAuth?.refused?.() === true
    );
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
        if (this.#clientAuth !== undefined) await this.#authorize();
        let sent = await this.#client.send(options, id, body, left, true);
        if (this.#retryAfter(sent)) {
          await this.#authorize();
          sent = await this.#client.send(
            options,
            id,
            body,
            Math.max(1, deadline - Date.now()),
            true,
          );
        }
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
        const post = async () => {
          if (this.#clientAuth !== undefined) await this.#authorize();
          return this.#client.send(options, undefined, body, deadline - Date.now(), false);
        };
        let sent = await post();
        if (this.#retryAfter(sent)) sent = await post();
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
    if (sent.status === 401 || sent.status === 403 || sent.status === 503) {
      const said =
        sent.kind === 'answer' && isObject(sent.message) && isObject(sent.message.error)
          ? sent.message.error.message
          : undefined;
      // A 503 without a JSON-RPC error is not the server's auth speaking (a proxy, say).
      if (sent.status !== 503 || said !== undefined) {
        const why =
          sent.status === 401
            ? 'the server refused the credentials'
            : sent.status === 403
              ? 'the credentials lack a role the server requires'
              : 'the server cannot check credentials now';
        throw new RpcAuthenticationError(
          `RPC '${method}' to ${dest.topic}: ${why}${typeof said === 'string' ? ` (${said})` : ''}`,
          sent.status,
        );
      }
    }
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
        await this.#afterWithdrawal(target.topic, target.server);
        await this.#listener.remove(route);
      },
    };
    this.#listeners.add(listener);
    return listener;
  }

  /** Serves on while clients may still find the withdrawn server, if another one can take over. */
  async #afterWithdrawal(topic: string, server: string): Promise<void> {
    const graceMs =
      this.#options.stopGraceMs ?? (this.#options.directory?.cacheMs ?? DIRECTORY_CACHE_MS) + 250;
    if (graceMs <= 0) return;
    const others = await this.#options.peers.findPeers().then(
      (peers) => peers.filter((peer) => peer.topic === topic && peer.server !== server),
      () => [],
    );
    if (others.length > 0) await new Promise((resolve) => setTimeout(resolve, graceMs));
  }

  async close(): Promise<void> {
    await Promise.all([...this.#listeners].map((l) => l.stop()));
    await this.#listener.close();
    this.#serverAuth?.close?.();
    this.#agent.destroy();
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
