/**
 * Placement's releases: the release this code is, and the mapping of the releases before it
 * and this one (`master` is derived from the code by the service definition). Data only, so
 * the `baton` command can list the pin values in `--help` without loading the service.
 */
import type { ReleaseMapping } from '../releases/index.ts';

/** The release this code is. */
export const PLACEMENT_RELEASE = '2026.1';

/**
 * Releases before this code's and this one, by name. `serviceVersion` is what the release's
 * placement-api processes report in the services table (service-version.ts).
 */
export const PLACEMENT_RELEASES: ReleaseMapping = {
  '2026.1': { api: '1.39', objects: {}, serviceVersion: 1 },
};
