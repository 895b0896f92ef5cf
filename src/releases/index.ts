/** Release mapping and pinning: the public surface of src/releases. */
export { type LatestVersions, ReleasePin, validateReleaseMapping } from './pin.ts';
export {
  InvalidReleaseMappingError,
  MASTER,
  type Release,
  type ReleaseMapping,
  UnknownReleaseError,
} from './release-mapping.ts';
