/**
 * The bare metal service's online data migrations (`baton db online-migrations --service
 * baremetal`, Ironic's `ironic-dbsync online_data_migrations`): each release's own data
 * migrations, in the order they run, then `update_to_latest_versions` over the object tables.
 */
import {
  createOnlineMigrationRegistry,
  type OnlineMigration,
  type OnlineMigrationRegistry,
} from '../../db/index.ts';
import { VERSIONED_TABLES } from '../db/object-tables.ts';
import { moveInventoryToNodeInventory } from './move-inventory.ts';

export {
  INVENTORY_MOVED,
  MOVE_INVENTORY,
  moveInventoryToNodeInventory,
  nodesHoldingInventory,
} from './move-inventory.ts';

export const SERVICE_NAME = 'baremetal';

/** The releases' own online migrations, in the order they run (zed had none). */
export const ONLINE_MIGRATIONS: readonly OnlineMigration[] = [moveInventoryToNodeInventory];

export function baremetalOnlineMigrations(): OnlineMigrationRegistry {
  return createOnlineMigrationRegistry({
    service: SERVICE_NAME,
    migrations: ONLINE_MIGRATIONS,
    objectTables: VERSIONED_TABLES,
  });
}
