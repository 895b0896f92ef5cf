/**
 * Where the http transport's servers are: the services table, where each
 * server registered its address under (binary = topic, host = server name).
 * Only live rows count. Lookups are cached briefly; a refused connection
 * drops the cache so the next lookup sees restarts at once.
 */
import type { Database } from '../../db/connect.ts';
import { listServices } from '../../db/services/list-services.ts';

export interface RpcServerAddress {
  readonly server: string;
  /** `http://host:port` */
  readonly address: string;
}

export interface ServerDirectoryOptions {
  /** How long a lookup is reused (default 1000 ms). */
  readonly cacheMs?: number;
  /** A row seen within this many seconds is live (the services table's default: 60). */
  readonly liveWithinSeconds?: number;
}

export class HttpServerDirectory {
  readonly #db: Database;
  readonly #cacheMs: number;
  readonly #liveWithinSeconds: number | undefined;
  #cached: { at: number; rows: Promise<Map<string, RpcServerAddress[]>> } | undefined;

  constructor(db: Database, options: ServerDirectoryOptions = {}) {
    this.#db = db;
    this.#cacheMs = options.cacheMs ?? 1000;
    this.#liveWithinSeconds = options.liveWithinSeconds;
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
    const options =
      this.#liveWithinSeconds === undefined ? {} : { liveWithinSeconds: this.#liveWithinSeconds };
    const byTopic = new Map<string, RpcServerAddress[]>();
    for (const row of await listServices(this.#db, options)) {
      if (!row.live || row.rpcAddress === undefined) continue;
      const list = byTopic.get(row.binary) ?? [];
      list.push({ server: row.host, address: row.rpcAddress });
      byTopic.set(row.binary, list);
    }
    return byTopic;
  }
}
