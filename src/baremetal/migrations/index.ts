/** The bare metal service's schema history (forward-only, under the model change policy). */
import type { MigrationSet } from '../../db/migrations/index.ts';
import { initialSchema } from './0001-initial.ts';

export const BAREMETAL_MIGRATIONS: MigrationSet = {
  service: 'baremetal',
  releases: ['zed'],
  deprecations: [],
  migrations: [initialSchema],
};
