/**
 * How the Placement API process names itself in the services table: its binary (as the
 * service catalog lists it) and the service version of this code. Bump the version when
 * a change needs every placement-api process upgraded before something may run (an online
 * migration gated on it, say).
 */
export const PLACEMENT_API_BINARY = 'placement-api';
export const PLACEMENT_SERVICE_VERSION = 1;
/** How many service versions behind its oldest live peer a starting process may be. */
export const PLACEMENT_SUPPORTED_SPAN = 1;
