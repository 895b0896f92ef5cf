/**
 * A service's definition as its next release would have it, for the tests of the service-version spec's
 * automatic caps and gates before a second release exists: the same code, reporting service
 * version `serviceVersion`, as release `release`; the real releases stay in the mapping, so
 * a live process at the current service version runs "the previous release".
 */
import { MASTER, type Release } from '../../../src/releases/index.ts';
import type { ServiceDefinition } from '../../../src/service/index.ts';

export function laterRelease(
  service: ServiceDefinition,
  release: string,
  serviceVersion: number,
  changes: { readonly objects?: Readonly<Record<string, readonly string[]>> } = {},
): ServiceDefinition {
  const master = service.releases[MASTER] as Release;
  const entry: Release = {
    ...master,
    serviceVersion,
    ...(changes.objects === undefined ? {} : { objects: changes.objects }),
  };
  return {
    ...service,
    release,
    code: { ...service.code, serviceVersion },
    releases: { ...service.releases, [release]: entry, [MASTER]: entry },
  };
}
