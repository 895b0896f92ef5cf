/**
 * What a service is to the toolkit: its binaries, schema history, online data migrations,
 * object tables and releases, and how its config file is read. Each service defines itself
 * once, in its composition root (`src/<service>/service.ts`), with `defineService`; the
 * `baton` command only lists the definitions.
 */
import type {
  FindIncompatibleOptions,
  MigrationSet,
  ObjectTable,
  OnlineMigrationRegistry,
  VersionedTable,
} from '../db/index.ts';
import { InvalidReleaseMappingError, MASTER, type ReleaseMapping } from '../releases/index.ts';
import { type CodeVersions, masterReleaseOf } from './code-versions.ts';
import type { ConfigProject } from './config-files.ts';
import type { ConfigSchema } from './config-options.ts';

/** What a service's config file says that the toolkit uses. */
export interface ServiceConfig {
  /** The database URL the file names, if any (`--db` still wins). */
  readonly databaseUrl?: string | undefined;
  /** `[DEFAULT] state_path`, absolute, if the file sets it (`--data-dir` still wins). */
  readonly dataDir?: string | undefined;
  /** `[DEFAULT] pin_release_version`, if the file sets it (`--pin-release-version` still wins). */
  readonly pinReleaseVersion?: string | undefined;
  /** Everything else the file sets, as the service reads it (online migration settings...). */
  readonly settings: unknown;
}

/** The config of a service that reads none. */
export const NO_CONFIG: ServiceConfig = { settings: undefined };

/**
 * A service whose operators know the real service's own database tools: the `baton db`
 * commands then word their output as those tools do (`ironic-dbsync`, `ironic-status`),
 * with Baton's command names in the advice they give.
 */
export interface OperatorDialect {
  readonly tool: 'ironic-dbsync';
  /** The product name the real messages use (`ironic`). */
  readonly product: string;
  /** The release as those messages show it (the real prints its version, e.g. `21.1`). */
  readonly releaseString: string;
}

/**
 * What a service is to the toolkit: its name, releases, binaries, migrations and versioned tables.
 */
export interface ServiceDefinition {
  readonly name: string;
  /** Word the database commands as the real service's tools do; Baton's own wording when absent. */
  readonly operatorDialect?: OperatorDialect;
  /** The name of the release this code is (a key of `releases`, besides master). */
  readonly release: string;
  /** The binaries that register in the services table. */
  readonly binaries: readonly string[];
  /**
   * The binaries in the order a rolling upgrade restarts them (the rolling-upgrade doc: conductors, step 1,
   * before APIs, step 2); `binaries` when absent. Names the step still to do in messages.
   */
  readonly upgradeOrder?: readonly string[];
  readonly migrations: MigrationSet;
  /**
   * Reads the service's own config files (its format; errors name the file), in order, a
   * later file's options winning over an earlier one's; none: NO_CONFIG.
   */
  readConfigFiles(paths: readonly string[]): Promise<ServiceConfig>;
  /** The real service's project and programs, where its config files are searched for (config-files.ts). */
  readonly configProject: ConfigProject;
  /**
   * The options of that file as data (config-options.ts), for `baton config sample` and the
   * flags of the service's commands; a service without it has no sample.
   */
  readonly config?: ConfigSchema;
  /** The service's online migrations. */
  onlineMigrations(config?: ServiceConfig): OnlineMigrationRegistry;
  /** Tables holding versioned objects (none for Placement, which has no objects). */
  readonly objectTables: readonly ObjectTable[];
  /**
   * The same tables with their object types and codecs, for rewriting rows at other versions
   * (`baton db downgrade-rows`); absent for a service without objects.
   */
  readonly versionedTables?: readonly VersionedTable[];
  /** What the code speaks, read from its own tables (`codeVersionsOf`). */
  readonly code: CodeVersions;
  /** Every release, `master` included (derived from `code`). */
  readonly releases: ReleaseMapping;
  /** Object types new in this release (their tables are not version-checked). */
  readonly newModels: readonly string[];
}

/** What defineService takes. */
export interface ServiceDefinitionInput extends Omit<ServiceDefinition, 'releases'> {
  /** The releases before this code and this one, by name; `master` is derived, not written. */
  readonly releases: ReleaseMapping;
}

/** Checks a service's definition and derives its `master` release from the code. */
export function defineService(input: ServiceDefinitionInput): ServiceDefinition {
  if (Object.hasOwn(input.releases, MASTER)) {
    throw new InvalidReleaseMappingError(
      `service ${input.name}: '${MASTER}' is derived from the code's versions; do not write it`,
      MASTER,
    );
  }
  return { ...input, releases: { ...input.releases, [MASTER]: masterReleaseOf(input.code) } };
}

/**
 * What the object-version checks compare: the service's object tables against the object
 * versions this code supports, that is every version any release of its mapping lists (as
 * Ironic's `get_object_versions()` gathers them): rows written by the previous release, or by a
 * process pinned to it, are supported; a version no release knows is not. Undefined when
 * there is nothing to check.
 */
export function compatibilityOf(service: ServiceDefinition): FindIncompatibleOptions | undefined {
  if (service.releases[MASTER] === undefined || service.objectTables.length === 0) return undefined;
  const objects: Record<string, string[]> = {};
  for (const release of Object.values(service.releases)) {
    for (const [name, versions] of Object.entries(release.objects)) {
      const known = objects[name] ?? [];
      for (const version of versions) if (!known.includes(version)) known.push(version);
      objects[name] = known;
    }
  }
  return { tables: service.objectTables, supported: { objects }, newModels: service.newModels };
}

/** A service name that no definition has. */
export class UnknownServiceError extends Error {
  override name = 'UnknownServiceError';
  constructor(service: string, known: readonly string[]) {
    super(`unknown service '${service}'; known services: ${known.join(', ')}`);
  }
}

/** The definition named `name` in a list of services. */
export function serviceNamed(
  services: Readonly<Record<string, ServiceDefinition>>,
  name: string,
): ServiceDefinition {
  const service = Object.hasOwn(services, name) ? services[name] : undefined;
  if (service === undefined) throw new UnknownServiceError(name, Object.keys(services));
  return service;
}
