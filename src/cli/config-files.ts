/**
 * The config files a command reads (`--config-file`, `--config-dir`, else where oslo.config
 * looks for the real service's: src/service/config-files.ts), checked for sections and options
 * no service knows: a warning each, or, with `--strict-config`, a usage error listing them.
 */

import { unknownSettingsIn } from '../service/config-check.ts';
import {
  type ConfigProject,
  configSearchOf,
  type FoundConfig,
  findConfigFiles,
} from '../service/config-files.ts';
import { ConfigFileError } from '../service/config-ini.ts';
import { usageError } from './cli-error.ts';
import { CONFIG_OPTIONS } from './service-catalog.ts';

/**
 * Set by `baton up` for its children: it has warned about the files it hands them, once for
 * all three. A child still refuses them with `--strict-config`.
 */
export const CONFIG_CHECKED_ENV = 'BATON_CONFIG_CHECKED';

/** The flags every command reading a config file takes (commander's values). */
export interface ConfigFlags {
  readonly configFile?: string | readonly string[] | undefined;
  readonly configDir?: string | readonly string[] | undefined;
  readonly strictConfig?: boolean | undefined;
}

/**
 * The files `role`'s command of the service reads (a given one missing: exit 64), after their
 * unknown settings are warned about through `warn` (one line each, without the `baton:
 * warning:` prefix) or, with `--strict-config`, refused.
 */
export async function commandConfigFiles(
  project: ConfigProject,
  role: string,
  flags: ConfigFlags,
  warn: (message: string) => void,
): Promise<FoundConfig> {
  let found: FoundConfig;
  try {
    found = findConfigFiles(configSearchOf(project, role, flags));
  } catch (error) {
    if (error instanceof ConfigFileError) throw usageError(error.message);
    throw error;
  }
  const unknown = await unknownSettingsIn(found.files, CONFIG_OPTIONS);
  if (unknown.length > 0 && flags.strictConfig === true) {
    throw usageError(
      `--strict-config: ${unknown.length} setting(s) no service knows in the config files:\n${unknown.join('\n')}`,
    );
  }
  if (process.env[CONFIG_CHECKED_ENV] === '1') return found;
  for (const message of unknown) warn(`${message} (ignored)`);
  return found;
}

/** The given files, to repeat in a command a message suggests (found ones are found again). */
export function givenConfigArgs(flags: ConfigFlags): string {
  const list = (value: string | readonly string[] | undefined) =>
    value === undefined ? [] : typeof value === 'string' ? [value] : [...value];
  return [
    ...list(flags.configFile).map((file) => ` --config-file ${file}`),
    ...list(flags.configDir).map((dir) => ` --config-dir ${dir}`),
  ].join('');
}
