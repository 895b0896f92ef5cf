/**
 * The data directory: where a process keeps its state on the embedded defaults (the SQLite
 * database). It never depends on the current directory: `--data-dir` (or `BATON_DATA_DIR`,
 * read as the flag), else the config file's `[DEFAULT] state_path` (Ironic's name for the
 * same thing), else `$XDG_DATA_HOME/baton`, else `~/.local/share/baton` (the XDG base
 * directory default). Every service's processes resolve it the same way, so `baton db …`
 * run from any directory finds the database the services use. Pure but for the environment.
 */
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';

/** The environment variable naming the data directory. */
export const DATA_DIR_ENV = 'BATON_DATA_DIR';

/** Where the directory was given, for messages that say why it is where it is. */
export type DataDirSource = 'flag' | 'config' | 'xdg' | 'home';

/** The data directory, and where its choice came from. */
export interface DataDir {
  /** Absolute. */
  readonly path: string;
  readonly source: DataDirSource;
}

/** What chooses the data directory. */
export interface DataDirSettings {
  /** `--data-dir` (commander fills it from BATON_DATA_DIR when the flag is absent). */
  readonly flag?: string | undefined;
  /** `[DEFAULT] state_path` from the service's config file (already absolute). */
  readonly file?: string | undefined;
}

type Environment = Readonly<Record<string, string | undefined>>;

/** The default when nothing names one: XDG's data home, then the home directory's. */
export function defaultDataDir(env: Environment = process.env): DataDir {
  const xdg = env.XDG_DATA_HOME;
  // The XDG spec ignores a relative XDG_DATA_HOME.
  if (xdg !== undefined && isAbsolute(xdg)) return { path: join(xdg, 'baton'), source: 'xdg' };
  return { path: join(homedir(), '.local', 'share', 'baton'), source: 'home' };
}

/** The data directory: `--data-dir` (or BATON_DATA_DIR), else the config file's, else the default. */
export function resolveDataDir(
  settings: DataDirSettings = {},
  env: Environment = process.env,
): DataDir {
  if (settings.flag !== undefined && settings.flag !== '')
    return { path: resolve(settings.flag), source: 'flag' };
  if (settings.file !== undefined && settings.file !== '')
    return { path: resolve(settings.file), source: 'config' };
  return defaultDataDir(env);
}
