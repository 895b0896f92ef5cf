/**
 * Sections and options of a config file that no option list knows: one finding each, with
 * the nearest known name (`[api] prot`: did you mean `port`?). oslo.config ignores them
 * silently, so a typo such as `[placement_database] conection` selects the embedded database
 * without a word; Baton warns, and `--strict-config` refuses (the command decides). Pure but
 * for `unknownSettingsIn`, which reads the files.
 */
import { type IniSections, parseIni, readConfigText } from './config-ini.ts';
import type { ConfigOption } from './config-options.ts';

export interface UnknownSetting {
  readonly section: string;
  /** Undefined when the whole section is unknown. */
  readonly name?: string;
  /** The nearest known section, or option (`port`, or `[database] connection` elsewhere). */
  readonly suggestion?: string;
  /** The options an unknown section holds. */
  readonly count?: number;
}

/**
 * Edit distance with adjacent transpositions (optimal string alignment): `prot` is one edit
 * from `port`, `conection` one from `connection`.
 */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i] as number[];
      const above = d[i - 1] as number[];
      let best = Math.min(
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (above[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = best;
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/** The candidate nearest to `name`, if near enough to be a likely typo. */
export function nearest(name: string, candidates: Iterable<string>): string | undefined {
  let best: { candidate: string; distance: number } | undefined;
  const lowered = name.toLowerCase();
  for (const candidate of candidates) {
    const distance = editDistance(lowered, candidate.toLowerCase());
    if (best === undefined || distance < best.distance) best = { candidate, distance };
  }
  // A third of the name, at least 1 and at most 3 edits: `prot`→`port`, not `host`→`port`.
  const limit = Math.min(3, Math.max(1, Math.floor(name.length / 3)));
  return best !== undefined && best.distance <= limit ? best.candidate : undefined;
}

/** The sections and names the options know, their older names included. */
function knownPlaces(options: readonly ConfigOption[]): Map<string, Set<string>> {
  const known = new Map<string, Set<string>>();
  const add = (section: string, name: string) => {
    const names = known.get(section) ?? new Set<string>();
    names.add(name);
    known.set(section, names);
  };
  for (const option of options) {
    add(option.section, option.name);
    for (const old of option.deprecated ?? []) add(old.section, old.name);
  }
  return known;
}

/** What in `sections` none of `options` names, in the file's order. */
export function unknownSettings(
  sections: IniSections,
  options: readonly ConfigOption[],
): UnknownSetting[] {
  const known = knownPlaces(options);
  const found: UnknownSetting[] = [];
  for (const [section, values] of sections) {
    const names = known.get(section);
    if (names === undefined) {
      // A header with nothing under it sets nothing (the real samples list every section).
      if (values.size === 0) continue;
      const suggestion = nearest(section, known.keys());
      found.push({
        section,
        count: values.size,
        ...(suggestion === undefined ? {} : { suggestion: `[${suggestion}]` }),
      });
      continue;
    }
    for (const name of values.keys()) {
      if (names.has(name)) continue;
      const here = nearest(name, names);
      // The same name in another section (`[DEFAULT] connection`: `[database] connection`).
      const elsewhere = [...known].find(([, others]) => others.has(name))?.[0];
      const suggestion = here ?? (elsewhere === undefined ? undefined : `[${elsewhere}] ${name}`);
      found.push({ section, name, ...(suggestion === undefined ? {} : { suggestion }) });
    }
  }
  return found;
}

/** One finding as a sentence naming the file (a command that goes on adds that it ignores it). */
export function unknownSettingMessage(file: string, unknown: UnknownSetting): string {
  const hint = unknown.suggestion === undefined ? '' : `; did you mean ${unknown.suggestion}?`;
  if (unknown.name === undefined) {
    return `${file}: section [${unknown.section}] (${unknown.count ?? 0} option(s)) is not one Baton knows${hint}`;
  }
  return `${file}: [${unknown.section}] ${unknown.name} is not an option Baton knows${hint}`;
}

/**
 * The unknown sections and options of each file, as sentences naming the file (reads the
 * files; one that cannot be read or parsed is left to the service's own reader to report).
 */
export async function unknownSettingsIn(
  files: readonly string[],
  options: readonly ConfigOption[],
): Promise<string[]> {
  const messages: string[] = [];
  for (const file of files) {
    let sections: IniSections;
    try {
      sections = parseIni(await readConfigText(file));
    } catch {
      continue;
    }
    for (const unknown of unknownSettings(sections, options))
      messages.push(unknownSettingMessage(file, unknown));
  }
  return messages;
}
