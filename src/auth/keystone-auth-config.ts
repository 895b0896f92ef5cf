/**
 * `[keystone_authtoken]`'s settings resolved into what the authenticator needs: who the
 * service authenticates as and with which scope, where, and how requests to Keystone are
 * bounded; every missing or contradictory option named at once. Pure.
 */
import { ConfigFileError } from '../service/config-ini.ts';
import {
  DEFAULT_KEYSTONE_TIMEOUT_SECONDS,
  type KeystoneAuthtokenSettings,
  SECTION,
} from './keystone-options.ts';

/** Who the service authenticates as, in Keystone's `POST /v3/auth/tokens` terms. */
export type DomainRef = { readonly id: string } | { readonly name: string };
export type TokenScope =
  | { readonly system: { readonly all: true } }
  | {
      readonly project:
        | { readonly id: string }
        | { readonly name: string; readonly domain: DomainRef };
    }
  | { readonly domain: DomainRef };

/** The `[keystone_authtoken]` settings the authenticator works from, read and checked. */
export interface KeystoneAuthConfig {
  /** Where the service authenticates (the v3 root, `…/v3`). */
  readonly authUrl: string;
  /** What a 401's `WWW-Authenticate: Keystone uri="…"` names. */
  readonly wwwAuthenticateUri: string;
  readonly user: { readonly id: string } | { readonly name: string; readonly domain: DomainRef };
  readonly password: string;
  readonly scope: TokenScope | undefined;
  readonly interface: string;
  readonly regionName: string | undefined;
  readonly timeoutMs: number;
  readonly connectRetries: number;
  readonly tokenCacheSeconds: number;
  readonly serviceTokenRoles: readonly string[];
  readonly serviceTokenRolesRequired: boolean;
  readonly serviceType: string | undefined;
  readonly tls: {
    readonly cafile: string | undefined;
    readonly certfile: string | undefined;
    readonly keyfile: string | undefined;
    readonly insecure: boolean;
  };
}

const set = (value: string | undefined): string | undefined =>
  value === undefined || value.trim() === '' ? undefined : value.trim();

/** `…/v3` from an Identity URL given as its root or its v3 (or v2.0) endpoint. */
export function identityV3Url(url: string): string {
  const base = url.replace(/\/+$/, '');
  if (/\/v3$/.test(base)) return base;
  if (/\/v2\.0$/.test(base)) return `${base.slice(0, -'/v2.0'.length)}/v3`;
  return `${base}/v3`;
}

function domainRef(
  id: string | undefined,
  name: string | undefined,
  settings: KeystoneAuthtokenSettings,
): DomainRef | undefined {
  if (id !== undefined) return { id };
  if (name !== undefined) return { name };
  const defaultId = set(settings.keystoneDefaultDomainId);
  if (defaultId !== undefined) return { id: defaultId };
  const defaultName = set(settings.keystoneDefaultDomainName);
  return defaultName === undefined ? undefined : { name: defaultName };
}

function checkedUrl(value: string, option: string, section: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigFileError(`[${section}] ${option}: '${value}' is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigFileError(`[${section}] ${option}: '${value}' is not an http(s) URL`);
  }
  return value;
}

/**
 * The settings as the authenticator needs them; a ConfigFileError naming every missing or
 * contradictory option (keystonemiddleware would fail at the first request instead).
 */
export function keystoneAuthConfigOf(
  settings: KeystoneAuthtokenSettings,
  /** Where the settings come from, for the messages (a client's credentials: `json_rpc`). */
  section: string = SECTION,
  /** What needs them, for the messages. */
  purpose = 'auth_strategy keystone',
): KeystoneAuthConfig {
  const problems: string[] = [];
  const authUrlText = set(settings.keystoneAuthUrl);
  if (authUrlText === undefined) problems.push('auth_url is required');
  const authType = set(settings.keystoneAuthType);
  if (authType === undefined) problems.push('auth_type is required (password)');
  const password = settings.keystonePassword;
  if (password === undefined || password === '') problems.push('password is required');

  const userId = set(settings.keystoneUserId);
  const username = set(settings.keystoneUsername);
  let user: KeystoneAuthConfig['user'] | undefined;
  if (userId !== undefined) user = { id: userId };
  else if (username === undefined) problems.push('username (or user_id) is required');
  else {
    const domain = domainRef(
      set(settings.keystoneUserDomainId),
      set(settings.keystoneUserDomainName),
      settings,
    );
    if (domain === undefined) {
      problems.push('username needs user_domain_name or user_domain_id (or default_domain_*)');
    } else user = { name: username, domain };
  }

  let scope: TokenScope | undefined;
  const projectId = set(settings.keystoneProjectId);
  const projectName = set(settings.keystoneProjectName);
  const domainId = set(settings.keystoneDomainId);
  const domainName = set(settings.keystoneDomainName);
  const system = set(settings.keystoneSystemScope);
  const scopes = [projectId ?? projectName, domainId ?? domainName, system].filter(
    (value) => value !== undefined,
  );
  if (scopes.length > 1) {
    problems.push('choose one scope: project_*, domain_* or system_scope');
  } else if (system !== undefined) {
    scope = { system: { all: true } };
  } else if (projectId !== undefined) {
    scope = { project: { id: projectId } };
  } else if (projectName !== undefined) {
    const domain = domainRef(
      set(settings.keystoneProjectDomainId),
      set(settings.keystoneProjectDomainName),
      settings,
    );
    if (domain === undefined) {
      problems.push(
        'project_name needs project_domain_name or project_domain_id (or default_domain_*)',
      );
    } else scope = { project: { name: projectName, domain } };
  } else if (domainId !== undefined) {
    scope = { domain: { id: domainId } };
  } else if (domainName !== undefined) {
    scope = { domain: { name: domainName } };
  }

  if (problems.length > 0 || user === undefined || authUrlText === undefined) {
    throw new ConfigFileError(`${purpose}: [${section}] ${problems.join('; ')}`);
  }
  const authUrl = identityV3Url(checkedUrl(authUrlText, 'auth_url', section));
  const www =
    set(settings.keystoneWwwAuthenticateUri) ?? set(settings.keystoneAuthUri) ?? authUrlText;
  return {
    authUrl,
    wwwAuthenticateUri: www,
    user,
    password: password as string,
    scope,
    interface: settings.keystoneInterface,
    regionName: set(settings.keystoneRegionName),
    timeoutMs: (settings.keystoneHttpConnectTimeout ?? DEFAULT_KEYSTONE_TIMEOUT_SECONDS) * 1000,
    connectRetries: settings.keystoneHttpRequestMaxRetries,
    tokenCacheSeconds: settings.keystoneTokenCacheTime,
    serviceTokenRoles: settings.keystoneServiceTokenRoles,
    serviceTokenRolesRequired: settings.keystoneServiceTokenRolesRequired,
    serviceType: set(settings.keystoneServiceType),
    tls: {
      cafile: settings.keystoneCafile,
      certfile: settings.keystoneCertfile,
      keyfile: settings.keystoneKeyfile,
      insecure: settings.keystoneInsecure,
    },
  };
}
