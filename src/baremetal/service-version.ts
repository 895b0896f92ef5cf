/**
 * How the bare metal processes name themselves in the services table (the service-version spec): their
 * binaries and the service version of this code. Bump the version when a change needs every
 * process of the service upgraded before something may run (an online migration gated on it).
 */
export const BAREMETAL_API_BINARY = 'baremetal-api';
export const BAREMETAL_CONDUCTOR_BINARY = 'baremetal-conductor';
export const BAREMETAL_SERVICE_VERSION = 2;
/** The service version of each release: zed 1, antelope 2 (its inventory move waits for 2). */
export const SERVICE_VERSION_OF_RELEASE = { zed: 1, antelope: 2 } as const;
/** How many service versions behind its oldest live peer a starting process may be. */
export const BAREMETAL_SUPPORTED_SPAN = 1;
