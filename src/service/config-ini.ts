/**
 * The config file of a service process, as oslo.config reads it: an INI text of `[section]`s
 * and `key = value` options. What each service may set is data (its list of options: section,
 * name, help, how the text is read); anything else in the file is ignored, as oslo.config
 * does (and warned about: config-check.ts). Parsing is pure; only `readConfigText` reads the
 * disk.
 */
import { readFile } from 'node:fs/promises';

/** A config file that cannot be read or holds a bad value. */
export class ConfigFileError extends Error {
  override name = 'ConfigFileError';
}

/** An INI file's values, by section and option. */
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

/** An option's value as a boolean, as oslo.config reads one. */
export function toBoolean(option: string, value: string): boolean {
  const lowered = value.trim().toLowerCase();
  if (['true', 'yes', 'on', '1'].includes(lowered)) return true;
  if (['false', 'no', 'off', '0'].includes(lowered)) return false;
  throw new ConfigFileError(`${option}: '${value}' is not a boolean (true/false)`);
}

/** An option's value as an integer within `[min, max]`. */
export function toInteger(option: string, value: string, min: number, max: number): number {
  const number = Number(value.trim());
  if (!/^\s*-?\d+\s*$/.test(value) || number < min || number > max) {
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

/** Reads a config file's text; a missing or unreadable file is a ConfigFileError naming it. */
export async function readConfigText(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new ConfigFileError(`config file ${path}: ${reason}`);
  }
}
