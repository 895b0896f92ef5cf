/**
 * Every route of the bare metal API, one module per resource of the real API reference.
 * Every resource of API 1.1–1.82 has its routes (docs/baremetal.md).
 */
import type { FastifyInstance } from 'fastify';
import { registerAllocationRoutes } from './allocations.ts';
import { registerChassisRoutes } from './chassis.ts';
import { registerConductorRoutes } from './conductors.ts';
import { registerDeployTemplateRoutes } from './deploy-templates.ts';
import { registerDriverRoutes } from './drivers.ts';
import { registerEventRoutes } from './events.ts';
import { registerNodeBiosRoutes } from './node-bios.ts';
import { registerNodeBootModeRoutes } from './node-boot-mode.ts';
import { registerNodeConsoleRoutes } from './node-console.ts';
import { registerNodeHistoryRoutes } from './node-history.ts';
import { registerNodeInventoryRoutes } from './node-inventory.ts';
import { registerNodeManagementRoutes } from './node-management.ts';
import { registerNodeRaidRoutes } from './node-raid.ts';
import { registerNodeStateRoutes } from './node-states.ts';
import { registerNodeTraitRoutes } from './node-traits.ts';
import { registerNodeVifRoutes } from './node-vifs.ts';
import { registerNodeRoutes } from './nodes.ts';
import { registerOpenApiRoute } from './openapi-route.ts';
import { registerPortgroupRoutes } from './portgroups.ts';
import { registerPortRoutes } from './ports.ts';
import { registerRamdiskRoutes } from './ramdisk.ts';
import { registerRootRoutes } from './root.ts';
import { registerShardRoutes } from './shards.ts';
import { registerVendorPassthruRoutes } from './vendor-passthru.ts';
import { registerVolumeRoutes } from './volume.ts';

export function registerRoutes(app: FastifyInstance): void {
  registerRootRoutes(app);
  registerOpenApiRoute(app);
  registerChassisRoutes(app);
  registerDriverRoutes(app);
  registerConductorRoutes(app);
  registerNodeRoutes(app);
  registerNodeStateRoutes(app);
  registerNodeConsoleRoutes(app);
  registerNodeBootModeRoutes(app);
  registerNodeRaidRoutes(app);
  registerNodeManagementRoutes(app);
  registerNodeTraitRoutes(app);
  registerNodeVifRoutes(app);
  registerNodeInventoryRoutes(app);
  registerNodeBiosRoutes(app);
  registerNodeHistoryRoutes(app);
  registerVendorPassthruRoutes(app);
  registerPortRoutes(app);
  registerPortgroupRoutes(app);
  registerShardRoutes(app);
  registerAllocationRoutes(app);
  registerDeployTemplateRoutes(app);
  registerEventRoutes(app);
  registerRamdiskRoutes(app);
  registerVolumeRoutes(app);
}
