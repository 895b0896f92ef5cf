/**
 * The bare metal service's config file (`--config-file`, oslo.config's INI dialect): the
 * options it may set are data (BAREMETAL_OPTIONS: section, name, help, how the text is read,
 * where the value goes), anything else is ignored as oslo.config does. `[DEFAULT]
 * pin_release_version` is returned apart: only the composition root reads it.
 *
 * Parsing is pure; only loadBaremetalConfigFile reads the disk.
 */
import { ConfigFileError, parseIni, readConfigText } from '../service/index.ts';
import type { BaremetalConfig } from './config.ts';
import {
  BAREMETAL_OPTIONS,
  type BaremetalConfigFile,
  type BaremetalConfigLayer,
  type OptionTarget,
} from './config-options.ts';

export {
  BAREMETAL_OPTIONS,
  type BaremetalConfigFile,
  type BaremetalConfigLayer,
  type BaremetalOption,
} from './config-options.ts';

/** What an INI text sets. */
export function baremetalConfigFromIni(text: string): BaremetalConfigFile {
  const sections = parseIni(text);
  const target: OptionTarget = { layer: { rpc: {}, api: {}, conductor: {} } };
  for (const option of BAREMETAL_OPTIONS) {
    const value = sections.get(option.section)?.get(option.name);
    if (value !== undefined) option.apply(target, value, `[${option.section}] ${option.name}`);
  }
  return target.pin === undefined
    ? { layer: target.layer }
    : { layer: target.layer, pinReleaseVersion: target.pin };
}

/** Reads and parses a config file; every problem names the file. */
export async function loadBaremetalConfigFile(path: string): Promise<BaremetalConfigFile> {
  const text = await readConfigText(path);
  try {
    return baremetalConfigFromIni(text);
  } catch (error) {
    if (error instanceof ConfigFileError)
      throw new ConfigFileError(`config file ${path}: ${error.message}`);
    throw error;
  }
}

/** Defaults, then the file, then the command line; unset values do not override. */
export function mergeBaremetalConfig(
  base: BaremetalConfig,
  ...layers: BaremetalConfigLayer[]
): BaremetalConfig {
  let merged = base;
  const defined = <T extends object>(layer: T) =>
    Object.fromEntries(Object.entries(layer).filter(([, v]) => v !== undefined)) as Partial<T>;
  for (const layer of layers) {
    merged = {
      databaseUrl: layer.databaseUrl ?? merged.databaseUrl,
      rpc: { ...merged.rpc, ...defined(layer.rpc) },
      api: { ...merged.api, ...defined(layer.api) },
      conductor: {
        ...merged.conductor,
        ...defined(layer.conductor),
        // Set kind by kind: a file naming only some kinds keeps the others.
        enabledInterfaces: {
          ...merged.conductor.enabledInterfaces,
          ...layer.conductor.enabledInterfaces,
        },
        fakeDelays: { ...merged.conductor.fakeDelays, ...layer.conductor.fakeDelays },
      },
    };
  }
  return merged;
}
