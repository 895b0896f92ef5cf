/**
 * Placement's settings from an oslo.config-style INI file (`--config-file`), then command
 * line flags over them. The options the file may set are data (PLACEMENT_OPTIONS: section,
 * name, help, how the text is read); anything else is ignored, as oslo.config does. Besides
 * Placement's own settings, the file may set the toolkit's `[DEFAULT] pin_release_version`,
 * which is kept apart: only the composition root (service.ts) reads it.
 *
 * Parsing is pure; only loadConfigFile reads the disk.
 */
import { readFile } from 'node:fs/promises';
import { dirname, isAbsolute, resolve } from 'node:path';
import type { PlacementConfig } from './config.ts';

export class ConfigFileError extends Error {
  override name = 'ConfigFileError';
}

/** Settings given so far (file or flags); unset ones fall through to the next layer. */
export type ConfigLayer = { -readonly [K in keyof PlacementConfig]?: PlacementConfig[K] };

export const AUTH_STRATEGIES = ['noauth2'] as const;

export type IniSections = Map<string, Map<string, string>>;

/** oslo.config's INI dialect: `[section]`, `key = value` or `key: value`, `#`/`;` comments, indented continuation lines, surrounding quotes stripped; the last value of a key wins. */
export function parseIni(text: string): IniSections {
  const sections: IniSections = new Map();
  let section: Map<string, string> | undefined;
  let lastKey: string | undefined;
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, index) => {
    const where = `line ${index + 1}`;
    if (raw.trim() === '' || /^\s*[#;]/.test(raw)) {
      lastKey = undefined;
      return;
    }
    if (/^\s/.test(raw) && section !== undefined && lastKey !== undefined) {
      section.set(lastKey, `${section.get(lastKey) ?? ''}\n${raw.trim()}`);
      return;
    }
    const header = /^\[([^\]]+)\]\s*$/.exec(raw.trim());
    if (header?.[1] !== undefined) {
      const name = header[1].trim();
      section = sections.get(name) ?? new Map();
      sections.set(name, section);
      lastKey = undefined;
      return;
    }
    const pair = /^\s*([^=:\s][^=:]*?)\s*[=:]\s?(.*)$/.exec(raw);
    if (pair?.[1] === undefined || pair[2] === undefined) {
      throw new ConfigFileError(`${where}: expected 'key = value' or '[section]'`);
    }
    if (section === undefined) {
      throw new ConfigFileError(`${where}: option '${pair[1]}' before any [section]`);
    }
    let value = pair[2].trim();
    if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.at(-1) === value[0]) {
      value = value.slice(1, -1);
    }
    section.set(pair[1], value);
    lastKey = pair[1];
  });
  return sections;
}

function toBoolean(option: string, value: string): boolean {
  const lowered = value.trim().toLowerCase();
  if (['true', 'yes', 'on', '1'].includes(lowered)) return true;
  if (['false', 'no', 'off', '0'].includes(lowered)) return false;
  throw new ConfigFileError(`${option}: '${value}' is not a boolean (true/false)`);
}

function toInteger(option: string, value: string, min: number, max: number): number {
  const number = Number(value.trim());
  if (!/^\s*\d+\s*$/.test(value) || number < min || number > max) {
    throw new ConfigFileError(`${option}: '${value}' is not an integer from ${min} to ${max}`);
  }
  return number;
}

/** A comma-separated list option; blank items are dropped. */
export function toList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** oslo.db URLs name a driver (`mysql+pymysql://`); the backend is what matters here. */
export function normalizeDatabaseUrl(url: string): string {
  return url.replace(/^([a-z]+)\+[a-z0-9_]+:/i, '$1:');
}

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
  // Logs, health check and metrics: the toolkit's settings (docs/operations.md), under the
  // names oslo.log and oslo.middleware give them where they have one.
  option(
    'DEFAULT',
    'debug',
    'debug',
    'Log at debug level (unless --log-level says otherwise).',
    boolean,
  ),
  option('DEFAULT', 'use_json', 'useJson', 'Log JSON lines instead of text.', boolean),
  option(
    'DEFAULT',
    'log_file',
    'logFile',
    'Append the log to this file instead of stderr; relative to log_dir when set.',
    (v) => v || undefined,
  ),
  option(
    'DEFAULT',
    'log_dir',
    'logDir',
    'The directory of a relative log_file.',
    (v) => v || undefined,
  ),
  option(
    'healthcheck',
    'disable_by_file_path',
    'healthcheckDisableByFilePath',
    '/healthcheck answers 503 DISABLED BY FILE while this file exists.',
    (v) => v || undefined,
  ),
  option(
    'healthcheck',
    'drain_delay',
    'drainDelaySeconds',
    'Seconds /healthcheck answers 503 DRAINING after SIGTERM before the listener closes.',
    (v, o) => toInteger(o, v, 0, 3600),
  ),
  option('metrics', 'enabled', 'metricsEnabled', 'Count requests and answer /metrics.', boolean),
  option('metrics', 'bind_host', 'metricsHost', 'Address of the metrics listener.', asText),
  option(
    'metrics',
    'bind_port',
    'metricsPort',
    'A metrics listener on this port (with --workers, the whole pool in one scrape).',
    (v, o) => (v === '' ? undefined : toInteger(o, v, 0, 65535)),
  ),
  option(
    'metrics',
    'refresh_interval',
    'metricsRefreshSeconds',
    'Seconds between reads of the services table for the deployment gauges.',
    (v, o) => toInteger(o, v, 1, 3600),
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
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new ConfigFileError(`config file ${path}: ${reason}`);
  }
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
