/** What every database command needs: its service and an open database. */

import { redactUrl } from '../db/database-url.ts';
import {
  type Database,
  DatabaseConnectionError,
  DatabaseMissingError,
  DatabaseUrlError,
  openDatabase,
} from '../db/index.ts';
import { describeConfigFiles, type FoundConfig } from '../service/config-files.ts';
import {
  type ServiceConfig,
  type ServiceDefinition,
  UnknownServiceError,
} from '../service/index.ts';
import { CliExit, EXIT, usageError } from './cli-error.ts';
import { type ConfigFlags, commandConfigFiles, givenConfigArgs } from './config-files.ts';
import { defaultDbUrl } from './data-dir.ts';
import { loadService } from './service-catalog.ts';

export interface DatabaseOptions extends ConfigFlags {
  readonly service: string;
  readonly db?: string;
  /** `--data-dir` (or BATON_DATA_DIR): where the embedded default database is. */
  readonly dataDir?: string;
  /**
   * Where the command says which config files and database it works on, and warns about
   * the files (stderr, so that stdout stays the command's answer); silent when absent.
   */
  readonly notice?: (line: string) => void;
  /**
   * The files to read, found already (`baton up` hands the servers' files to its schema
   * upgrade): no search, none checked again.
   */
  readonly foundConfig?: FoundConfig;
}

/**
 * What a command stands for, among the real service's programs, for the config files it
 * reads besides the project's (`db`: `ironic-dbsync.conf`; `status`: `ironic-status.conf`).
 */
export type CommandRole = 'db' | 'status' | 'plan';

/**
 * `create`: the command makes the schema, so a SQLite file and its directory may be created
 * (`db upgrade`). `existing`: the database must exist already; a missing SQLite file is an
 * error naming it and the command that creates it, and nothing is created.
 */
export type DatabaseAccess = 'create' | 'existing';

export async function resolveService(name: string): Promise<ServiceDefinition> {
  try {
    return await loadService(name);
  } catch (error) {
    if (error instanceof UnknownServiceError) throw usageError(error.message);
    throw error;
  }
}

/** The flags that chose the database, to repeat in the command a message suggests. */
export function databaseFlags(options: DatabaseOptions, redactedUrl: string): string {
  if (options.db !== undefined) return ` --db ${redactedUrl}`;
  const config = givenConfigArgs(options);
  if (config !== '') return config;
  if (options.dataDir !== undefined) return ` --data-dir ${options.dataDir}`;
  return '';
}

/** Opens the database, turning URL and connection problems into one-line exits. */
export async function openCommandDatabase(
  url: string,
  access: DatabaseAccess = 'create',
  options?: DatabaseOptions,
): Promise<Database> {
  try {
    return await openDatabase(url, { mustExist: access === 'existing' });
  } catch (error) {
    if (error instanceof DatabaseMissingError) {
      const create = options
        ? `baton db upgrade --service ${options.service}${databaseFlags(options, error.url)}`
        : 'baton db upgrade';
      throw new CliExit(`${error.message}; \`${create}\` creates it`, EXIT.failure);
    }
    if (error instanceof DatabaseUrlError) throw usageError(error.message);
    if (error instanceof DatabaseConnectionError) throw new CliExit(error.message, EXIT.failure);
    throw error;
  }
}

async function readServiceConfig(
  service: ServiceDefinition,
  paths: readonly string[],
): Promise<ServiceConfig> {
  try {
    return await service.readConfigFiles(paths);
  } catch (error) {
    // A missing or malformed config file is bad input, named by the service's loader.
    throw usageError(error instanceof Error ? error.message : String(error));
  }
}

/** `--db`, else the config file's database, else the embedded one in the data directory. */
export function commandDatabaseUrl(options: DatabaseOptions, config: ServiceConfig): string {
  return (
    options.db ??
    config.databaseUrl ??
    defaultDbUrl({ flag: options.dataDir, file: config.dataDir })
  );
}

/** Where the database came from, for the line that names it. */
function databaseSource(options: DatabaseOptions, config: ServiceConfig): string {
  if (options.db !== undefined) return '--db';
  if (config.databaseUrl !== undefined) return 'the config file';
  return 'embedded, in the data directory';
}

/** `config: /etc/ironic/ironic.conf; database: postgresql://ironic:***@db/ironic (the config file)` */
export function configAndDatabaseLine(found: FoundConfig, url: string, source: string): string {
  return `config: ${describeConfigFiles(found)}; database: ${redactUrl(url)} (${source})`;
}

/** The service's config files (given, else found), checked, then read; errors name the file. */
export async function commandConfig(
  service: ServiceDefinition,
  options: DatabaseOptions,
  role: CommandRole,
): Promise<{ readonly found: FoundConfig; readonly config: ServiceConfig }> {
  const notice = options.notice ?? (() => {});
  const found =
    options.foundConfig ??
    (await commandConfigFiles(service.configProject, role, options, (message) =>
      notice(`baton: warning: ${message}`),
    ));
  return { found, config: await readServiceConfig(service, found.files) };
}

/**
 * Runs `work` with the service, its open database and its config, closing the database after.
 * Before it opens anything, it says which config files and which database (password hidden)
 * the command works on.
 */
export async function withServiceDatabase<T>(
  options: DatabaseOptions,
  access: DatabaseAccess,
  work: (service: ServiceDefinition, db: Database, config: ServiceConfig) => Promise<T>,
  /** The service, when a test brings its own definition; else the one `options.service` names. */
  definition?: ServiceDefinition,
  role: CommandRole = 'db',
): Promise<T> {
  const service = definition ?? (await resolveService(options.service));
  const { found, config } = await commandConfig(service, options, role);
  const url = commandDatabaseUrl(options, config);
  options.notice?.(configAndDatabaseLine(found, url, databaseSource(options, config)));
  const db = await openCommandDatabase(url, access, options);
  try {
    return await work(service, db, config);
  } finally {
    await db.close();
  }
}
