/**
 * Placement's settings from an oslo.config-style INI file (`--config-file`), then command
 * line flags over them. The options the file may set are data (PLACEMENT_OPTIONS: section,
 * name, help, how the text is read); anything else is ignored, as oslo.config does (the
 * command warns about it: src/service/config-check.ts). Besides
 * Placement's own settings, the file may set the toolkit's `[DEFAULT] pin_release_version`,
 * which is kept apart: only the composition root (service.ts) reads it.
 *
 * Parsing is pure; only loadConfigFile reads the disk.
 */
import { dirname, resolve } from 'node:path';
import { KEYSTONE_AUTHTOKEN_OPTIONS } from '../auth/keystone-options.ts';
import { INSECURE_NOAUTH_OPTION } from '../auth/listen-safety.ts';
import { MASTER } from '../releases/release-mapping.ts';
import type { ConfigProject } from '../service/config-files.ts';
import { ConfigFileError, parseIni, readConfigText } from '../service/config-ini.ts';
import {
  BOOLEAN,
  type ConfigOption,
  type ConfigSchema,
  DATABASE_URL,
  integer,
  LIST,
  type OptionType,
  type OptionTypeLike,
  optionType,
  PATH,
  PORT,
  readConfigOptions,
  STRING,
} from '../service/config-options.ts';
import { DATA_DIR_ENV } from '../service/data-dir.ts';
import { OPERATIONS_OPTIONS } from '../service/operations-options.ts';
import { type AuthStrategy, defaultPlacementConfig, type PlacementConfig } from './config.ts';
import { PLACEMENT_RELEASES } from './releases.ts';

// The INI dialect is the toolkit's (src/service/config-ini.ts); these stay importable from here.
export {
  ConfigFileError,
  type IniSections,
  normalizeDatabaseUrl,
  parseIni,
  toList,
} from '../service/config-ini.ts';

/** Settings given so far (file or flags); unset ones fall through to the next layer. */
export type ConfigLayer = { -readonly [K in keyof PlacementConfig]?: PlacementConfig[K] };

export const AUTH_STRATEGIES: readonly AuthStrategy[] = ['keystone', 'noauth2'];

/** `[api] auth_strategy`: refused, naming `option`, unless it is one Baton implements. */
export function checkAuthStrategy(value: string, option = 'auth_strategy'): AuthStrategy {
  const known = AUTH_STRATEGIES.find((strategy) => strategy === value);
  if (known !== undefined) return known;
  throw new ConfigFileError(
    `${option}: '${value}' is not supported; one of ${AUTH_STRATEGIES.join(', ')}`,
  );
}

/** What a Placement config file sets: Placement's settings, and the process's settings apart. */
export interface PlacementConfigFile {
  readonly settings: ConfigLayer;
  /** `[DEFAULT] pin_release_version`; undefined when the file does not set it. */
  readonly pinReleaseVersion?: string;
  /** `[DEFAULT] state_path`, absolute: the data directory. */
  readonly dataDir?: string;
  /** `[DEFAULT] workers`: server processes sharing the port. */
  readonly workers?: number;
}

/** Settings of the process rather than of the API, read by the composition root and the command. */
type ProcessValues = { pinReleaseVersion?: string; dataDir?: string; workers?: number };
type FileValues = ConfigLayer & ProcessValues;

export type { ConfigOption } from '../service/config-options.ts';

/** One option: where it is in the file, the setting it fills, its type, and its flag. */
function option<K extends keyof FileValues>(
  section: string,
  name: string,
  field: K,
  help: string,
  type: OptionTypeLike<FileValues[K]>,
  extra: Pick<ConfigOption, 'flag' | 'env' | 'defaultText'> = {},
): ConfigOption {
  return { section, name, field, help, type: optionType(type) as OptionType, ...extra };
}

const asText = STRING;
const HOST: OptionType<string> = { ...STRING, metavar: 'address' };
const boolean = BOOLEAN;
const list = LIST;

const AUTH_STRATEGY: OptionType<AuthStrategy> = {
  ...STRING,
  metavar: 'strategy',
  parse: (text, option) => checkAuthStrategy(text, option),
  notes: ['Possible values:', ...AUTH_STRATEGIES],
};

/** The pin: any release of the mapping, or empty; checked against it when the process starts. */
const PIN: OptionType<string> = {
  ...STRING,
  metavar: 'release',
  notes: ['Possible values:', ...Object.keys(PLACEMENT_RELEASES), MASTER],
};

export const PLACEMENT_OPTIONS: readonly ConfigOption[] = [
  option('DEFAULT', 'bind_host', 'host', 'Address `baton placement serve` listens on.', HOST, {
    flag: 'host',
  }),
  option(
    'DEFAULT',
    'bind_port',
    'port',
    'Port `baton placement serve` listens on (0: any free one).',
    PORT,
    {
      flag: 'port',
      env: 'BATON_PLACEMENT_PORT',
    },
  ),
  option(
    'DEFAULT',
    'workers',
    'workers',
    'Server processes sharing the port, as the real service runs several WSGI processes.',
    integer(1, 64),
  ),
  option(
    'DEFAULT',
    'state_path',
    'dataDir',
    'The data directory: where the embedded SQLite database is when [placement_database] connection is unset. Unset: $XDG_DATA_HOME/baton, else ~/.local/share/baton.',
    PATH,
    { flag: 'data-dir', env: DATA_DIR_ENV },
  ),
  option(
    'DEFAULT',
    'pin_release_version',
    'pinReleaseVersion',
    'Serve at most what this release serves, during a rolling upgrade; empty: not pinned.',
    PIN,
    { env: 'BATON_PIN_RELEASE_VERSION' },
  ),
  option(
    'placement_database',
    'connection',
    'databaseUrl',
    'The database URL: sqlite:<path>, sqlite:////<absolute path>, postgresql[+driver]://… or mysql[+driver]://…. Unset: sqlite:<state_path>/baton.sqlite.',
    DATABASE_URL,
    { flag: 'db' },
  ),
  option(
    'api',
    'auth_strategy',
    'authStrategy',
    'keystone: tokens validated with Keystone ([keystone_authtoken]); noauth2: the token names the caller, nothing is checked (development; loopback only).',
    AUTH_STRATEGY,
  ),
  option(
    'api',
    INSECURE_NOAUTH_OPTION,
    'insecureNoauthOnAnyAddress',
    'Let noauth2 listen on a non-loopback address, where anyone who reaches it can act as any user, admin included.',
    boolean,
  ),
  option('oslo_policy', 'enforce_scope', 'enforceScope', 'Check the token scope.', boolean),
  option(
    'oslo_policy',
    'enforce_new_defaults',
    'enforceNewDefaults',
    'Use the new default rules.',
    boolean,
  ),
  option(
    'oslo_policy',
    'policy_file',
    'policyFile',
    'YAML or JSON rules over the defaults; relative to the config file.',
    PATH,
  ),
  option(
    'cors',
    'allowed_origin',
    'corsAllowedOrigins',
    'Origins allowed; empty: CORS off.',
    list,
    {
      flag: 'cors-allowed-origin',
    },
  ),
  option('cors', 'allow_headers', 'corsAllowHeaders', 'Request headers allowed.', list, {
    flag: 'cors-allow-headers',
  }),
  option('cors', 'expose_headers', 'corsExposeHeaders', 'Response headers exposed.', list, {
    flag: 'cors-expose-headers',
  }),
  option('cors', 'allow_methods', 'corsAllowMethods', 'Methods allowed.', list, {
    flag: 'cors-allow-methods',
  }),
  option(
    'cors',
    'max_age',
    'corsMaxAge',
    'Seconds a preflight answer may be cached.',
    integer(0, 2 ** 31 - 1),
    {
      flag: 'cors-max-age',
    },
  ),
  option('cors', 'allow_credentials', 'corsAllowCredentials', 'Allow credentials.', boolean, {
    flag: 'cors-allow-credentials',
  }),
  option(
    'placement',
    'incomplete_consumer_project_id',
    'incompleteConsumerProjectId',
    'Project of consumers created for allocations that had none.',
    asText,
  ),
  option(
    'placement',
    'incomplete_consumer_user_id',
    'incompleteConsumerUserId',
    'User of consumers created for allocations that had none.',
    asText,
  ),
  option(
    'placement',
    'randomize_allocation_candidates',
    'randomizeAllocationCandidates',
    'Allocation candidates in random order.',
    boolean,
  ),
  // Logs, health check and metrics: the toolkit's options, as every service has them
  // (src/service/operations-options.ts, docs/operations.md).
  ...OPERATIONS_OPTIONS,
  // Keystone: the toolkit's [keystone_authtoken] (src/auth/keystone-options.ts, docs/security.md).
  ...KEYSTONE_AUTHTOKEN_OPTIONS,
];

/**
 * The options with their defaults: what `baton config sample` and `--help` show. The
 * database has none of its own: unset, it is the SQLite file in the data directory.
 */
export const PLACEMENT_CONFIG: ConfigSchema = {
  options: PLACEMENT_OPTIONS,
  defaults: (({ databaseUrl: _, ...rest }) => ({ ...rest, workers: 1 }))(
    defaultPlacementConfig(''),
  ),
};

/** Splits what the file sets into Placement's settings and the process's own. */
export function splitFileValues(values: Record<string, unknown>): PlacementConfigFile {
  const { pinReleaseVersion, dataDir, workers, ...settings } = values as FileValues;
  return {
    settings,
    ...(pinReleaseVersion === undefined ? {} : { pinReleaseVersion }),
    ...(dataDir === undefined ? {} : { dataDir }),
    ...(workers === undefined ? {} : { workers }),
  };
}

/** What an INI text sets; relative paths (policy file, state path) are found beside the config file. */
export function configFromIni(text: string, baseDir: string = process.cwd()): PlacementConfigFile {
  return splitFileValues(readConfigOptions(parseIni(text), PLACEMENT_OPTIONS, baseDir));
}

/** Reads and parses a config file; every problem names the file. */
export async function loadConfigFile(path: string): Promise<PlacementConfigFile> {
  const text = await readConfigText(path);
  try {
    return configFromIni(text, dirname(resolve(path)));
  } catch (error) {
    if (error instanceof ConfigFileError) {
      throw new ConfigFileError(`config file ${path}: ${error.message}`);
    }
    throw error;
  }
}

/** Reads several files in order (oslo.config's `--config-file A --config-file B`): a later file's option wins. */
export async function loadConfigFiles(paths: readonly string[]): Promise<PlacementConfigFile> {
  let merged: PlacementConfigFile = { settings: {} };
  for (const path of paths) {
    const file = await loadConfigFile(path);
    merged = {
      ...merged,
      ...file,
      settings: mergeLayers(merged.settings, file.settings),
    };
  }
  return merged;
}

function mergeLayers(base: ConfigLayer, layer: ConfigLayer): ConfigLayer {
  const merged: ConfigLayer = { ...base };
  for (const [key, value] of Object.entries(layer)) {
    if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  }
  return merged;
}

/**
 * The real Placement's project and programs: its files are found where oslo.config finds
 * `placement.conf` (src/service/config-files.ts); `placement-manage` and `placement-status`
 * also read a file of their own name.
 */
export const PLACEMENT_CONFIG_PROJECT: ConfigProject = {
  project: 'placement',
  programs: { db: 'placement-manage', status: 'placement-status' },
};

/** Defaults, then the file, then the flags; undefined values in a layer do not override. */
export function mergeConfig(base: PlacementConfig, ...layers: ConfigLayer[]): PlacementConfig {
  const merged: ConfigLayer = { ...base };
  for (const layer of layers) {
    for (const [key, value] of Object.entries(layer)) {
      if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
    }
  }
  return merged as PlacementConfig;
}
