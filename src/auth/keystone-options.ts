/**
 * `[keystone_authtoken]`: the service's own credentials and how tokens are validated, as
 * keystonemiddleware's auth_token reads them (with keystoneauth's `password` plugin). Options
 * as data (src/service/config-options.ts), so every service that authenticates with Keystone
 * reads the same section the same way, and its flags (`--keystone-auth-url`…) are made from
 * it; the password has no flag, so it never shows in a process list. Pure.
 */
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

export const SECTION = 'keystone_authtoken';

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

/**
 * The `[keystone_authtoken]` options a service reads, as config options (for reading and for the
 * sample file).
 */
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
