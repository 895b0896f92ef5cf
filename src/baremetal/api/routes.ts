/** Every route of the bare metal API, one module per resource of the real API reference. */
import type { FastifyInstance } from 'fastify';
import { registerChassisRoutes } from './chassis.ts';
import { registerConductorRoutes } from './conductors.ts';
import { registerDriverRoutes } from './drivers.ts';
import { registerRootRoutes } from './root.ts';

export function registerRoutes(app: FastifyInstance): void {
  registerRootRoutes(app);
  registerChassisRoutes(app);
  registerDriverRoutes(app);
  registerConductorRoutes(app);
}
