/**
 * The services the `baton` command knows; each defines itself in its own `service.ts`. A
 * definition is loaded by the command that needs it, so `--help` and `--version` load none
 * (a service's module pulls in its whole server and the database drivers).
 */
import type { ServiceDefinition } from '../service/index.ts';

const CATALOG: Readonly<Record<string, () => Promise<ServiceDefinition>>> = {
  placement: async () => (await import('../placement/service.ts')).PLACEMENT_SERVICE,
};

export const SERVICE_NAMES: readonly string[] = Object.keys(CATALOG);

/** The service named `name`; UnknownServiceError lists the known ones. */
export async function loadService(name: string): Promise<ServiceDefinition> {
  const load = Object.hasOwn(CATALOG, name) ? CATALOG[name] : undefined;
  if (load === undefined) {
    const { UnknownServiceError } = await import('../service/index.ts');
    throw new UnknownServiceError(name, SERVICE_NAMES);
  }
  return load();
}
