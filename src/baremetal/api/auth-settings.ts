import {
  checkListenSafety,
  type KeystoneAuthConfig,
  keystoneAuthConfigOf,
} from '../../auth/index.ts';
import type { BaremetalConfig } from '../config.ts';
import { BAREMETAL_API_BINARY } from '../service-version.ts';

/**
 * The API's auth settings, checked before anything opens (the CLI's plan, once for a pool, and
 * startBaremetalApi): `keystone` needs a complete `[keystone_authtoken]`; `noauth` checks no
 * token, so it listens on loopback only unless `[api] insecure_noauth_on_any_address` accepts
 * the risk (src/auth/listen-safety.ts); `http_basic` checks each request's user and password
 * against `[DEFAULT] http_basic_auth_user_file` (read when the API starts). Returns Keystone's
 * settings under `keystone`. Throws ConfigFileError or UnsafeListenError.
 */
export function checkBaremetalApiAuth(config: BaremetalConfig): KeystoneAuthConfig | undefined {
  const strategy = config.api.authStrategy;
  const keystone = strategy === 'keystone' ? keystoneAuthConfigOf(config.api.keystone) : undefined;
  checkListenSafety({
    binary: BAREMETAL_API_BINARY,
    host: config.api.hostIp,
    authStrategy: strategy,
    authenticates: strategy !== 'noauth',
    insecureNoauthOnAnyAddress: config.api.insecureNoauthOnAnyAddress,
  });
  return keystone;
}
