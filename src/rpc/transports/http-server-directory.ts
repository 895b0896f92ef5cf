/**
 * Where the http transport's servers are: what the peer directory lists (the services
 * table, in Baton's services), grouped by topic. Lookups are cached briefly; a refused
 * connection drops the cache so the next lookup sees restarts at once.
 */
import type { RpcPeerDirectory } from './peer-directory.ts';

export interface RpcServerAddress {
  readonly server: string;
  /** `http://host:port` */
  readonly address: string;
}

/** How long a lookup is reused unless told otherwise. */
export const DIRECTORY_CACHE_MS = 1000;

export interface ServerDirectoryOptions {
  /** How long a lookup is reused (default 1000 ms). */
  readonly cacheMs?: number;
}

export class HttpServerDirectory {
  readonly #peers: RpcPeerDirectory;
  readonly #cacheMs: number;
  #cached: { at: number; rows: Promise<Map<string, RpcServerAddress[]>> } | undefined;

  constructor(peers: RpcPeerDirectory, options: ServerDirectoryOptions = {}) {
    this.#peers = peers;
    this.#cacheMs = options.cacheMs ?? DIRECTORY_CACHE_MS;
  }

  /** The live servers of a topic (only the named one when `server` is given). */
  async find(topic: string, server?: string): Promise<RpcServerAddress[]> {
    const all = (await this.#load()).get(topic) ?? [];
    return server === undefined ? all : all.filter((entry) => entry.server === server);
  }

  invalidate(): void {
    this.#cached = undefined;
  }

  #load(): Promise<Map<string, RpcServerAddress[]>> {
    const now = Date.now();
    if (this.#cached !== undefined && now - this.#cached.at < this.#cacheMs)
      return this.#cached.rows;
    const rows = this.#query();
    this.#cached = { at: now, rows };
    rows.catch(() => {
      if (this.#cached?.rows === rows) this.#cached = undefined;
    });
    return rows;
  }

  async #query(): Promise<Map<string, RpcServerAddress[]>> {
    const byTopic = new Map<string, RpcServerAddress[]>();
    for (const peer of await this.#peers.findPeers()) {
      const list = byTopic.get(peer.topic) ?? [];
      list.push({ server: peer.server, address: peer.address });
      byTopic.set(peer.topic, list);
    }
    return byTopic;
  }
}
