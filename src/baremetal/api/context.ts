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
  /**
   * `[api] enable_ramdisk_endpoints` (true), `restrict_lookup` (true),
   * `ramdisk_heartbeat_timeout` (300), `[deploy] fast_track` (false).
   */
  readonly ramdisk?: Partial<RamdiskSettings>;
  /** `[oslo_middleware] max_request_body_size`: larger bodies are a 413 (the toolkit's default). */
  readonly maxRequestBodySize?: number;
}

/** The options the ramdisk endpoints read (api/ramdisk.ts). */
export interface RamdiskSettings {
  /** `[api] enable_ramdisk_endpoints`: off, both answer 403. */
  readonly enabled: boolean;
  readonly restrictLookup: boolean;
  readonly heartbeatTimeout: number;
  readonly fastTrack: boolean;
}

export const DEFAULT_RAMDISK_SETTINGS: RamdiskSettings = {
  enabled: true,
  restrictLookup: true,
  heartbeatTimeout: 300,
  fastTrack: false,
};

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
