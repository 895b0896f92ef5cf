/** Release mapping, pinning and the caps in force: the public surface of src/releases. */
export { type CapsInForce, capsInForce } from './caps-in-force.ts';
export { type LatestVersions, ReleasePin, validateReleaseMapping } from './pin.ts';
export {
  InvalidReleaseMappingError,
  MASTER,
  type Release,
  type ReleaseMapping,
  UnknownReleaseError,
} from './release-mapping.ts';
