/**
 * Where objects learn the version to write and send under a release pin.
 * `src/releases` provides the implementation; objects only need this shape.
 */
export interface VersionTargets {
  /** The version of the named type to write and send; `latest` when the pin does not limit it. */
  objectVersion(typeName: string, latest: string): string;
}
