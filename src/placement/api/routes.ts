/** Every resource's routes, one module per resource of the API reference. */
import type { FastifyInstance } from 'fastify';
import { registerAggregateRoutes } from './aggregates.ts';
import { registerAllocationCandidateRoutes } from './allocation-candidates.ts';
import { registerAllocationRoutes } from './allocations.ts';
import { registerInventoryRoutes } from './inventories.ts';
import { registerReshaperRoutes } from './reshaper.ts';
import { registerResourceClassRoutes } from './resource-classes.ts';
import { registerResourceProviderRoutes } from './resource-providers.ts';
import { registerTraitRoutes } from './traits.ts';
import { registerUsageRoutes } from './usages.ts';

export const RESOURCE_ROUTES: readonly ((app: FastifyInstance) => void)[] = [
  registerResourceProviderRoutes,
  registerInventoryRoutes,
  registerResourceClassRoutes,
  registerTraitRoutes,
  registerAggregateRoutes,
  registerAllocationRoutes,
  registerAllocationCandidateRoutes,
  registerUsageRoutes,
  registerReshaperRoutes,
];
