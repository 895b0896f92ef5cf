/**
 * A service's config options as data, as oslo.config's `Opt`s are: where each is in the file
 * (section, name), its type, help, and the command-line flag that sets it too. From one list
 * a service reads its config file (`readConfigOptions`), the `baton` command makes the flags
 * (cli/config-flags.ts: the flag wins over the file) and `baton config sample` writes the
 * commented sample file (config-sample.ts). Pure; light enough for `--help`.
 */
import { isAbsolute, resolve } from 'node:path';
import { DatabaseUrlError, parseDatabaseUrl } from '../db/database-url.ts';
import { ConfigFileError, type IniSections, toBoolean, toInteger, toList } from './config-ini.ts';

/** How an option's text is read, written and given on the command line. */
export interface OptionType<T = unknown> {
  /** As oslo-config-generator names it in a sample: `string value`, `boolean value`… */
  readonly name: string;
  /** Reads the text (from the file or a flag); throws ConfigFileError naming `option`. */
  readonly parse: (text: string, option: string, baseDir: string) => T;
  /** The value as the file writes it (a default in the sample and in `--help`). */
  format(value: T): string;
  /** What `--help` calls the flag's value (`--port <port>`); default `value`. */
  readonly metavar?: string;
  /** How a flag takes it: a switch (`--x`/`--no-x`), a repeatable list, or one value. */
  readonly flag: 'switch' | 'list' | 'value';
  /** Lines the sample and `--help` add: bounds, possible values. */
  readonly notes?: readonly string[];
}

/** A config option: where it lives, its type, default and help. */
export interface ConfigOption {
  readonly section: string;
  readonly name: string;
  /** The setting it fills, in the service's own settings object. */
  readonly field: string;
  readonly help: string;
  readonly type: OptionType;
  /** The flag that sets it too (without `--`); default: the name with `-` for `_`; false: none. */
  readonly flag?: string | false;
  /** An environment variable read as the flag when the flag is absent. */
  readonly env?: string;
  /** The default as the sample and `--help` show it, when it is not a plain value. */
  readonly defaultText?: string;
  /**
   * Older names still read (oslo.config's `deprecated_opts`): the option's own name wins when
   * both are set; the sample lists them as oslo-config-generator does.
   */
  readonly deprecated?: readonly DeprecatedName[];
}

/** An option's older place in the file, and the flag that went with it (kept, hidden). */
export interface DeprecatedName {
  readonly section: string;
  readonly name: string;
  readonly flag?: string;
}

/** Anything `option()` accepts as a type: an OptionType, or a bare parser (a string value). */
export type OptionTypeLike<T = unknown> =
  | OptionType<T>
  | ((text: string, option: string, baseDir: string) => T);

/** An option type, from a type or a function making one. */
export function optionType<T>(type: OptionTypeLike<T>): OptionType<T> {
  if (typeof type !== 'function') return type;
  return { name: 'string value', parse: type, format: String, flag: 'value' };
}

/** A string option. */
export const STRING: OptionType<string> = {
  name: 'string value',
  parse: (text) => text,
  format: (value) => value,
  flag: 'value',
};

/** A boolean option, as oslo.config reads one. */
export const BOOLEAN: OptionType<boolean> = {
  name: 'boolean value',
  parse: (text, option) => toBoolean(option, text),
  format: (value) => (value ? 'true' : 'false'),
  flag: 'switch',
};

/** A comma-separated list option. */
export const LIST: OptionType<readonly string[]> = {
  name: 'list value',
  parse: (text) => toList(text),
  format: (value) => value.join(','),
  flag: 'list',
  metavar: 'list',
};

/** An integer option within `[min, max]`. */
export function integer(min: number, max: number, name = 'integer value'): OptionType<number> {
  return {
    name,
    metavar: name === 'port value' ? 'port' : 'n',
    parse: (text, option) => toInteger(option, text, min, max),
    format: String,
    flag: 'value',
    notes: [`Minimum value: ${min}`, `Maximum value: ${max}`],
  };
}

/** A port number option. */
export const PORT: OptionType<number> = integer(0, 65535, 'port value');

/** A file path; a relative one is relative to the config file (or, on a flag, to the cwd). */
export const PATH: OptionType<string | undefined> = {
  name: 'string value',
  parse: (text, _option, baseDir) =>
    text === '' ? undefined : isAbsolute(text) ? text : resolve(baseDir, text),
  format: (value) => value ?? '',
  flag: 'value',
  metavar: 'path',
};

/** A database URL in any form src/db/database-url.ts reads, checked when read. */
export const DATABASE_URL: OptionType<string> = {
  name: 'string value',
  parse: (text, option) => {
    try {
      parseDatabaseUrl(text);
    } catch (error) {
      if (error instanceof DatabaseUrlError)
        throw new ConfigFileError(`${option}: ${error.message}`);
      throw error;
    }
    return text;
  },
  format: (value) => value,
  flag: 'value',
  metavar: 'url',
};

/** A string from a fixed set (an empty value allowed when `allowEmpty`). */
export function choice(values: readonly string[], allowEmpty = false): OptionType<string> {
  return {
    name: 'string value',
    parse: (text, option) => {
      if (values.includes(text) || (allowEmpty && text === '')) return text;
      throw new ConfigFileError(`${option}: '${text}' is not one of ${values.join(', ')}`);
    },
    format: (value) => value,
    flag: 'value',
    notes: ['Possible values:', ...values],
  };
}

/** The flag that sets `option`, without `--`; undefined when it has none. */
export function flagOf(option: ConfigOption): string | undefined {
  if (option.flag === false) return undefined;
  return option.flag ?? option.name.replaceAll('_', '-');
}

/** `[section] name`, as errors name an option of the file. */
export function optionPlace(option: Pick<ConfigOption, 'section' | 'name'>): string {
  return `[${option.section}] ${option.name}`;
}

/** The values a file's sections set, by field; options the file leaves out are absent. */
export function readConfigOptions(
  sections: IniSections,
  options: readonly ConfigOption[],
  baseDir: string,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const option of options) {
    const places = [option, ...(option.deprecated ?? [])];
    for (const place of places) {
      const text = sections.get(place.section)?.get(place.name);
      if (text === undefined) continue;
      values[option.field] = option.type.parse(text, optionPlace(place), baseDir);
      break;
    }
  }
  return values;
}

/** oslo.config's warning for an option set under its older name. */
export function deprecatedNameWarning(option: ConfigOption, old: DeprecatedName): string {
  return `Option "${old.name}" from group "${old.section}" is deprecated. Use option "${option.name}" from group "${option.section}".`;
}

/** The warnings for the older names a file uses (oslo.config logs one each). */
export function deprecatedNamesUsed(
  sections: IniSections,
  options: readonly ConfigOption[],
): string[] {
  return options.flatMap((option) =>
    (option.deprecated ?? [])
      .filter((old) => sections.get(old.section)?.get(old.name) !== undefined)
      .map((old) => deprecatedNameWarning(option, old)),
  );
}

/** The default of an option as the sample and `--help` show it; undefined when it has none. */
export function defaultTextOf(
  option: ConfigOption,
  defaults: Readonly<Record<string, unknown>>,
): string | undefined {
  if (option.defaultText !== undefined) return option.defaultText;
  const value = defaults[option.field];
  return value === undefined ? undefined : option.type.format(value);
}

/** What a service's config file can hold: its options and their defaults, by field. */
export interface ConfigSchema {
  readonly options: readonly ConfigOption[];
  readonly defaults: Readonly<Record<string, unknown>>;
}
