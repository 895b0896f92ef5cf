/** What every database command needs: its service and an open database. */
import {
  type Database,
  DatabaseConnectionError,
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
}

export async function resolveService(name: string): Promise<ServiceDefinition> {
  try {
    return await loadService(name);
  } catch (error) {
    if (error instanceof UnknownServiceError) throw usageError(error.message);
    throw error;
  }
}

/** Opens the database, turning URL and connection problems into one-line exits. */
export async function openCommandDatabase(url: string): Promise<Database> {
  try {
    return await openDatabase(url);
  } catch (error) {
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

/** Runs `work` with the service, its open database and its config, closing the database after. */
export async function withServiceDatabase<T>(
  options: DatabaseOptions,
  work: (service: ServiceDefinition, db: Database, config: ServiceConfig) => Promise<T>,
): Promise<T> {
  const service = await resolveService(options.service);
  const config = await readServiceConfig(service, options.configFile);
  const db = await openCommandDatabase(options.db ?? config.databaseUrl ?? defaultDbUrl());
  try {
    return await work(service, db, config);
  } finally {
    await db.close();
  }
}
