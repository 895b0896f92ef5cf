/**
 * A service's online data migrations, in the order they must run (earlier
 * releases' first), always ending with `update_to_latest_versions`. Built
 * explicitly from a list: nothing registers itself on import.
 */
import { OnlineMigrationRegistryError } from './errors.ts';
import { type OnlineMigration, requirementsOf } from './online-migration.ts';
import {
  UPDATE_TO_LATEST_VERSIONS,
  type UpdateToLatestOptions,
  updateToLatestVersions,
  type VersionedTable,
} from './update-to-latest.ts';

/** A service's online migrations, in the order they run. */
export interface OnlineMigrationRegistry {
  /** The service the migrations belong to (`placement`, `baremetal`). */
  readonly service: string;
  readonly migrations: readonly OnlineMigration[];
}

/** What createOnlineMigrationRegistry makes a registry from. */
export interface RegistryDefinition {
  readonly service: string;
  /** The service's own migrations, in execution order. */
  readonly migrations?: readonly OnlineMigration[];
  /** The object tables the final `update_to_latest_versions` covers. */
  readonly objectTables: readonly VersionedTable[];
  /** Gate for the final migration (typically: every binary runs this release). */
  readonly latestVersions?: UpdateToLatestOptions;
}

/** Makes a service's registry of online migrations, checking their names are unique. */
export function createOnlineMigrationRegistry(
  definition: RegistryDefinition,
): OnlineMigrationRegistry {
  const own = definition.migrations ?? [];
  const seen = new Set<string>();
  for (const migration of own) {
    if (!/^[a-z][a-z0-9_]*$/.test(migration.name)) {
      throw new OnlineMigrationRegistryError(
        `online migration name '${migration.name}' must be snake_case`,
      );
    }
    if (migration.name === UPDATE_TO_LATEST_VERSIONS || seen.has(migration.name)) {
      throw new OnlineMigrationRegistryError(
        `online migration '${migration.name}' is defined twice in ${definition.service}`,
      );
    }
    seen.add(migration.name);
  }
  const migrations = [
    ...own,
    updateToLatestVersions(definition.objectTables, definition.latestVersions),
  ];
  for (const migration of migrations) {
    for (const requirement of requirementsOf(migration)) {
      if (!Number.isSafeInteger(requirement.minServiceVersion) || requirement.minServiceVersion < 1)
        throw new OnlineMigrationRegistryError(
          `${migration.name}: minServiceVersion must be a positive integer`,
        );
    }
  }
  return { service: definition.service, migrations };
}
