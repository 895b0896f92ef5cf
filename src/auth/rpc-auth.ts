/**
 * Keystone for the http RPC between a service's tiers, as the real Ironic's JSON-RPC does it
 * (`[json_rpc] auth_strategy = keystone`): the server runs keystonemiddleware's auth_token on
 * every request (here the same KeystoneAuthenticator the API uses, with `[keystone_authtoken]`)
 * and then wants one of `[json_rpc] allowed_roles` (default `admin`) in the token, else 403;
 * the client authenticates with its own `[json_rpc]` credentials and sends its token as
 * `X-Auth-Token`, renewed before it expires and once more after a 401.
 */
import {
  type HttpRpcClientAuth,
  type HttpRpcServerAuth,
  type HttpRpcVerdict,
  RpcAuthenticationError,
} from '../rpc/index.ts';
import { AuthenticationRequiredError, IdentityServiceUnavailableError } from './errors.ts';
import type { IdentityClient } from './identity-client.ts';
import type { RequestAuthenticator } from './keystone-authenticator.ts';

const ALLOWED: HttpRpcVerdict = { ok: true };

/** The server's check: a valid token holding one of `allowedRoles`. */
export function keystoneRpcServerAuth(
  authenticator: RequestAuthenticator,
  allowedRoles: readonly string[],
): HttpRpcServerAuth {
  const allowed = new Set(allowedRoles);
  return {
    async check(headers) {
      let roles: readonly string[];
      try {
        const outcome = await authenticator.authenticate({ method: 'POST', path: '/', headers });
        roles = outcome.credentials.roles;
      } catch (error) {
        if (error instanceof AuthenticationRequiredError) {
          return { ok: false, status: 401, message: error.message, reason: error.reason };
        }
        if (error instanceof IdentityServiceUnavailableError) {
          return { ok: false, status: 503, message: error.message, reason: error.reason };
        }
        throw error;
      }
      if (roles.some((role) => allowed.has(role))) return ALLOWED;
      return {
        ok: false,
        status: 403,
        message: 'Forbidden',
        reason: `the token's roles (${roles.join(',') || 'none'}) hold none of [json_rpc] allowed_roles (${[...allowed].join(',')})`,
      };
    },
    close: () => authenticator.close?.(),
  };
}

/** The client's credentials: its own token, from its Keystone credentials. */
export function keystoneRpcClientAuth(identity: IdentityClient): HttpRpcClientAuth {
  return {
    async headers() {
      try {
        return { 'x-auth-token': await identity.token() };
      } catch (error) {
        if (error instanceof IdentityServiceUnavailableError) {
          throw new RpcAuthenticationError(
            `no token for the RPC: ${error.message} (${error.reason})`,
            503,
          );
        }
        throw error;
      }
    },
    refused() {
      // Revoked, or expired sooner than it said: a new one (the transport retries once).
      identity.forgetToken();
      return true;
    },
  };
}
