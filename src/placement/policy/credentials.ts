/**
 * The credentials oslo.policy sees for a request. Keystone hands out tokens with implied
 * roles already expanded (admin implies member, member implies reader), so a check like
 * `role:reader` passes for an admin; noauth2's X-Roles is expanded the same way here.
 */
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

export function policyCredentials(credentials: Credentials): PolicyCredentials {
  const system = credentials.systemScope || null;
  return {
    user_id: credentials.userId,
    // A system-scoped token carries no project.
    project_id: system === null ? credentials.projectId : null,
    roles: expandImpliedRoles(credentials.roles),
    system_scope: system,
    system,
    domain_id: null,
    is_admin_project: true,
  };
}
