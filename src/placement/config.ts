/** Placement's settings, named after the real service's options, and their defaults. */
import {
  KEYSTONE_AUTHTOKEN_DEFAULTS,
  type KeystoneAuthtokenSettings,
} from '../auth/keystone-options.ts';
import { DEFAULT_OPERATIONS, type OperationsConfig } from '../service/operations-config.ts';

export type AuthStrategy = 'noauth2' | 'keystone';

/**
 * Besides its own, Placement takes the toolkit's settings for logs, the health check and
 * metrics (`OperationsConfig`: `[DEFAULT] debug`, `log_file`, …; docs/operations.md) and for
 * Keystone (`[keystone_authtoken]`: src/auth/keystone-options.ts, docs/security.md).
 */
export interface PlacementConfig extends OperationsConfig, KeystoneAuthtokenSettings {
  /** `[placement_database] connection` */
  readonly databaseUrl: string;
  /** Listen address; loopback unless told otherwise. */
  readonly host: string;
  readonly port: number;
  /** `[api] auth_strategy`: `keystone` (tokens validated), or `noauth2` (development, loopback). */
  readonly authStrategy: AuthStrategy;
  /** `[api] insecure_noauth_on_any_address`: noauth2 may listen beyond loopback. */
  readonly insecureNoauthOnAnyAddress: boolean;
  /** `[oslo_policy] enforce_scope` */
  readonly enforceScope: boolean;
  /** `[oslo_policy] enforce_new_defaults` */
  readonly enforceNewDefaults: boolean;
  /** `[oslo_policy] policy_file`: YAML or JSON overriding default rules. */
  readonly policyFile: string | undefined;
  /** `[cors] allowed_origin`; empty means CORS is off (OPTIONS answers 405). */
  readonly corsAllowedOrigins: readonly string[];
  /** `[cors] allow_headers` (Placement's default list unless set) */
  readonly corsAllowHeaders: readonly string[];
  /** `[cors] expose_headers` (Placement's default list unless set) */
  readonly corsExposeHeaders: readonly string[];
  /** `[cors] allow_methods` (Placement's default list unless set) */
  readonly corsAllowMethods: readonly string[];
  /** `[cors] max_age`, seconds a preflight answer may be cached (0: no header) */
  readonly corsMaxAge: number;
  /** `[cors] allow_credentials` */
  readonly corsAllowCredentials: boolean;
  /** `[placement] incomplete_consumer_project_id` / `incomplete_consumer_user_id` */
  readonly incompleteConsumerProjectId: string;
  readonly incompleteConsumerUserId: string;
  /** `[placement] randomize_allocation_candidates`: candidates (and a limited subset) in random order. */
  readonly randomizeAllocationCandidates: boolean;
}

export const DEFAULT_PORT = 8778;

/** `[placement] incomplete_consumer_project_id` / `incomplete_consumer_user_id` by default. */
export const INCOMPLETE_CONSUMER_DEFAULTS = {
  projectId: '00000000-0000-0000-0000-000000000000',
  userId: '00000000-0000-0000-0000-000000000000',
};

/** The CORS defaults the real service sets over oslo.middleware's (placement/wsgi.py). */
export const PLACEMENT_CORS_DEFAULTS = {
  allowHeaders: [
    'X-Auth-Token',
    'X-Openstack-Request-Id',
    'X-Identity-Status',
    'X-Roles',
    'X-Service-Catalog',
    'X-User-Id',
    'X-Tenant-Id',
    'OpenStack-API-Version',
  ],
  exposeHeaders: [
    'X-Auth-Token',
    'X-Openstack-Request-Id',
    'X-Subject-Token',
    'X-Service-Token',
    'OpenStack-API-Version',
  ],
  allowMethods: ['GET', 'PUT', 'POST', 'DELETE', 'PATCH'],
  maxAge: 3600,
  allowCredentials: true,
} as const;

export function defaultPlacementConfig(databaseUrl: string): PlacementConfig {
  return {
    ...DEFAULT_OPERATIONS,
    ...KEYSTONE_AUTHTOKEN_DEFAULTS,
    databaseUrl,
    host: '127.0.0.1',
    port: DEFAULT_PORT,
    authStrategy: 'noauth2',
    insecureNoauthOnAnyAddress: false,
    enforceScope: false,
    enforceNewDefaults: false,
    policyFile: undefined,
    corsAllowedOrigins: [],
    corsAllowHeaders: PLACEMENT_CORS_DEFAULTS.allowHeaders,
    corsExposeHeaders: PLACEMENT_CORS_DEFAULTS.exposeHeaders,
    corsAllowMethods: PLACEMENT_CORS_DEFAULTS.allowMethods,
    corsMaxAge: PLACEMENT_CORS_DEFAULTS.maxAge,
    corsAllowCredentials: PLACEMENT_CORS_DEFAULTS.allowCredentials,
    incompleteConsumerProjectId: INCOMPLETE_CONSUMER_DEFAULTS.projectId,
    incompleteConsumerUserId: INCOMPLETE_CONSUMER_DEFAULTS.userId,
    randomizeAllocationCandidates: false,
  };
}
