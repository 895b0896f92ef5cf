/**
 * The services the `baton` command knows, and what it needs of each: its
 * schema history, its online data migrations, its object tables and release
 * mapping (for the version checks), and the binaries that register in the
 * services table.
 */
import {
  createOnlineMigrationRegistry,
  type FindIncompatibleOptions,
  type MigrationSet,
  type ObjectTable,
  type OnlineMigrationRegistry,
} from '../db/index.ts';
import { type ConfigLayer, loadConfigFile } from '../placement/config-file.ts';
import { PLACEMENT_MIGRATIONS } from '../placement/migrations/index.ts';
import {
  createIncompleteConsumers,
  INCOMPLETE_CONSUMER_DEFAULTS,
} from '../placement/online-migrations/create-incomplete-consumers.ts';
import { MASTER, type ReleaseMapping } from '../releases/index.ts';

/** What a service's config file says that the database commands use. */
export interface ServiceConfig {
  /** The database URL the file names, if any (`--db` still wins). */
  readonly databaseUrl?: string | undefined;
  /** Everything else the file sets, as the service reads it (online migration settings...). */
  readonly settings: unknown;
}

export const NO_CONFIG: ServiceConfig = { settings: undefined };

export interface ServiceDefinition {
  readonly name: string;
  /** The name of the release this code is (a key of `releases`, besides master). */
  readonly release: string;
  readonly binaries: readonly string[];
  readonly migrations: MigrationSet;
  /** Reads the service's own config file (its format; errors name the file). */
  readConfigFile(path: string): Promise<ServiceConfig>;
  onlineMigrations(config?: ServiceConfig): OnlineMigrationRegistry;
  /** Tables holding versioned objects (none for Placement, which has no RPC). */
  readonly objectTables: readonly ObjectTable[];
  readonly releases: ReleaseMapping;
  /** Object types new in this release (their tables are not version-checked). */
  readonly newModels: readonly string[];
}

const placement: ServiceDefinition = {
  name: 'placement',
  release: '2026.1',
  binaries: ['placement-api'],
  migrations: PLACEMENT_MIGRATIONS,
  readConfigFile: async (path) => {
    const layer = await loadConfigFile(path);
    return { databaseUrl: layer.databaseUrl, settings: layer };
  },
  onlineMigrations: (config = NO_CONFIG) => {
    const layer = (config.settings ?? {}) as ConfigLayer;
    return createOnlineMigrationRegistry({
      service: 'placement',
      migrations: [
        createIncompleteConsumers({
          incompleteConsumerProjectId:
            layer.incompleteConsumerProjectId ?? INCOMPLETE_CONSUMER_DEFAULTS.projectId,
          incompleteConsumerUserId:
            layer.incompleteConsumerUserId ?? INCOMPLETE_CONSUMER_DEFAULTS.userId,
        }),
      ],
      objectTables: [],
    });
  },
  objectTables: [],
  releases: { '2026.1': { api: '1.39', objects: {} }, master: { api: '1.39', objects: {} } },
  newModels: [],
};

/**
 * What the object-version checks compare: the service's object tables against
 * this release's supported versions. Undefined when there is nothing to check.
 */
export function compatibilityOf(service: ServiceDefinition): FindIncompatibleOptions | undefined {
  const supported = service.releases[MASTER];
  if (supported === undefined || service.objectTables.length === 0) return undefined;
  return { tables: service.objectTables, supported, newModels: service.newModels };
}

export const SERVICES: Readonly<Record<string, ServiceDefinition>> = { placement };

export class UnknownServiceError extends Error {
  override name = 'UnknownServiceError';
  constructor(service: string) {
    super(`unknown service '${service}'; known services: ${Object.keys(SERVICES).join(', ')}`);
  }
}

export function serviceNamed(name: string): ServiceDefinition {
  const service = Object.hasOwn(SERVICES, name) ? SERVICES[name] : undefined;
  if (service === undefined) throw new UnknownServiceError(name);
  return service;
}
