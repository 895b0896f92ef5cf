/**
 * `noauth2`, the real service's development auth: the token names the caller.
 * `X-Auth-Token: user` or `user:project` (project defaults to user); roles from `X-Roles`
 * when present, else `admin` for the user `admin`; a non-empty `OpenStack-System-Scope`
 * makes the request system-scoped; `X-Project-Id` overrides the token's project.
 * `GET /` needs no token.
 */
import type { FastifyRequest } from 'fastify';
import type { Credentials } from '../policy/enforcer.ts';
import { PlacementHttpError } from './errors.ts';

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[value.length - 1] : value;
}

/** Credentials of the request, or undefined for the unauthenticated root document. */
export function noauthCredentials(request: FastifyRequest): Credentials | undefined {
  const path = request.url.split('?', 1)[0];
  if (path === '/' || path === '') return undefined;
  const token = header(request, 'x-auth-token');
  if (token === undefined) {
    throw new PlacementHttpError(401, '', { outsidePlacement: true });
  }
  const colon = token.indexOf(':');
  const userId = colon === -1 ? token : token.slice(0, colon);
  const tokenProject = colon === -1 ? '' : token.slice(colon + 1);
  const projectId = header(request, 'x-project-id') || tokenProject || userId;
  const rolesHeader = header(request, 'x-roles');
  const roles =
    rolesHeader !== undefined
      ? rolesHeader
          .split(',')
          .map((role) => role.trim())
          .filter((role) => role !== '')
      : userId === 'admin'
        ? ['admin']
        : [];
  const scope = header(request, 'openstack-system-scope');
  return { userId, projectId, roles, systemScope: scope ? scope.trim() : undefined };
}
