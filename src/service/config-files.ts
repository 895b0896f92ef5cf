/**
 * Which config files a command reads, found as oslo.config finds the real service's
 * (oslo_config/cfg.py: `_get_config_dirs`, `find_config_files`, `find_config_dirs`,
 * `_parse_config_files`):
 *
 * - `--config-file` given (any number): those files, in order, each of which must exist;
 * - else, for the project (`ironic`) and then the program (`ironic-dbsync`), the first of
 *   `~/.PROJECT/NAME.conf`, `~/NAME.conf`, `/etc/PROJECT/NAME.conf`, `/etc/NAME.conf` that
 *   exists (the topmost directory wins; oslo.config stops at the first it finds);
 * - then `--config-dir` given (any number): every `*.conf` in each, sorted by name, each
 *   directory required to exist;
 * - else, the first `NAME.conf.d` directory found the same way, for the project and the
 *   program, their `*.conf` sorted (oslo.config reads these even beside `--config-file`).
 *
 * Later files win, option by option. `/etc` is `$BATON_SYSCONFDIR` when that is set (for
 * packagers installing elsewhere, and for tests pointing the search at a temporary folder);
 * `~` is the home directory (`HOME`). Reads the file system only to test for existence and to
 * list a directory.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigFileError } from './config-ini.ts';

/** Where `/etc` is for the search; unset: `/etc`. */
export const SYSCONFDIR_ENV = 'BATON_SYSCONFDIR';

type Environment = Readonly<Record<string, string | undefined>>;

/** What a command looks for: the real service's project and the real program it stands for. */
export interface ConfigSearch {
  /** oslo.config's project: `ironic`, `placement`. */
  readonly project: string;
  /** The real program this command stands for (`ironic-dbsync`), searched after the project. */
  readonly program?: string | undefined;
  /** `--config-file`, as given (none: search). */
  readonly configFiles?: readonly string[] | undefined;
  /** `--config-dir`, as given (none: the default `.conf.d` directories). */
  readonly configDirs?: readonly string[] | undefined;
}

/** The files found, in the order they are read, and how they were found. */
export interface FoundConfig {
  /** Absolute paths, in the order they are read (later ones win). */
  readonly files: readonly string[];
  /** `given`: `--config-file` or `--config-dir`; `found`: the search found some; `none`: neither. */
  readonly source: 'given' | 'found' | 'none';
  /** The directories searched, in order (for "none found" messages). */
  readonly searched: readonly string[];
  /** The names searched for in them (`ironic.conf`, `ironic-dbsync.conf`). */
  readonly names: readonly string[];
}

/** oslo.config's `_get_config_dirs(project)`, with `/etc` movable. */
export function configSearchDirs(project: string, env: Environment = process.env): string[] {
  const home = homedir();
  const etc =
    env[SYSCONFDIR_ENV] !== undefined && env[SYSCONFDIR_ENV] !== ''
      ? resolve(env[SYSCONFDIR_ENV])
      : '/etc';
  return [join(home, `.${project}`), home, join(etc, project), etc];
}

function names(search: ConfigSearch): string[] {
  return [
    search.project,
    ...(search.program === undefined || search.program === search.project ? [] : [search.program]),
  ];
}

/** The first `NAME+extension` that exists in the directories, for each name. */
function firstFound(
  dirs: readonly string[],
  bases: readonly string[],
  extension: string,
): string[] {
  const found: string[] = [];
  for (const base of bases) {
    const hit = dirs
      .map((dir) => join(dir, `${base}${extension}`))
      .find((path) => existsSync(path));
    if (hit !== undefined) found.push(hit);
  }
  return found;
}

/** `*.conf` in a directory, sorted by name (oslo.config's `sorted(glob(dir/*.conf))`). */
function confFilesIn(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.conf'))
    .sort()
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile());
}

/**
 * The files a command reads. A given file or directory that does not exist is a
 * ConfigFileError naming it (oslo.config's ConfigFilesNotFoundError, ConfigDirNotFoundError).
 */
export function findConfigFiles(search: ConfigSearch, env: Environment = process.env): FoundConfig {
  const dirs = configSearchDirs(search.project, env);
  const bases = names(search);
  const given = (search.configFiles ?? []).map((path) => resolve(path));
  for (const path of given) {
    if (!existsSync(path)) throw new ConfigFileError(`config file ${path}: no such file`);
  }
  const files = given.length > 0 ? given : firstFound(dirs, bases, '.conf');
  const givenDirs = (search.configDirs ?? []).map((path) => resolve(path));
  for (const dir of givenDirs) {
    if (!existsSync(dir) || !statSync(dir).isDirectory())
      throw new ConfigFileError(`config directory ${dir}: no such directory`);
  }
  const confDirs = givenDirs.length > 0 ? givenDirs : firstFound(dirs, bases, '.conf.d');
  const all = [...files, ...confDirs.flatMap(confFilesIn)];
  return {
    files: all,
    source: given.length > 0 || givenDirs.length > 0 ? 'given' : all.length > 0 ? 'found' : 'none',
    searched: dirs,
    names: bases.map((base) => `${base}.conf`),
  };
}

/** `config: /etc/ironic/ironic.conf`, or where none was found. */
export function describeConfigFiles(found: FoundConfig): string {
  if (found.files.length > 0) return found.files.join(', ');
  if (found.searched.length === 0) return 'none';
  return `none (no ${found.names.join(' or ')} in ${found.searched.join(', ')})`;
}

/**
 * The real service a Baton service stands for, as oslo.config names it: its project
 * (`ironic`), and the real program each Baton command stands for, by a role the commands
 * share (`db`: `ironic-dbsync`; `status`: `ironic-status`; a binary: its real server).
 */
export interface ConfigProject {
  readonly project: string;
  readonly programs: Readonly<Record<string, string>>;
}

/** The search of `role`'s command of `service` with what the command line gave. */
export function configSearchOf(
  service: ConfigProject,
  role: string,
  given: {
    readonly configFile?: readonly string[] | string | undefined;
    readonly configDir?: readonly string[] | string | undefined;
  },
): ConfigSearch {
  const list = (value: readonly string[] | string | undefined) =>
    value === undefined ? [] : typeof value === 'string' ? [value] : [...value];
  return {
    project: service.project,
    program: service.programs[role],
    configFiles: list(given.configFile),
    configDirs: list(given.configDir),
  };
}
