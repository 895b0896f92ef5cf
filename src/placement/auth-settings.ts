/**
 * Placement's auth settings checked before anything opens (the plan and the server both ask):
 * Keystone's settings complete, or noauth2 on loopback unless `[api]
 * insecure_noauth_on_any_address` says otherwise (src/auth/listen-safety.ts, the toolkit's
 * check the bare metal service makes too). Throws ConfigFileError or UnsafeListenError.
 */
import { type KeystoneAuthConfig, keystoneAuthConfigOf } from '../auth/keystone-auth-config.ts';
import { checkListenSafety } from '../auth/listen-safety.ts';
import type { PlacementConfig } from './config.ts';
import { PLACEMENT_API_BINARY } from './service-version.ts';

/** Keystone's settings when auth_strategy is keystone, else undefined. */
export function checkPlacementAuth(config: PlacementConfig): KeystoneAuthConfig | undefined {
  const keystone = config.authStrategy === 'keystone' ? keystoneAuthConfigOf(config) : undefined;
  checkListenSafety({
    binary: PLACEMENT_API_BINARY,
    host: config.host,
    authStrategy: config.authStrategy,
    authenticates: keystone !== undefined,
    insecureNoauthOnAnyAddress: config.insecureNoauthOnAnyAddress,
  });
  return keystone;
}
