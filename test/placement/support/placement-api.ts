/**
 * A Placement app per backend for API tests: a scratch database prepared as the service
 * prepares it, the app answering through `inject` (no socket), and a small client that
 * speaks the API the way real clients do (token, version header, JSON bodies).
 */
import { after, before } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../src/db/index.ts';
import { buildPlacementApp } from '../../../src/placement/api/app.ts';
import { defaultPlacementConfig, type PlacementConfig } from '../../../src/placement/config.ts';
import { createPolicyEnforcer } from '../../../src/placement/policy/index.ts';
import { preparePlacementDatabase } from '../../../src/placement/store/prepare-database.ts';
import { ResourceClassCache } from '../../../src/placement/store/resource-class-cache.ts';
import type { PlacementTables } from '../../../src/placement/store/tables.ts';
import { type BackendContext, forEachBackend } from '../../db/support/backends.ts';

export interface CallOptions {
  /** `OpenStack-API-Version: placement <version>`; omitted when undefined. */
  readonly version?: string;
  /** `X-Auth-Token`; `admin` by default, `null` sends none. */
  readonly token?: string | null;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface ApiResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | number | undefined>>;
  /** Parsed JSON body (undefined when empty); loosely typed so tests read it directly. */
  // biome-ignore lint/suspicious/noExplicitAny: tests navigate arbitrary response bodies
  readonly body: any;
  readonly text: string;
}

export class PlacementTestClient {
  readonly app: FastifyInstance;

  constructor(app: FastifyInstance) {
    this.app = app;
  }

  async request(
    method: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH' | 'OPTIONS' | 'HEAD',
    url: string,
    body?: unknown,
    options: CallOptions = {},
  ): Promise<ApiResponse> {
    const headers: Record<string, string> = {};
    const token = options.token === undefined ? 'admin' : options.token;
    if (token !== null) headers['x-auth-token'] = token;
    if (options.version !== undefined) {
      headers['openstack-api-version'] = `placement ${options.version}`;
    }
    let payload: string | undefined;
    if (body !== undefined) {
      payload = typeof body === 'string' ? body : JSON.stringify(body);
      headers['content-type'] = 'application/json';
    }
    Object.assign(headers, options.headers);
    const response = await this.app.inject({ method, url, headers, payload });
    let parsed: unknown;
    if (response.body !== '') {
      try {
        parsed = JSON.parse(response.body);
      } catch {
        parsed = undefined;
      }
    }
    return {
      status: response.statusCode,
      headers: response.headers,
      body: parsed,
      text: response.body,
    };
  }

  get(url: string, options?: CallOptions) {
    return this.request('GET', url, undefined, options);
  }
  put(url: string, body: unknown, options?: CallOptions) {
    return this.request('PUT', url, body, options);
  }
  post(url: string, body: unknown, options?: CallOptions) {
    return this.request('POST', url, body, options);
  }
  delete(url: string, options?: CallOptions) {
    return this.request('DELETE', url, undefined, options);
  }
}

export interface PlacementContext extends BackendContext {
  /** The suite's client (one app per suite). */
  api(): PlacementTestClient;
  /** The suite's prepared Placement database. */
  placementDb(): Database<PlacementTables>;
}

/**
 * Runs `body` once per backend with a prepared database and an app. `configure` adjusts the
 * settings (policy switches, CORS, incomplete-consumer ids).
 */
export function forEachPlacementBackend(
  title: string,
  body: (ctx: PlacementContext) => void,
  configure: (config: PlacementConfig) => PlacementConfig = (config) => config,
): void {
  forEachBackend(title, (backend) => {
    let app: FastifyInstance | undefined;
    let client: PlacementTestClient | undefined;
    let database: Database<PlacementTables> | undefined;
    before(async () => {
      const config = configure(defaultPlacementConfig(backend.url()));
      database = await preparePlacementDatabase(config.databaseUrl, { poolSize: 4 });
      const policy = await createPolicyEnforcer(config);
      app = await buildPlacementApp({
        services: { db: database, config, policy, resourceClasses: new ResourceClassCache() },
      });
      client = new PlacementTestClient(app);
    });
    after(async () => {
      await app?.close();
      await database?.close();
    });
    body({
      ...backend,
      api: () => {
        if (!client) throw new Error('app not built yet');
        return client;
      },
      placementDb: () => {
        if (!database) throw new Error('database not prepared yet');
        return database;
      },
    });
  });
}

/** A fresh random UUID, for providers, consumers, aggregates. */
export { randomUUID as uuid } from 'node:crypto';
