/**
 * The credentials oslo.policy sees for a request: oslo.context's policy values of whoever the
 * auth layer established (src/auth/request-credentials.ts). Keystone hands out tokens with
 * implied roles already expanded (admin implies member, member implies reader); noauth2
 * expands the roles it is told the same way (expandImpliedRoles), so a check like
 * `role:reader` passes for an admin under either.
 */
import { policyValuesOf } from '../auth/request-credentials.ts';
import type { PolicyCredentials } from './checks.ts';
import type { Credentials } from './enforcer.ts';

/** Keystone's default role implications. */
const IMPLIED_ROLES: Readonly<Record<string, readonly string[]>> = {
  admin: ['member'],
  member: ['reader'],
};

/** The roles plus every role they imply, each once, in discovery order. */
export function expandImpliedRoles(roles: readonly string[]): string[] {
  const expanded: string[] = [];
  const seen = new Set<string>();
  const pending = [...roles];
  while (pending.length > 0) {
    const role = pending.shift() as string;
    const key = role.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    expanded.push(role);
    pending.push(...(IMPLIED_ROLES[key] ?? []));
  }
  return expanded;
}

/** Credentials as the policy checks read them. */
export function policyCredentials(credentials: Credentials): PolicyCredentials {
  return policyValuesOf(credentials) as PolicyCredentials;
}
