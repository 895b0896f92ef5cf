/**
 * The bare metal service's online data migrations (`baton db online-migrations --service
 * baremetal`, Ironic's `ironic-dbsync online_data_migrations`): for this first release only
 * `update_to_latest_versions` over the object tables. A later release lists its own data
 * migrations here, before it.
 */
import {
  createOnlineMigrationRegistry,
  type OnlineMigration,
  type OnlineMigrationRegistry,
} from '../../db/index.ts';
import { VERSIONED_TABLES } from '../db/object-tables.ts';

export const SERVICE_NAME = 'baremetal';

/** This release's own online migrations, in the order they run (none yet). */
export const ONLINE_MIGRATIONS: readonly OnlineMigration[] = [];

export function baremetalOnlineMigrations(): OnlineMigrationRegistry {
  return createOnlineMigrationRegistry({
    service: SERVICE_NAME,
    migrations: ONLINE_MIGRATIONS,
    objectTables: VERSIONED_TABLES,
  });
}
