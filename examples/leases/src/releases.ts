/**
 * The versions of each release of the service: its API microversion, its RPC version, the
 * object versions it knows, and the service version its processes write in the services
 * table. A process pinned to a release (`pin_release_version`) speaks only that release's
 * versions, which is what lets the two releases run side by side during an upgrade.
 */
import { MASTER, type ReleaseMapping } from 'baton/releases';

/** The oldest microversion the API serves, and the default when a request names none. */
export const API_MIN = '1.0';

/** The microversion that shows a lease's pool and moves a lease to another pool. */
export const POOL_MICROVERSION = '1.1';

/** The RPC version of the methods release 1 has: calls are built at it unless they need more. */
export const RPC_BASE = '1.0';

/** The RPC version that added `move_lease`: a worker of release 1 does not have it. */
export const MOVE_RPC_VERSION = '1.1';

export const RELEASES: ReleaseMapping = {
  // Release 1 as it was cut (releases/leases-1.json): what a process pinned to '1' speaks.
  '1': { api: '1.0', rpc: '1.0', objects: { Lease: ['1.0'] }, serviceVersion: 1 },
  // The code of this checkout; when a release is cut, its versions get an entry of their own
  // here and a release file in releases/ (releases/leases-1.json for the first).
  // Release 2: Lease 1.1 (its pool), RPC 1.1 (move_lease), microversion 1.1 (pool in the API).
  [MASTER]: { api: '1.1', rpc: '1.1', objects: { Lease: ['1.0', '1.1'] }, serviceVersion: 2 },
};

export const CODE = RELEASES[MASTER] as Required<(typeof RELEASES)[typeof MASTER]>;

/** The services-table binaries: the API processes, and the workers' RPC topic. */
export const API_BINARY = 'leases-api';
export const WORKER_TOPIC = 'leases-worker';
