/**
 * The commented sample config file of a service, written from its option definitions as
 * oslo-config-generator writes one: a `[section]` per section in the order the options come,
 * then per option its help wrapped at 70 columns and its type in parentheses, its bounds or
 * possible values, the flag (and environment variable) that set it too, and `#name = default`
 * (`<None>` when it has none). Pure; docs/config/ holds the output for each service and a
 * test compares them.
 */
import { type ConfigSchema, defaultTextOf, flagOf } from './config-options.ts';

const WIDTH = 70;

/** Greedy wrap into `# ` comment lines of at most WIDTH columns. */
function commentLines(text: string): string[] {
  const lines: string[] = [];
  let line = '#';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (line !== '#' && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = '#';
    }
    line += ` ${word}`;
  }
  if (line !== '#') lines.push(line);
  return lines;
}

/** What heads a sample config file. */
export interface SampleHeading {
  /** Who the options are from (oslo's `# From <namespace>`): `baton.placement`. */
  readonly namespace: string;
  /** Lines at the top of the file, before the first section. */
  readonly preamble: readonly string[];
}

/** A sample config file of the options, as oslo-config-generator writes one. */
export function renderConfigSample(schema: ConfigSchema, heading: SampleHeading): string {
  const sections: string[] = [];
  for (const option of schema.options) {
    if (!sections.includes(option.section)) sections.push(option.section);
  }
  const out: string[] = [...heading.preamble.flatMap((line) => commentLines(line)), ''];
  for (const section of sections) {
    out.push(`[${section}]`, '', '#', `# From ${heading.namespace}`, '#', '');
    for (const option of schema.options.filter((o) => o.section === section)) {
      out.push(...commentLines(`${option.help} (${option.type.name})`));
      for (const note of option.type.notes ?? []) out.push(`# ${note}`);
      for (const old of option.deprecated ?? []) {
        out.push(`# Deprecated group/name - [${old.section}]/${old.name}`);
      }
      const flag = flagOf(option);
      if (flag !== undefined) {
        const env = option.env === undefined ? '' : ` (or ${option.env})`;
        const negation = option.type.flag === 'switch' ? ` / --no-${flag}` : '';
        out.push(`# Command line: --${flag}${negation}${env}`);
      }
      const value = defaultTextOf(option, schema.defaults);
      const shown = value === undefined ? ' <None>' : value === '' ? '' : ` ${value}`;
      out.push(`#${option.name} =${shown}`, '');
    }
    out.push('');
  }
  return `${out.join('\n').trimEnd()}\n`;
}
