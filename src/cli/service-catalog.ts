/** The services the `baton` command knows; each defines itself in its own `service.ts`. */
import { BAREMETAL_SERVICE } from '../baremetal/service.ts';
import { PLACEMENT_SERVICE } from '../placement/service.ts';
import { type ServiceDefinition, serviceNamed } from '../service/index.ts';

export const SERVICES: Readonly<Record<string, ServiceDefinition>> = {
  placement: PLACEMENT_SERVICE,
  baremetal: BAREMETAL_SERVICE,
};

/** The service named `name`; UnknownServiceError lists the known ones. */
export function knownService(name: string): ServiceDefinition {
  return serviceNamed(SERVICES, name);
}
