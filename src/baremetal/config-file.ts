/**
 * The bare metal service's config file (`--config-file`, oslo.config's INI dialect), read with
 * its option data (config-options.ts). What the toolkit itself needs of it (the database, the
 * data directory, the pin) is returned apart from the rest: only the composition root reads
 * the pin. Parsing is pure; only loadBaremetalConfigFile reads the disk.
 */
import { dirname, resolve } from 'node:path';
import {
  ConfigFileError,
  deprecatedNamesUsed,
  parseIni,
  readConfigOptions,
  readConfigText,
} from '../service/index.ts';
import { BAREMETAL_OPTIONS, type BaremetalValues } from './config-options.ts';

export {
  BAREMETAL_CONFIG,
  BAREMETAL_CONFIG_PROJECT,
  BAREMETAL_OPTIONS,
  type BaremetalValues,
  baremetalConfigOf,
} from './config-options.ts';

export interface BaremetalConfigFile {
  /** Every option the file sets, by field (the pin and the data directory included). */
  readonly values: BaremetalValues;
  readonly databaseUrl?: string;
  /** `[DEFAULT] state_path`, absolute. */
  readonly dataDir?: string;
  /** `[DEFAULT] pin_release_version`, undefined when not set. */
  readonly pinReleaseVersion?: string;
  /** oslo.config's warnings for the older option names the file uses. */
  readonly deprecations: readonly string[];
}

/** What an INI text sets; relative paths are relative to `baseDir` (the file's folder). */
export function baremetalConfigFromIni(text: string, baseDir = process.cwd()): BaremetalConfigFile {
  const sections = parseIni(text);
  const values = readConfigOptions(sections, BAREMETAL_OPTIONS, baseDir);
  const { databaseUrl, dataDir, pinReleaseVersion } = values as {
    databaseUrl?: string;
    dataDir?: string;
    pinReleaseVersion?: string;
  };
  return {
    values,
    deprecations: deprecatedNamesUsed(sections, BAREMETAL_OPTIONS),
    ...(databaseUrl === undefined ? {} : { databaseUrl }),
    ...(dataDir === undefined ? {} : { dataDir }),
    ...(pinReleaseVersion === undefined ? {} : { pinReleaseVersion }),
  };
}

/** Reads several files in order (oslo.config's `--config-file A --config-file B`): a later file's option wins. */
export async function loadBaremetalConfigFiles(
  paths: readonly string[],
): Promise<BaremetalConfigFile> {
  let values: Record<string, unknown> = {};
  const deprecations: string[] = [];
  for (const path of paths) {
    const file = await loadBaremetalConfigFile(path);
    values = { ...values, ...file.values };
    deprecations.push(...file.deprecations);
  }
  const { databaseUrl, dataDir, pinReleaseVersion } = values as {
    databaseUrl?: string;
    dataDir?: string;
    pinReleaseVersion?: string;
  };
  return {
    values,
    deprecations,
    ...(databaseUrl === undefined ? {} : { databaseUrl }),
    ...(dataDir === undefined ? {} : { dataDir }),
    ...(pinReleaseVersion === undefined ? {} : { pinReleaseVersion }),
  };
}

/** Reads and parses a config file; every problem names the file. */
export async function loadBaremetalConfigFile(path: string): Promise<BaremetalConfigFile> {
  const text = await readConfigText(path);
  try {
    return baremetalConfigFromIni(text, dirname(resolve(path)));
  } catch (error) {
    if (error instanceof ConfigFileError) {
      throw new ConfigFileError(`config file ${path}: ${error.message}`);
    }
    throw error;
  }
}
