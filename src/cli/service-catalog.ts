/**
 * The services the `baton` command knows; each defines itself in its own `service.ts`. A
 * definition is loaded by the command that needs it, so `--help` and `--version` load none
 * (a service's module pulls in its whole server and the database drivers).
 */
import { BAREMETAL_CONFIG_PROJECT, BAREMETAL_OPTIONS } from '../baremetal/config-options.ts';
import { BAREMETAL_RELEASES } from '../baremetal/releases.ts';
import { BAREMETAL_API_BINARY, BAREMETAL_CONDUCTOR_BINARY } from '../baremetal/service-version.ts';
import { PLACEMENT_CONFIG_PROJECT, PLACEMENT_OPTIONS } from '../placement/config-file.ts';
import { PLACEMENT_RELEASES } from '../placement/releases.ts';
import { PLACEMENT_API_BINARY } from '../placement/service-version.ts';
import { MASTER } from '../releases/release-mapping.ts';
import type { ConfigProject } from '../service/config-files.ts';
import type { ConfigOption } from '../service/config-options.ts';
import type { OtherService } from '../service/dashboard/dashboard-state.ts';
import type { ServiceDefinition } from '../service/index.ts';

const CATALOG: Readonly<Record<string, () => Promise<ServiceDefinition>>> = {
  placement: async () => (await import('../placement/service.ts')).PLACEMENT_SERVICE,
  baremetal: async () => (await import('../baremetal/service.ts')).BAREMETAL_SERVICE,
};

export const SERVICE_NAMES: readonly string[] = Object.keys(CATALOG);

/**
 * The releases each service can be pinned to, read from its light release module (its
 * mapping, without the code) so `--help` lists them without loading the service; a test
 * checks them against the definitions.
 */
export const SERVICE_RELEASES: Readonly<Record<string, readonly string[]>> = {
  placement: [...Object.keys(PLACEMENT_RELEASES), MASTER],
  baremetal: [...Object.keys(BAREMETAL_RELEASES), MASTER],
};

/** Where each service's config files are searched for, without loading the service (a test compares them with the definitions). */
export const SERVICE_CONFIG_PROJECTS: Readonly<Record<string, ConfigProject>> = {
  placement: PLACEMENT_CONFIG_PROJECT,
  baremetal: BAREMETAL_CONFIG_PROJECT,
};

/**
 * Every option any service's file may hold. A config file is checked against all of them: one
 * file may serve both services (`baton up --config-file`), as one `ironic.conf` serves every
 * Ironic program, so an option is unknown only when no service has it.
 */
export const CONFIG_OPTIONS: readonly ConfigOption[] = [...PLACEMENT_OPTIONS, ...BAREMETAL_OPTIONS];

/**
 * Each service's binaries and released versions, without loading it: a dashboard shows the
 * other services' processes sharing its database (a test compares them with the definitions).
 */
export const SERVICE_SUMMARIES: Readonly<Record<string, OtherService>> = {
  placement: { name: 'placement', binaries: [PLACEMENT_API_BINARY], releases: PLACEMENT_RELEASES },
  baremetal: {
    name: 'baremetal',
    binaries: [BAREMETAL_API_BINARY, BAREMETAL_CONDUCTOR_BINARY],
    releases: BAREMETAL_RELEASES,
  },
};

/** The service named `name`; UnknownServiceError lists the known ones. */
export async function loadService(name: string): Promise<ServiceDefinition> {
  const load = Object.hasOwn(CATALOG, name) ? CATALOG[name] : undefined;
  if (load === undefined) {
    const { UnknownServiceError } = await import('../service/index.ts');
    throw new UnknownServiceError(name, SERVICE_NAMES);
  }
  return load();
}
