/**
 * The bare metal service's settings, one set for both of its processes (the API and the
 * conductor read the same oslo.config-style file, as Ironic's do), named after the real
 * options, with the real defaults except where Baton's embedded default differs (said
 * below). The file is read by config-file.ts; only the composition root (service.ts) reads
 * the pin, which is kept apart.
 */
import { hostname } from 'node:os';
import {
  KEYSTONE_AUTHTOKEN_DEFAULTS,
  type KeystoneAuthtokenSettings,
} from '../auth/keystone-options.ts';
import type { PolicySettings } from '../policy/index.ts';
import type { RpcSettings } from '../rpc/index.ts';
import { DEFAULT_OPERATIONS, type OperationsConfig } from '../service/operations-config.ts';
import {
  type ConductorSettings,
  defaultConductorSettings,
} from './conductor/conductor-settings.ts';

export interface BaremetalApiSettings {
  /** `[api] host_ip`: Baton listens on loopback by default (noauth checks no token). */
  readonly hostIp: string;
  /** `[api] port` (6385). */
  readonly port: number;
  /** `[api] api_workers`: processes sharing the port (default 1). */
  readonly apiWorkers: number;
  /** `[api] max_limit`: the most items a list answers with (1000). */
  readonly maxLimit: number;
  /** `[api] public_endpoint`: the root of the links in bodies; the request's host when unset. */
  readonly publicEndpoint?: string | undefined;
  /** `[DEFAULT] default_resource_class`: given to a node created without one (unset: none). */
  readonly defaultResourceClass?: string | undefined;
  /** `[api] enable_ramdisk_endpoints`: off, lookup and heartbeat answer 403 (true). */
  readonly enableRamdiskEndpoints: boolean;
  /** `[api] restrict_lookup`: a lookup finds only nodes a ramdisk runs on (true). */
  readonly restrictLookup: boolean;
  /** `[api] ramdisk_heartbeat_timeout` (s, 300): told to the agent by a lookup. */
  readonly ramdiskHeartbeatTimeout: number;
  /** `[deploy] fast_track` (false): lookups also in enroll, manageable and available. */
  readonly fastTrack: boolean;
  /** `[DEFAULT] auth_strategy`: `keystone`, `noauth` or `http_basic`. */
  readonly authStrategy: BaremetalAuthStrategy;
  /** `[DEFAULT] http_basic_auth_user_file`: the htpasswd file (bcrypt) of `http_basic`. */
  readonly httpBasicAuthUserFile: string;
  /** `[api] insecure_noauth_on_any_address`: let `noauth` listen beyond loopback. */
  readonly insecureNoauthOnAnyAddress: boolean;
  /** `[oslo_policy]`: applied under `keystone` only, as Ironic applies it. */
  readonly policy: PolicySettings;
  /** `[keystone_authtoken]`: how tokens are validated under `keystone`. */
  readonly keystone: KeystoneAuthtokenSettings;
  /** `[DEFAULT] rpc_response_timeout` (s, oslo.messaging's 60): how long a conductor call may take. */
  readonly rpcResponseTimeout: number;
}

/**
 * Ironic's `[DEFAULT] auth_strategy` values (the conductor reads it for its RPC only): the API
 * serves `keystone`, the real standalone setup's `noauth`, and `http_basic`.
 */
export const BAREMETAL_AUTH_STRATEGIES = ['keystone', 'noauth', 'http_basic'] as const;
export type BaremetalAuthStrategy = (typeof BAREMETAL_AUTH_STRATEGIES)[number];

export interface BaremetalConfig {
  /** Logs, health check and metrics (`[DEFAULT]` log options, `[healthcheck]`, `[metrics]`). */
  readonly operations: OperationsConfig;
  /** `[database] connection`. */
  readonly databaseUrl: string;
  /** `[DEFAULT] rpc_transport` (http | amqp | local), `rpc_transport_url`, `rpc_shared_secret`, `rpc_exchange`. */
  readonly rpc: RpcSettings;
  readonly api: BaremetalApiSettings;
  /** `[json_rpc]`: how the http RPC is authenticated (rpc-auth-settings.ts). */
  readonly jsonRpc: JsonRpcSettings;
  /** `[DEFAULT] host` and the `[conductor]`/`[fake]` options. */
  readonly conductor: ConductorSettings;
}

/** `[json_rpc]`, as the real Ironic reads it (only what the http transport's auth needs). */
export interface JsonRpcSettings {
  /** `[json_rpc] auth_strategy`; undefined: `[DEFAULT] auth_strategy`. */
  readonly authStrategy: BaremetalAuthStrategy | undefined;
  /** `[json_rpc] allowed_roles` (Ironic's default: admin). */
  readonly allowedRoles: readonly string[];
  /** `[json_rpc]`'s keystoneauth options (the API's own credentials), in [keystone_authtoken]'s shape. */
  readonly credentials: KeystoneAuthtokenSettings;
}

export const DEFAULT_JSON_RPC: JsonRpcSettings = {
  authStrategy: undefined,
  allowedRoles: ['admin'],
  credentials: KEYSTONE_AUTHTOKEN_DEFAULTS,
};

export const DEFAULT_API_PORT = 6385;
/**
 * Seconds a stopping API keeps answering with its health check failed (`[healthcheck]
 * drain_delay`, formerly `[api] drain_wait`), so that a load balancer takes it out first.
 */
export const DEFAULT_DRAIN_WAIT = 5;

/** The toolkit's defaults, but the drain: an API of this service waits for its balancer. */
export const DEFAULT_BAREMETAL_OPERATIONS: OperationsConfig = {
  ...DEFAULT_OPERATIONS,
  drainDelaySeconds: DEFAULT_DRAIN_WAIT,
};

export function defaultBaremetalConfig(databaseUrl: string): BaremetalConfig {
  return {
    operations: DEFAULT_BAREMETAL_OPERATIONS,
    databaseUrl,
    rpc: { rpc_transport: 'http' },
    api: {
      hostIp: '127.0.0.1',
      port: DEFAULT_API_PORT,
      apiWorkers: 1,
      maxLimit: 1000,
      enableRamdiskEndpoints: true,
      restrictLookup: true,
      ramdiskHeartbeatTimeout: 300,
      fastTrack: false,
      authStrategy: 'noauth',
      httpBasicAuthUserFile: '/etc/ironic/htpasswd',
      insecureNoauthOnAnyAddress: false,
      // Ironic 21.4 leaves both switches at oslo.policy's defaults (off).
      policy: { enforceScope: false, enforceNewDefaults: false },
      keystone: KEYSTONE_AUTHTOKEN_DEFAULTS,
      rpcResponseTimeout: 60,
    },
    jsonRpc: DEFAULT_JSON_RPC,
    conductor: defaultConductorSettings(hostname()),
  };
}
