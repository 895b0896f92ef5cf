/**
 * A Keystone v3 token as `GET /v3/auth/tokens` returns it, read as keystoneauth's AccessInfoV3
 * reads it, and the request headers keystonemiddleware's auth_token sets from it (user token
 * without prefix, service token with `-Service`). Pure.
 */

export interface KeystoneToken {
  readonly userId: string;
  readonly userName: string | undefined;
  readonly userDomainId: string | undefined;
  readonly userDomainName: string | undefined;
  readonly projectId: string | undefined;
  readonly projectName: string | undefined;
  readonly projectDomainId: string | undefined;
  readonly projectDomainName: string | undefined;
  readonly domainId: string | undefined;
  readonly domainName: string | undefined;
  /** `all` for a system-scoped token. */
  readonly systemScope: string | undefined;
  readonly roles: readonly string[];
  /** Keystone adds `is_admin_project` only when it has an admin project; absent means true. */
  readonly isAdminProject: boolean;
  /** Milliseconds since the epoch. */
  readonly expiresAt: number;
  /** An application credential's access rules; undefined when the token has none. */
  readonly accessRules: readonly AccessRule[] | undefined;
}

export interface AccessRule {
  readonly method: string;
  readonly path: string;
  readonly service: string;
}

/** The body is not a token keystoneauth could read: keystonemiddleware refuses the token. */
export class MalformedTokenError extends Error {
  override name = 'MalformedTokenError';
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function objectAt(parent: Json, key: string): Json | undefined {
  const value = parent[key];
  return isObject(value) ? value : undefined;
}

/** Keystone's `2026-11-25T19:42:09.000000Z`; a time without a zone is UTC, as oslo reads it. */
export function parseKeystoneTime(value: string): number | undefined {
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/.exec(value);
  if (match === null) return undefined;
  const fraction = match[2] === undefined ? '' : match[2].slice(0, 4);
  const zone = match[3] ?? 'Z';
  const time = Date.parse(`${match[1]}${fraction}${zone}`);
  return Number.isNaN(time) ? undefined : time;
}

function accessRulesOf(token: Json): readonly AccessRule[] | undefined {
  const credential = objectAt(token, 'application_credential');
  const rules = credential?.access_rules;
  if (!Array.isArray(rules)) return undefined;
  return rules.filter(isObject).map((rule) => ({
    method: text(rule.method) ?? '',
    path: text(rule.path) ?? '',
    service: text(rule.service) ?? '',
  }));
}

/** Reads `{"token": {...}}`; throws MalformedTokenError when a required part is missing. */
export function readKeystoneToken(body: unknown): KeystoneToken {
  const token = isObject(body) ? objectAt(body, 'token') : undefined;
  if (token === undefined) throw new MalformedTokenError('no token in the body');
  const user = objectAt(token, 'user');
  const userId = user && text(user.id);
  if (user === undefined || userId === undefined) throw new MalformedTokenError('no user');
  const expiresText = text(token.expires_at);
  const expiresAt = expiresText === undefined ? undefined : parseKeystoneTime(expiresText);
  if (expiresAt === undefined) throw new MalformedTokenError(`bad expires_at: ${expiresText}`);
  const userDomain = objectAt(user, 'domain');
  const project = objectAt(token, 'project');
  const projectDomain = project && objectAt(project, 'domain');
  const domain = objectAt(token, 'domain');
  const system = objectAt(token, 'system');
  const roles = Array.isArray(token.roles) ? token.roles : [];
  return {
    userId,
    userName: text(user.name),
    userDomainId: userDomain && text(userDomain.id),
    userDomainName: userDomain && text(userDomain.name),
    projectId: project && text(project.id),
    projectName: project && text(project.name),
    projectDomainId: projectDomain && text(projectDomain.id),
    projectDomainName: projectDomain && text(projectDomain.name),
    domainId: domain && text(domain.id),
    domainName: domain && text(domain.name),
    systemScope: system?.all === true ? 'all' : undefined,
    roles: roles.filter(isObject).flatMap((role) => text(role.name) ?? []),
    isAdminProject: token.is_admin_project !== false,
    expiresAt,
    accessRules: accessRulesOf(token),
  };
}

/** keystoneauth's `will_expire_soon(stale_duration=0)`: expired once its time has passed. */
export function isExpired(token: KeystoneToken, now: number): boolean {
  return token.expiresAt < now;
}

/** Every header keystonemiddleware removes from a request before it authenticates it. */
export const AUTH_HEADERS: readonly string[] = (() => {
  const templates = [
    'Domain-Id',
    'Domain-Name',
    'Project-Id',
    'Project-Name',
    'Project-Domain-Id',
    'Project-Domain-Name',
    'User-Id',
    'User-Name',
    'User-Domain-Id',
    'User-Domain-Name',
  ];
  const names = [
    'X-Service-Catalog',
    'X-Identity-Status',
    'X-Service-Identity-Status',
    'X-Is-Admin-Project',
    'X-Role',
    'X-User',
    'X-Tenant-Id',
    'X-Tenant-Name',
    'X-Tenant',
  ];
  for (const prefix of ['', '-Service']) {
    for (const template of templates) names.push(`X${prefix}-${template}`);
  }
  names.push('X-Roles', 'X-Service-Roles');
  return names.map((name) => name.toLowerCase());
})();

/** The headers keystonemiddleware sets for a token; absent values are left out. */
export function tokenHeaders(
  token: KeystoneToken,
  kind: 'user' | 'service',
): Record<string, string> {
  const prefix = kind === 'user' ? 'x' : 'x-service';
  const values: Record<string, string | undefined> = {
    [`${prefix}-roles`]: token.roles.join(','),
    [`${prefix}-domain-id`]: token.domainId,
    [`${prefix}-domain-name`]: token.domainName,
    [`${prefix}-project-id`]: token.projectId,
    [`${prefix}-project-name`]: token.projectName,
    [`${prefix}-project-domain-id`]: token.projectDomainId,
    [`${prefix}-project-domain-name`]: token.projectDomainName,
    [`${prefix}-user-id`]: token.userId,
    [`${prefix}-user-name`]: token.userName,
    [`${prefix}-user-domain-id`]: token.userDomainId,
    [`${prefix}-user-domain-name`]: token.userDomainName,
  };
  if (kind === 'user') {
    values['openstack-system-scope'] = token.systemScope;
    values['x-is-admin-project'] = token.isAdminProject ? 'True' : 'False';
    // The deprecated names, copied from the current ones.
    values['x-role'] = values['x-roles'];
    values['x-user'] = values['x-user-name'];
    values['x-tenant-id'] = values['x-project-id'];
    values['x-tenant-name'] = values['x-project-name'];
    values['x-tenant'] = values['x-project-name'];
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}
