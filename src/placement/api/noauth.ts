/**
 * `noauth2`, the real service's development auth: the token names the caller.
 * `X-Auth-Token: user` or `user:project` (project defaults to user); roles from `X-Roles`
 * when present, else `admin` for the user `admin`, expanded as Keystone expands implied
 * roles; a non-empty `OpenStack-System-Scope` makes the request system-scoped, and a
 * system-scoped request carries no project; `X-Project-Id` overrides the token's project.
 * `GET /` needs no token (the auth hook lets it through). Nothing is checked, which is why
 * it listens on loopback only unless told otherwise (src/auth/listen-safety.ts).
 */
import type { AuthOutcome, AuthRequest, RequestAuthenticator } from '../../auth/index.ts';
import type { HeaderBag } from '../../auth/request-credentials.ts';
import { expandImpliedRoles } from '../../policy/index.ts';
import { PlacementHttpError } from './errors.ts';

function header(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[value.length - 1] : (value as string | undefined);
}

/** The credentials the request names; a 401 (WebOb's, from outside Placement) without a token. */
export function noauthOutcome(request: AuthRequest): AuthOutcome {
  const { headers } = request;
  const token = header(headers, 'x-auth-token');
  if (token === undefined) {
    throw new PlacementHttpError(401, '', { outsidePlacement: true });
  }
  const colon = token.indexOf(':');
  const userId = colon === -1 ? token : token.slice(0, colon);
  const tokenProject = colon === -1 ? '' : token.slice(colon + 1);
  const rolesHeader = header(headers, 'x-roles');
  const roles =
    rolesHeader !== undefined
      ? rolesHeader
          .split(',')
          .map((role) => role.trim())
          .filter((role) => role !== '')
      : userId === 'admin'
        ? ['admin']
        : [];
  const scope = header(headers, 'openstack-system-scope')?.trim() || undefined;
  const projectId = header(headers, 'x-project-id') || tokenProject || userId;
  return {
    credentials: {
      userId,
      projectId: scope === undefined ? projectId : undefined,
      roles: expandImpliedRoles(roles),
      systemScope: scope,
      isAdminProject: true,
    },
    headers: {},
  };
}

export const NOAUTH2: RequestAuthenticator = {
  authenticate: noauthOutcome,
  strippedHeaders: [],
};
