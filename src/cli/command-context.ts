/** What every database command needs: its service and an open database. */
import {
  type Database,
  DatabaseConnectionError,
  DatabaseMissingError,
  DatabaseUrlError,
  openDatabase,
} from '../db/index.ts';
import {
  NO_CONFIG,
  type ServiceConfig,
  type ServiceDefinition,
  UnknownServiceError,
} from '../service/index.ts';
import { CliExit, EXIT, usageError } from './cli-error.ts';
import { defaultDbUrl } from './data-dir.ts';
import { loadService } from './service-catalog.ts';

export interface DatabaseOptions {
  readonly service: string;
  readonly db?: string;
  /** The service's config file: its database URL (when --db is absent) and settings. */
  readonly configFile?: string;
  /** `--data-dir` (or BATON_DATA_DIR): where the embedded default database is. */
  readonly dataDir?: string;
}

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
  if (options.configFile !== undefined) return ` --config-file ${options.configFile}`;
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
  path: string | undefined,
): Promise<ServiceConfig> {
  if (path === undefined) return NO_CONFIG;
  try {
    return await service.readConfigFile(path);
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

/** Runs `work` with the service, its open database and its config, closing the database after. */
export async function withServiceDatabase<T>(
  options: DatabaseOptions,
  access: DatabaseAccess,
  work: (service: ServiceDefinition, db: Database, config: ServiceConfig) => Promise<T>,
  /** The service, when a test brings its own definition; else the one `options.service` names. */
  definition?: ServiceDefinition,
): Promise<T> {
  const service = definition ?? (await resolveService(options.service));
  const config = await readServiceConfig(service, options.configFile);
  const db = await openCommandDatabase(commandDatabaseUrl(options, config), access, options);
  try {
    return await work(service, db, config);
  } finally {
    await db.close();
  }
}
