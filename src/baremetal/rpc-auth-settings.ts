/**
 * The http RPC's auth settings, checked before anything opens (the CLI's plan and the
 * composition root), as the real Ironic's JSON-RPC reads them: `[json_rpc] auth_strategy`,
 * else `[DEFAULT] auth_strategy`.
 *
 * - `keystone`: the conductor validates each call's `X-Auth-Token` with `[keystone_authtoken]`
 *   and wants one of `[json_rpc] allowed_roles` (admin); the API gets its token with the
 *   `[json_rpc]` credentials. Each side needs its own settings complete.
 * - `noauth`: nothing is checked, so a conductor listens on loopback only, unless
 *   `[DEFAULT] rpc_shared_secret` (a Baton extension, checked whatever the strategy) makes
 *   every call carry a secret both tiers hold.
 * - `http_basic` is Ironic's and not served.
 *
 * Only the http transport is concerned: amqp's broker authenticates its clients, and local
 * never leaves the process. Throws ConfigFileError or UnsafeListenError.
 */
import { checkListenSafety, type KeystoneAuthConfig, keystoneAuthConfigOf } from '../auth/index.ts';
import { readRpcConfig } from '../rpc/index.ts';
import { ConfigFileError } from '../service/index.ts';
import type { BaremetalAuthStrategy, BaremetalConfig } from './config.ts';
import { BAREMETAL_CONDUCTOR_BINARY } from './service-version.ts';

export interface BaremetalRpcAuth {
  /** The strategy in force for the RPC. */
  readonly strategy: BaremetalAuthStrategy;
  /** The conductor's: how it validates tokens (`[keystone_authtoken]`), under keystone. */
  readonly server?: KeystoneAuthConfig;
  /** The API's: who it is to the conductors (`[json_rpc]` credentials), under keystone. */
  readonly client?: KeystoneAuthConfig;
  /** `[json_rpc] allowed_roles`. */
  readonly allowedRoles: readonly string[];
}

/** `[json_rpc] auth_strategy`, else `[DEFAULT] auth_strategy` (Ironic's `json_rpc.auth_strategy()`). */
export function rpcAuthStrategyOf(config: BaremetalConfig): BaremetalAuthStrategy {
  return config.jsonRpc.authStrategy ?? config.api.authStrategy;
}

/** Settings for one side of the RPC: the `conductor` listens, the `api` calls. */
export function checkBaremetalRpcAuth(
  config: BaremetalConfig,
  side: 'conductor' | 'api',
): BaremetalRpcAuth {
  const strategy = rpcAuthStrategyOf(config);
  const allowedRoles = config.jsonRpc.allowedRoles;
  const rpc = readRpcConfig(config.rpc);
  if (rpc.transport !== 'http') return { strategy, allowedRoles };
  if (strategy !== 'noauth' && strategy !== 'keystone') {
    throw new ConfigFileError(
      `[json_rpc] auth_strategy: '${strategy}' is not served by Baton's RPC in this release; use keystone, or noauth with [DEFAULT] rpc_shared_secret`,
    );
  }
  const purpose = `the RPC under auth_strategy keystone`;
  if (side === 'api') {
    if (strategy !== 'keystone') return { strategy, allowedRoles };
    return {
      strategy,
      allowedRoles,
      client: keystoneAuthConfigOf(config.jsonRpc.credentials, 'json_rpc', purpose),
    };
  }
  if (strategy === 'keystone' && allowedRoles.length === 0) {
    throw new ConfigFileError('[json_rpc] allowed_roles: empty, so no call could ever run');
  }
  const server =
    strategy === 'keystone'
      ? keystoneAuthConfigOf(config.api.keystone, 'keystone_authtoken', purpose)
      : undefined;
  const host = rpc.url.hostname.replace(/^\[(.*)\]$/, '$1');
  checkListenSafety({
    binary: BAREMETAL_CONDUCTOR_BINARY,
    host,
    authStrategy: strategy,
    authenticates: server !== undefined || rpc.sharedSecret !== undefined,
    insecureNoauthOnAnyAddress: false,
    serving: 'RPC',
    risk: 'calls are not authenticated, so anyone who can reach that address could run any conductor method (power, deploy, delete) on any node',
    remedy:
      `Listen on loopback ([DEFAULT] rpc_transport_url = http://127.0.0.1:${rpc.url.port || 0}), ` +
      'set [json_rpc] auth_strategy = keystone (or [DEFAULT] auth_strategy), ' +
      'or set [DEFAULT] rpc_shared_secret on the conductors and the APIs',
  });
  return { strategy, allowedRoles, ...(server === undefined ? {} : { server }) };
}
