/**
 * What the API's handlers are handed: the store (reads, and the writes the API process makes
 * itself: chassis, portgroup create), the conductor RPC API (every node and port write), the
 * catalogue of hardware types and implementations (for the driver properties), and the
 * settings of the real service's options the API reads.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { VersionNegotiator } from '../../microversion/index.ts';
import type { BaremetalStore } from '../db/index.ts';
import type { DriverCatalog } from '../drivers/driver-catalog.ts';
import type { ConductorApi } from '../rpcapi/index.ts';

export interface ApiHandlerSettings {
  /** `[api] max_limit`: the most items a list answers with (1000). */
  readonly maxLimit: number;
  /** `[api] public_endpoint`: the root links are built on; the request's Host when unset. */
  readonly publicEndpoint?: string | undefined;
  /** `[DEFAULT] default_resource_class`, given to a node created without one (unset: none). */
  readonly defaultResourceClass?: string | undefined;
  /** `[conductor] heartbeat_timeout` in seconds: a conductor silent longer is not alive. */
  readonly heartbeatTimeout: number;
  /** `[oslo_middleware] max_request_body_size`: larger bodies are a 413 (the toolkit's default). */
  readonly maxRequestBodySize?: number;
}

export const DEFAULT_API_SETTINGS: ApiHandlerSettings = {
  maxLimit: 1000,
  heartbeatTimeout: 60,
};

export interface BaremetalApiServices {
  readonly store: BaremetalStore;
  readonly conductors: ConductorApi;
  readonly settings: ApiHandlerSettings;
  /** The implementations whose properties the driver bodies document (default: Baton's own). */
  readonly drivers?: DriverCatalog;
}

declare module 'fastify' {
  interface FastifyInstance {
    baremetal: BaremetalApiServices;
    /** The version range served (the caps in force), for discovery documents. */
    baremetalVersions: VersionNegotiator;
  }
}

/** A route handler: the body to answer with (JSON), or undefined for none. */
export type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

export function servicesOf(request: FastifyRequest): BaremetalApiServices {
  return request.server.baremetal;
}
