/**
 * The versions of each release of the service: its API microversion, its RPC version, the
 * object versions it knows, and the service version its processes write in the services
 * table. A process pinned to a release (`pin_release_version`) speaks only that release's
 * versions, which is what lets the two releases run side by side during an upgrade.
 */
import { MASTER, type ReleaseMapping } from 'baton/releases';

/** The oldest microversion the API serves, and the default when a request names none. */
export const API_MIN = '1.0';

export const RELEASES: ReleaseMapping = {
  // The code of this checkout; when a release is cut, its versions get an entry of their own
  // here and a release file in releases/ (releases/leases-1.json for the first).
  [MASTER]: { api: '1.0', rpc: '1.0', objects: { Lease: ['1.0'] }, serviceVersion: 1 },
};

export const CODE = RELEASES[MASTER] as Required<(typeof RELEASES)[typeof MASTER]>;

/** The services-table binaries: the API processes, and the workers' RPC topic. */
export const API_BINARY = 'leases-api';
export const WORKER_TOPIC = 'leases-worker';
