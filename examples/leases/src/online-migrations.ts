/**
 * The online data migrations: they move data while every process keeps serving, in batches,
 * once the schema has grown. The registry ends with the toolkit's own
 * `update_to_latest_versions`, which rewrites every row at the Lease version of this code.
 */
import { createOnlineMigrationRegistry } from 'baton/db';
import { Lease } from './lease.ts';

export const ONLINE_MIGRATIONS = createOnlineMigrationRegistry({
  service: 'leases',
  migrations: [],
  objectTables: [{ table: 'leases', type: Lease }],
});
