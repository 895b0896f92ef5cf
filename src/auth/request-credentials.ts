/**
 * Who is asking, as a service's policy engine sees it: the fields oslo.context reads from the
 * headers keystonemiddleware sets (`RequestContext.from_environ`), and the values it hands
 * oslo.policy (`to_policy_values`). Both services take their credentials in this shape, from
 * Keystone or from their development auth. Pure.
 */

export interface ServiceCredentials {
  readonly userId?: string | undefined;
  readonly userName?: string | undefined;
  readonly userDomainId?: string | undefined;
  readonly userDomainName?: string | undefined;
  readonly projectId?: string | undefined;
  readonly projectName?: string | undefined;
  readonly projectDomainId?: string | undefined;
  readonly projectDomainName?: string | undefined;
  readonly roles: readonly string[];
}

/** The caller's own credentials: a service's, plus its scope and admin-project flag. */
export interface RequestCredentials extends ServiceCredentials {
  // projectId is absent for a system- or domain-scoped token; roles are cased as Keystone
  // spells them, with the implied ones Keystone already added.
  /** Present for a domain-scoped token. */
  readonly domainId?: string | undefined;
  readonly domainName?: string | undefined;
  /** `all` for a system-scoped token, else absent. */
  readonly systemScope?: string | undefined;
  /** `X-Is-Admin-Project`: true unless Keystone says the project is not its admin project. */
  readonly isAdminProject: boolean;
  /** The caller's service token (`X-Service-Token`), when one was given and is valid. */
  readonly service?: ServiceCredentials | undefined;
}

/** Headers as Node gives them: lower-case names, a string or several. */
export type HeaderBag = Readonly<Record<string, string | readonly string[] | undefined>>;

function header(headers: HeaderBag, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value[value.length - 1] : (value as string | undefined);
}

/** The first of the names present (oslo.context's fallbacks: `X-Project-Id`, then `X-Tenant-Id`…). */
function first(headers: HeaderBag, ...names: string[]): string | undefined {
  for (const name of names) {
    const value = header(headers, name);
    if (value !== undefined) return value;
  }
  return undefined;
}

function roleList(value: string | undefined): string[] {
  return value ? value.split(',').map((role) => role.trim()) : [];
}

/**
 * oslo.context's `from_environ` over the headers keystonemiddleware sets: the same names,
 * fallbacks and defaults (roles split on commas; `X-Is-Admin-Project` true when absent).
 */
export function credentialsFromHeaders(headers: HeaderBag): RequestCredentials {
  const serviceUserId = header(headers, 'x-service-user-id');
  const serviceRoles = header(headers, 'x-service-roles');
  const service: ServiceCredentials | undefined =
    serviceUserId === undefined && serviceRoles === undefined
      ? undefined
      : {
          userId: serviceUserId,
          userName: header(headers, 'x-service-user-name'),
          userDomainId: header(headers, 'x-service-user-domain-id'),
          userDomainName: header(headers, 'x-service-user-domain-name'),
          projectId: header(headers, 'x-service-project-id'),
          projectName: header(headers, 'x-service-project-name'),
          projectDomainId: header(headers, 'x-service-project-domain-id'),
          projectDomainName: header(headers, 'x-service-project-domain-name'),
          roles: roleList(serviceRoles),
        };
  return {
    userId: first(headers, 'x-user-id', 'x-user'),
    userName: header(headers, 'x-user-name'),
    userDomainId: header(headers, 'x-user-domain-id'),
    userDomainName: header(headers, 'x-user-domain-name'),
    projectId: first(headers, 'x-project-id', 'x-tenant-id', 'x-tenant'),
    projectName: first(headers, 'x-project-name', 'x-tenant-name'),
    projectDomainId: header(headers, 'x-project-domain-id'),
    projectDomainName: header(headers, 'x-project-domain-name'),
    domainId: header(headers, 'x-domain-id'),
    domainName: header(headers, 'x-domain-name'),
    systemScope: header(headers, 'openstack-system-scope'),
    roles: roleList(first(headers, 'x-roles', 'x-role')),
    isAdminProject: (header(headers, 'x-is-admin-project') ?? 'true').toLowerCase() === 'true',
    service,
  };
}

/** A value as Python has it: an absent one is None. */
const orNull = (value: string | undefined): string | null => value ?? null;

/**
 * What oslo.policy checks credentials against: oslo.context's `to_policy_values`, plus the
 * `system` key oslo.policy copies from `system_scope` when it is set. Absent values are null
 * (Python's None), so `project_id:%(project_id)s` fails for a system-scoped token.
 */
export function policyValuesOf(credentials: RequestCredentials): Record<string, unknown> {
  const values: Record<string, unknown> = {
    user_id: orNull(credentials.userId),
    user_domain_id: orNull(credentials.userDomainId),
    system_scope: orNull(credentials.systemScope),
    domain_id: orNull(credentials.domainId),
    project_id: orNull(credentials.projectId),
    project_domain_id: orNull(credentials.projectDomainId),
    roles: [...credentials.roles],
    is_admin_project: credentials.isAdminProject,
    service_user_id: orNull(credentials.service?.userId),
    service_user_domain_id: orNull(credentials.service?.userDomainId),
    service_project_id: orNull(credentials.service?.projectId),
    service_project_domain_id: orNull(credentials.service?.projectDomainId),
    service_roles: [...(credentials.service?.roles ?? [])],
  };
  if (credentials.systemScope) values.system = credentials.systemScope;
  return values;
}

/** The scope oslo.policy's `enforce_scope` compares with a rule's scope types. */
export function tokenScopeOf(credentials: RequestCredentials): 'system' | 'domain' | 'project' {
  if (credentials.systemScope) return 'system';
  if (credentials.domainId) return 'domain';
  return 'project';
}
