/** Placement's schema history (forward-only, under the model change policy). */
import type { MigrationSet } from '../../db/migrations/index.ts';
import { initialSchema } from './0001-initial.ts';
import { exactNameCollation } from './0002-exact-name-collation.ts';

export const PLACEMENT_MIGRATIONS: MigrationSet = {
  service: 'placement',
  releases: ['2026.1'],
  deprecations: [],
  migrations: [initialSchema, exactNameCollation],
};
