/** Release mapping, pinning and the caps in force: the public surface of src/releases. */
export {
  type CapsInForce,
  type CapsSource,
  capsInForce,
  capsOfRelease,
  describeCapsSource,
} from './caps-in-force.ts';
export {
  codeServiceVersion,
  deploymentCaps,
  type LiveService,
  oldestLiveService,
  oldestSupportedVersion,
  previousRelease,
  releaseOfServiceVersion,
  servicesThatCannotRead,
  servicesTooOld,
  type UnreadableBy,
} from './deployment-versions.ts';
export { LiveCaps } from './live-caps.ts';
export { type LatestVersions, ReleasePin, validateReleaseMapping } from './pin.ts';
export { lowerVersion, type PoolMember, poolApiMax } from './pool-api-max.ts';
export { releaseLabel } from './release-label.ts';
export {
  InvalidReleaseMappingError,
  MASTER,
  type Release,
  type ReleaseMapping,
  UnknownReleaseError,
} from './release-mapping.ts';
