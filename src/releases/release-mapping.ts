/**
 * The release mapping (the rolling-upgrade doc and spec, Ironic's release_mappings.py): for
 * each release, by name (`2026.1`) or semver (`7.0`), the API microversion,
 * RPC version and object versions it speaks, plus `master` for the code being
 * built. Maintained by hand, one entry per release, as data.
 */

export interface Release {
  /** The highest API microversion this release serves. */
  readonly api?: string;
  /** The RPC API version of this release. */
  readonly rpc?: string;
  /** For each object type, the versions this release knows (the highest is used). */
  readonly objects: Readonly<Record<string, readonly string[]>>;
  /**
   * The service version (the service-version spec's integer in the services table) that this release's
   * processes report: what lets a process tell, from the table, which release a live peer
   * runs (automatic caps, deployment-versions.ts). Only releases Baton shipped have one.
   */
  readonly serviceVersion?: number;
}

/** Each release by name, with `master` for the code. */
export type ReleaseMapping = Readonly<Record<string, Release>>;

/** The entry every mapping must have: the code as it is now. */
export const MASTER = 'master';

/** A pin that names no release of the mapping. */
export class UnknownReleaseError extends Error {
  override name = 'UnknownReleaseError';
  readonly release: string;
  readonly known: readonly string[];
  constructor(release: string, known: readonly string[]) {
    super(
      `pin_release_version '${release}' is not a known release; known releases: ${known.join(', ')}`,
    );
    this.release = release;
    this.known = known;
  }
}

/** A release mapping that contradicts itself or the code. */
export class InvalidReleaseMappingError extends Error {
  override name = 'InvalidReleaseMappingError';
  /** The entry at fault (a release name, or `master`); undefined when the mapping as a whole is. */
  readonly entry: string | undefined;
  constructor(message: string, entry?: string) {
    super(message);
    this.entry = entry;
  }
}
