/**
 * Placement's settings from an oslo.config-style INI file (`--config-file`), then command
 * line flags over them. Recognised options (anything else is ignored, as oslo.config does):
 *
 *   [DEFAULT]             bind_host, bind_port (where `baton placement serve` listens)
 *   [placement_database]  connection
 *   [api]                 auth_strategy (only noauth2)
 *   [oslo_policy]         enforce_scope, enforce_new_defaults, policy_file
 *   [cors]                allowed_origin, allow_headers, expose_headers, allow_methods,
 *                         max_age, allow_credentials
 *   [placement]           incomplete_consumer_project_id, incomplete_consumer_user_id,
 *                         randomize_allocation_candidates
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

/** The settings an INI text gives; relative policy files are found beside the config file. */
export function configFromIni(text: string, baseDir: string = process.cwd()): ConfigLayer {
  const sections = parseIni(text);
  const get = (section: string, key: string) => sections.get(section)?.get(key);
  const layer: ConfigLayer = {};
  const set = <K extends keyof ConfigLayer>(
    section: string,
    key: string,
    field: K,
    convert: (option: string, value: string) => ConfigLayer[K],
  ) => {
    const value = get(section, key);
    if (value !== undefined) layer[field] = convert(`[${section}] ${key}`, value);
  };
  set('DEFAULT', 'bind_host', 'host', (_o, v) => v);
  set('DEFAULT', 'bind_port', 'port', (o, v) => toInteger(o, v, 0, 65535));
  set('placement_database', 'connection', 'databaseUrl', (_o, v) => normalizeDatabaseUrl(v));
  set('api', 'auth_strategy', 'authStrategy', (_o, v) => checkAuthStrategy(v));
  set('oslo_policy', 'enforce_scope', 'enforceScope', toBoolean);
  set('oslo_policy', 'enforce_new_defaults', 'enforceNewDefaults', toBoolean);
  set('oslo_policy', 'policy_file', 'policyFile', (_o, v) =>
    v === '' ? undefined : isAbsolute(v) ? v : resolve(baseDir, v),
  );
  set('cors', 'allowed_origin', 'corsAllowedOrigins', (_o, v) => toList(v));
  set('cors', 'allow_headers', 'corsAllowHeaders', (_o, v) => toList(v));
  set('cors', 'expose_headers', 'corsExposeHeaders', (_o, v) => toList(v));
  set('cors', 'allow_methods', 'corsAllowMethods', (_o, v) => toList(v));
  set('cors', 'max_age', 'corsMaxAge', (o, v) => toInteger(o, v, 0, 2 ** 31 - 1));
  set('cors', 'allow_credentials', 'corsAllowCredentials', toBoolean);
  set('placement', 'incomplete_consumer_project_id', 'incompleteConsumerProjectId', (_o, v) => v);
  set('placement', 'incomplete_consumer_user_id', 'incompleteConsumerUserId', (_o, v) => v);
  set('placement', 'randomize_allocation_candidates', 'randomizeAllocationCandidates', toBoolean);
  return layer;
}

/** Reads and parses a config file; every problem names the file. */
export async function loadConfigFile(path: string): Promise<ConfigLayer> {
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
