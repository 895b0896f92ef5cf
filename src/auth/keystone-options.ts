/**
 * `[keystone_authtoken]`: the service's own credentials and how tokens are validated, as
 * keystonemiddleware's auth_token reads them (with keystoneauth's `password` plugin). Options
 * as data (src/service/config-options.ts), so every service that authenticates with Keystone
 * reads the same section the same way, and its flags (`--keystone-auth-url`…) are made from
 * it; the password has no flag, so it never shows in a process list. Pure.
 */
import { ConfigFileError } from '../service/config-ini.ts';
import {
  BOOLEAN,
  type ConfigOption,
  choice,
  integer,
  LIST,
  type OptionType,
  PATH,
  STRING,
} from '../service/config-options.ts';

/** The section's settings, flat, as a service's settings object holds them. */
export interface KeystoneAuthtokenSettings {
  readonly keystoneWwwAuthenticateUri?: string | undefined;
  readonly keystoneAuthUri?: string | undefined;
  readonly keystoneAuthUrl?: string | undefined;
  readonly keystoneAuthType?: string | undefined;
  readonly keystoneUsername?: string | undefined;
  readonly keystoneUserId?: string | undefined;
  readonly keystonePassword?: string | undefined;
  readonly keystoneUserDomainName?: string | undefined;
  readonly keystoneUserDomainId?: string | undefined;
  readonly keystoneProjectName?: string | undefined;
  readonly keystoneProjectId?: string | undefined;
  readonly keystoneProjectDomainName?: string | undefined;
  readonly keystoneProjectDomainId?: string | undefined;
  readonly keystoneDomainName?: string | undefined;
  readonly keystoneDomainId?: string | undefined;
  readonly keystoneSystemScope?: string | undefined;
  readonly keystoneDefaultDomainName?: string | undefined;
  readonly keystoneDefaultDomainId?: string | undefined;
  readonly keystoneInterface: string;
  readonly keystoneRegionName?: string | undefined;
  readonly keystoneHttpConnectTimeout?: number | undefined;
  readonly keystoneHttpRequestMaxRetries: number;
  readonly keystoneTokenCacheTime: number;
  readonly keystoneServiceTokenRoles: readonly string[];
  readonly keystoneServiceTokenRolesRequired: boolean;
  readonly keystoneServiceType?: string | undefined;
  readonly keystoneCafile?: string | undefined;
  readonly keystoneCertfile?: string | undefined;
  readonly keystoneKeyfile?: string | undefined;
  readonly keystoneInsecure: boolean;
}

/** keystonemiddleware's defaults; every setting is listed, unset ones as undefined. */
export const KEYSTONE_AUTHTOKEN_DEFAULTS: KeystoneAuthtokenSettings = {
  keystoneWwwAuthenticateUri: undefined,
  keystoneAuthUri: undefined,
  keystoneAuthUrl: undefined,
  keystoneAuthType: undefined,
  keystoneUsername: undefined,
  keystoneUserId: undefined,
  keystonePassword: undefined,
  keystoneUserDomainName: undefined,
  keystoneUserDomainId: undefined,
  keystoneProjectName: undefined,
  keystoneProjectId: undefined,
  keystoneProjectDomainName: undefined,
  keystoneProjectDomainId: undefined,
  keystoneDomainName: undefined,
  keystoneDomainId: undefined,
  keystoneSystemScope: undefined,
  keystoneDefaultDomainName: undefined,
  keystoneDefaultDomainId: undefined,
  keystoneRegionName: undefined,
  keystoneHttpConnectTimeout: undefined,
  keystoneServiceType: undefined,
  keystoneCafile: undefined,
  keystoneCertfile: undefined,
  keystoneKeyfile: undefined,
  keystoneInterface: 'internal',
  keystoneHttpRequestMaxRetries: 3,
  keystoneTokenCacheTime: 300,
  keystoneServiceTokenRoles: ['service'],
  keystoneServiceTokenRolesRequired: false,
  keystoneInsecure: false,
};

/**
 * keystonemiddleware sets no timeout unless `http_connect_timeout` is given, so a Keystone
 * that accepts connections and never answers holds every request; Baton bounds each request.
 */
export const DEFAULT_KEYSTONE_TIMEOUT_SECONDS = 10;

const SECTION = 'keystone_authtoken';

function option(
  name: string,
  field: keyof KeystoneAuthtokenSettings,
  help: string,
  type: OptionType,
  extra: Pick<ConfigOption, 'flag' | 'defaultText'> = {},
): ConfigOption {
  return {
    section: SECTION,
    name,
    field,
    help,
    type,
    flag: `keystone-${name.replaceAll('_', '-')}`,
    ...extra,
  };
}

const URL_TEXT: OptionType<string> = { ...STRING, metavar: 'url' };

export const KEYSTONE_AUTHTOKEN_OPTIONS: readonly ConfigOption[] = [
  option(
    'www_authenticate_uri',
    'keystoneWwwAuthenticateUri',
    'The public Identity endpoint clients are told to authenticate at (WWW-Authenticate of a 401). Unset: auth_uri, else auth_url.',
    URL_TEXT,
  ),
  option('auth_uri', 'keystoneAuthUri', 'Deprecated name of www_authenticate_uri.', URL_TEXT),
  option(
    'auth_url',
    'keystoneAuthUrl',
    'The Identity endpoint the service authenticates at (…/v3 or its root).',
    URL_TEXT,
  ),
  option(
    'auth_type',
    'keystoneAuthType',
    'How the service authenticates; only password is implemented.',
    choice(['password', 'v3password'], true),
  ),
  option('username', 'keystoneUsername', "The service user's name.", STRING),
  option('user_id', 'keystoneUserId', "The service user's id (instead of username).", STRING),
  option('password', 'keystonePassword', "The service user's password (no flag).", STRING, {
    flag: false,
  }),
  option('user_domain_name', 'keystoneUserDomainName', "The service user's domain name.", STRING),
  option('user_domain_id', 'keystoneUserDomainId', "The service user's domain id.", STRING),
  option('project_name', 'keystoneProjectName', "The service's project (token scope).", STRING),
  option('project_id', 'keystoneProjectId', "The service's project id (token scope).", STRING),
  option(
    'project_domain_name',
    'keystoneProjectDomainName',
    "The service project's domain name.",
    STRING,
  ),
  option(
    'project_domain_id',
    'keystoneProjectDomainId',
    "The service project's domain id.",
    STRING,
  ),
  option('domain_name', 'keystoneDomainName', 'A domain to scope the service token to.', STRING),
  option('domain_id', 'keystoneDomainId', 'A domain id to scope the service token to.', STRING),
  option(
    'system_scope',
    'keystoneSystemScope',
    'Scope the service token to the system (all).',
    choice(['all'], true),
  ),
  option(
    'default_domain_name',
    'keystoneDefaultDomainName',
    'Domain of the user and project when their own domain options are unset.',
    STRING,
  ),
  option(
    'default_domain_id',
    'keystoneDefaultDomainId',
    'Domain id of the user and project when their own domain options are unset.',
    STRING,
  ),
  option(
    'interface',
    'keystoneInterface',
    "The Identity endpoint of the service token's catalog that validates tokens.",
    choice(['public', 'internal', 'admin']),
  ),
  option('region_name', 'keystoneRegionName', 'The region of that endpoint.', STRING),
  option(
    'http_connect_timeout',
    'keystoneHttpConnectTimeout',
    `Seconds a request to Keystone may take. Unset: ${DEFAULT_KEYSTONE_TIMEOUT_SECONDS} (keystonemiddleware: no limit).`,
    integer(1, 3600),
  ),
  option(
    'http_request_max_retries',
    'keystoneHttpRequestMaxRetries',
    'Retries of a request to Keystone that could not connect (0.5 s, then doubling).',
    integer(0, 10),
  ),
  option(
    'token_cache_time',
    'keystoneTokenCacheTime',
    'Seconds a validated token is trusted without asking Keystone again (a revocation counts after at most this long); 0: always ask.',
    integer(0, 86400),
  ),
  option(
    'service_token_roles',
    'keystoneServiceTokenRoles',
    'A service token (X-Service-Token) is one when it holds one of these roles.',
    LIST,
  ),
  option(
    'service_token_roles_required',
    'keystoneServiceTokenRolesRequired',
    'Refuse a service token without one of service_token_roles.',
    BOOLEAN,
  ),
  option(
    'service_type',
    'keystoneServiceType',
    "This service's type in the catalog, checked against an application credential's access rules.",
    STRING,
  ),
  option('cafile', 'keystoneCafile', 'CA bundle for an https Keystone.', PATH),
  option('certfile', 'keystoneCertfile', 'Client certificate for Keystone.', PATH),
  option('keyfile', 'keystoneKeyfile', 'Key of the client certificate.', PATH),
  option('insecure', 'keystoneInsecure', "Do not verify Keystone's certificate.", BOOLEAN),
];

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

function checkedUrl(value: string, option: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigFileError(`[${SECTION}] ${option}: '${value}' is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigFileError(`[${SECTION}] ${option}: '${value}' is not an http(s) URL`);
  }
  return value;
}

/**
 * The settings as the authenticator needs them; a ConfigFileError naming every missing or
 * contradictory option (keystonemiddleware would fail at the first request instead).
 */
export function keystoneAuthConfigOf(settings: KeystoneAuthtokenSettings): KeystoneAuthConfig {
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
    throw new ConfigFileError(`auth_strategy keystone: [${SECTION}] ${problems.join('; ')}`);
  }
  const authUrl = identityV3Url(checkedUrl(authUrlText, 'auth_url'));
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
