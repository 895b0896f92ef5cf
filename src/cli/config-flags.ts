/**
 * A command's flags made from a service's config options (src/service/config-options.ts), so
 * each option of the file has its flag, and `--help` shows the file's place and the default.
 * What the flags set is read back with the same option types as the file: the same checks,
 * the flag named in the message. Commander gets no defaults (the file's value must show
 * through an absent flag); `--help` prints them in the description instead.
 */
import { type Command, Option } from 'commander';
import { ConfigFileError } from '../service/config-ini.ts';
import {
  type ConfigOption,
  type ConfigSchema,
  defaultTextOf,
  flagOf,
  optionPlace,
} from '../service/config-options.ts';
import { usageError } from './cli-error.ts';

/** Commander's attribute for a flag: `--cors-allowed-origin` is `corsAllowedOrigin`. */
export function attributeOf(flag: string): string {
  return flag.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function collect(value: string, previous: readonly string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** What `--help` says of an option: its help, the file's place, notes and default. */
export function flagHelp(
  option: ConfigOption,
  defaults: Readonly<Record<string, unknown>>,
): string {
  const notes = option.type.notes ?? [];
  const bound = (word: string) =>
    notes.find((n) => n.startsWith(`${word} value: `))?.slice(`${word} value: `.length);
  const [min, max] = [bound('Minimum'), bound('Maximum')];
  const range = min !== undefined && max !== undefined ? `; ${min} to ${max}` : '';
  const start = notes.indexOf('Possible values:');
  const possible = start < 0 ? '' : `; one of: ${notes.slice(start + 1).join(', ')}`;
  const value = defaultTextOf(option, defaults);
  const shown = value === undefined ? 'none' : value === '' ? 'empty' : value;
  return `${option.help} (${optionPlace(option)}${possible}${range}; default: ${shown})`;
}

/** Adds a flag per option that has one. */
export function addConfigFlags(command: Command, schema: ConfigSchema): Command {
  for (const option of schema.options) {
    const flag = flagOf(option);
    if (flag === undefined) continue;
    const help = flagHelp(option, schema.defaults);
    if (option.type.flag === 'switch') {
      command.addOption(new Option(`--${flag}`, help));
      command.addOption(new Option(`--no-${flag}`, `set ${optionPlace(option)} to false`));
      continue;
    }
    const metavar = option.type.metavar ?? 'value';
    const made = new Option(`--${flag} <${metavar}>`, help);
    if (option.type.flag === 'list') made.argParser(collect);
    if (option.env !== undefined) made.env(option.env);
    command.addOption(made);
    // An older name's flag still works, out of `--help` (the option's help names it).
    for (const old of option.deprecated ?? []) {
      if (old.flag === undefined) continue;
      command.addOption(
        new Option(`--${old.flag} <${metavar}>`, `deprecated: --${flag}`).hideHelp(),
      );
    }
  }
  return command;
}

/** The warnings for the deprecated flags given (`--drain-wait`: use `--drain-delay`). */
export function deprecatedFlagsUsed(
  options: readonly ConfigOption[],
  given: Readonly<Record<string, unknown>>,
): string[] {
  return options.flatMap((option) =>
    (option.deprecated ?? [])
      .filter((old) => old.flag !== undefined && given[attributeOf(old.flag)] !== undefined)
      .map((old) => `--${old.flag} is deprecated; use --${flagOf(option)}`),
  );
}

/**
 * The values the flags set, by the options' fields (absent flags are absent), read with the
 * options' own types; a bad value is a usage error naming the flag.
 */
export function configFlagValues(
  options: readonly ConfigOption[],
  given: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const option of options) {
    const flag = flagOf(option);
    if (flag === undefined) continue;
    let used = flag;
    let value = given[attributeOf(flag)];
    // The option's own flag wins over an older one's.
    for (const old of option.deprecated ?? []) {
      if (value !== undefined || old.flag === undefined) continue;
      value = given[attributeOf(old.flag)];
      used = old.flag;
    }
    if (value === undefined) continue;
    try {
      if (typeof value === 'boolean') values[option.field] = value;
      else if (Array.isArray(value)) {
        values[option.field] = option.type.parse(value.join(','), `--${used}`, process.cwd());
      } else values[option.field] = option.type.parse(String(value), `--${used}`, process.cwd());
    } catch (error) {
      if (error instanceof ConfigFileError) throw usageError(error.message);
      throw error;
    }
  }
  return values;
}
