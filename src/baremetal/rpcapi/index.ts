/** The conductor RPC API as the API tier uses it: versions, topic, client, routing, errors. */
export {
  type BootDevice,
  ConductorApi,
  type ConductorApiOptions,
  type InterfaceValidation,
  routeOf,
} from './conductor-api.ts';
export { BAREMETAL_ERROR_CLASSES, BAREMETAL_REMOTE_ERRORS } from './remote-errors.ts';
export {
  ConductorRingCache,
  DEFAULT_RING_RESET_INTERVAL_MS,
  liveConductorsFrom,
  type RingCacheOptions,
} from './ring-cache.ts';
export { CONDUCTOR_RPC, CONDUCTOR_TOPIC } from './versions.ts';
