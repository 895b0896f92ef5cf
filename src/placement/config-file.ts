/**
 * Placement's settings from an oslo.config-style INI file (`--config-file`), then command
 * line flags over them. The options the file may set are data (PLACEMENT_OPTIONS: section,
 * name, help, how the text is read); anything else is ignored, as oslo.config does. Besides
 * Placement's own settings, the file may set the toolkit's `[DEFAULT] pin_release_version`,
 * which is kept apart: only the composition root (service.ts) reads it.
 *
 * Parsing is pure; only loadConfigFile reads the disk.
 */
import { dirname, isAbsolute, resolve } from 'node:path';
import {
  ConfigFileError,
  normalizeDatabaseUrl,
  parseIni,
  readConfigText,
  toBoolean,
  toInteger,
  toList,
} from '../service/config-ini.ts';
import type { PlacementConfig } from './config.ts';

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

export const AUTH_STRATEGIES = ['noauth2'] as const;

export function checkAuthStrategy(value: string): 'noauth2' {
  if (value === 'noauth2') return value;
  throw new ConfigFileError(
    `auth_strategy '${value}' is not supported; only ${AUTH_STRATEGIES.join(', ')} is implemented`,
  );
}

/** What a Placement config file sets: Placement's settings, and the release pin apart. */
export interface PlacementConfigFile {
  readonly settings: ConfigLayer;
  /** `[DEFAULT] pin_release_version`; undefined when the file does not set it. */
  readonly pinReleaseVersion?: string;
}

type FileValues = ConfigLayer & { pinReleaseVersion?: string };

/** One option of the file: where it is, what it sets, and how its text is read. */
export interface ConfigOption {
  readonly section: string;
  readonly name: string;
  readonly help: string;
  readonly field: keyof FileValues;
  /** The value from the text; throws ConfigFileError naming `option` when it cannot. */
  readonly parse: (value: string, option: string, baseDir: string) => unknown;
}

function option<K extends keyof FileValues>(
  section: string,
  name: string,
  field: K,
  help: string,
  parse: (value: string, option: string, baseDir: string) => FileValues[K],
): ConfigOption {
  return { section, name, field, help, parse };
}

const asText = (value: string) => value;
const boolean = (value: string, name: string) => toBoolean(name, value);
const list = (value: string) => toList(value);

export const PLACEMENT_OPTIONS: readonly ConfigOption[] = [
  option('DEFAULT', 'bind_host', 'host', 'Address `baton placement serve` listens on.', asText),
  option('DEFAULT', 'bind_port', 'port', 'Port `baton placement serve` listens on.', (v, o) =>
    toInteger(o, v, 0, 65535),
  ),
  option(
    'DEFAULT',
    'pin_release_version',
    'pinReleaseVersion',
    'Serve at most what this release serves, during a rolling upgrade; empty: not pinned.',
    asText,
  ),
  option('placement_database', 'connection', 'databaseUrl', 'The database URL.', (v) =>
    normalizeDatabaseUrl(v),
  ),
  option('api', 'auth_strategy', 'authStrategy', 'Only noauth2 is implemented.', (v) =>
    checkAuthStrategy(v),
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
    (v, _o, baseDir) => (v === '' ? undefined : isAbsolute(v) ? v : resolve(baseDir, v)),
  ),
  option('cors', 'allowed_origin', 'corsAllowedOrigins', 'Origins allowed; empty: CORS off.', list),
  option('cors', 'allow_headers', 'corsAllowHeaders', 'Request headers allowed.', list),
  option('cors', 'expose_headers', 'corsExposeHeaders', 'Response headers exposed.', list),
  option('cors', 'allow_methods', 'corsAllowMethods', 'Methods allowed.', list),
  option('cors', 'max_age', 'corsMaxAge', 'Seconds a preflight answer may be cached.', (v, o) =>
    toInteger(o, v, 0, 2 ** 31 - 1),
  ),
  option('cors', 'allow_credentials', 'corsAllowCredentials', 'Allow credentials.', boolean),
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
];

/** What an INI text sets; relative policy files are found beside the config file. */
export function configFromIni(text: string, baseDir: string = process.cwd()): PlacementConfigFile {
  const sections = parseIni(text);
  const values: Record<string, unknown> = {};
  for (const { section, name, field, parse } of PLACEMENT_OPTIONS) {
    const value = sections.get(section)?.get(name);
    if (value !== undefined) values[field] = parse(value, `[${section}] ${name}`, baseDir);
  }
  const { pinReleaseVersion, ...settings } = values as FileValues;
  return pinReleaseVersion === undefined ? { settings } : { settings, pinReleaseVersion };
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
