/** The bare metal service's schema history (forward-only, under the model change policy). */
import type { MigrationSet } from '../../db/migrations/index.ts';
import { initialSchema } from './0001-initial.ts';
import { inventoryAndShards } from './0002-inventory-and-shards.ts';
import { exactNameCollation } from './0003-exact-name-collation.ts';
import { allocationsAndDeployTemplates } from './0004-allocations-and-deploy-templates.ts';
import { biosSettingsAndNodeHistory } from './0005-bios-settings-and-node-history.ts';
import { volumeConnectorsAndTargets } from './0006-volume-connectors-and-targets.ts';

export const BAREMETAL_MIGRATIONS: MigrationSet = {
  service: 'baremetal',
  releases: ['zed', 'antelope'],
  deprecations: [],
  migrations: [
    initialSchema,
    inventoryAndShards,
    exactNameCollation,
    allocationsAndDeployTemplates,
    biosSettingsAndNodeHistory,
    volumeConnectorsAndTargets,
  ],
};
