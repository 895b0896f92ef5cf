/**
 * Who calls, for the policy tests: the API trusts the identity headers a Keystone middleware
 * would have set (no Keystone here), and a persona is those headers, with the roles a role
 * implies as Keystone lists them.
 */
import type { RequestAuthenticator } from '../../../../src/auth/index.ts';
import { credentialsFromHeaders } from '../../../../src/auth/index.ts';
import { BAREMETAL_RULE_DEFAULTS } from '../../../../src/baremetal/policy/default-rules.ts';
import { createRuleSet, expandImpliedRoles } from '../../../../src/policy/index.ts';
import { type BatonApi, type BatonApiOptions, startBatonApi } from './baton-api.ts';

/** Credentials taken from the request's identity headers as they come. */
export const TRUSTED_HEADERS: RequestAuthenticator = {
  authenticate: (request) => ({
    credentials: credentialsFromHeaders(request.headers),
    headers: {},
  }),
  strippedHeaders: [],
};

/** The `X-Roles` value of these roles and those they imply (admin → member → reader). */
export const roles = (...names: string[]): string => expandImpliedRoles(names).join(',');

/** A user of a project with one role. */
export const projectUser = (id: string, role: string) => ({
  'x-user-id': `${id.slice(0, 6)}-${role}`,
  'x-project-id': id,
  'x-project-name': `project-${id.slice(0, 6)}`,
  'x-project-domain-id': 'default',
  'x-roles': roles(role),
});

/** A system-scoped user with one role. */
export const systemUser = (role: string) => ({
  'x-user-id': `system-${role}`,
  'openstack-system-scope': 'all',
  'x-roles': roles(role),
});

export const SYSTEM_ADMIN = systemUser('admin');
export const SYSTEM_READER = systemUser('reader');

/**
 * Baton's API under Ironic's default policy as deployed (new defaults and scope not enforced),
 * taking who calls from the identity headers of each persona.
 */
export async function startUnderDefaultPolicy(
  options: Omit<BatonApiOptions, 'auth'> = {},
): Promise<BatonApi> {
  const policy = await createRuleSet(
    { enforceScope: false, enforceNewDefaults: false },
    BAREMETAL_RULE_DEFAULTS,
  );
  return startBatonApi({ ...options, auth: { authenticator: TRUSTED_HEADERS, policy } });
}
