/** The services table (the service-version spec): who runs which service version, and who is live. */
export {
  InvalidDurationError,
  InvalidServiceIdentityError,
  InvalidServiceVersionError,
} from './errors.ts';
export {
  type Claimant,
  type ClaimOptions,
  claimIdentity,
  type HolderView,
  IdentityInUseError,
  THIS_MACHINE,
} from './identity-claim.ts';
export { listServices, type ServiceRecord } from './list-services.ts';
export {
  type Clock,
  DEFAULT_HEARTBEAT_SECONDS,
  DEFAULT_LIVE_WITHIN_SECONDS,
  type LivenessOptions,
} from './liveness.ts';
export { allAtLeast, minimumVersion } from './minimum-version.ts';
export {
  type HeartbeatLoopOptions,
  type ProcessFacts,
  type ProcessState,
  type RegisterOptions,
  registerService,
  type ServiceCaps,
  type ServiceIdentity,
  type ServiceRegistration,
} from './registration.ts';
export { type RemoveDeadOptions, removeDeadServices } from './remove-dead.ts';
export { SERVICES_SCHEMA } from './services-schema.ts';
export { ensureServicesTable, SERVICES_TABLE } from './services-table.ts';
export { checkStartup, type StartupCheck, type StartupCheckOptions } from './startup-check.ts';
