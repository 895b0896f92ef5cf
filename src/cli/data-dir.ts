/**
 * The database a command uses when `--db` names none (light: `--help` shows it without
 * loading drivers): the config file's, else the embedded SQLite file in the data directory
 * (src/service/data-dir.ts says how that is found).
 */
import { defaultDatabaseUrl } from '../db/database-url.ts';
import { type DataDirSettings, resolveDataDir } from '../service/data-dir.ts';

/** The embedded default database in the data directory `settings` resolve to. */
export function defaultDbUrl(settings: DataDirSettings = {}): string {
  return defaultDatabaseUrl(resolveDataDir(settings).path);
}

/** How `--help` names the default: the path it has here, and the rule. */
export function defaultDbHelp(): string {
  return `sqlite:<data dir>/baton.sqlite, here ${defaultDbUrl({ flag: process.env.BATON_DATA_DIR })}`;
}
