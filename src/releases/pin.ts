/**
 * The pin (`pin_release_version`): empty means latest; a release name caps
 * the API microversion, the RPC version and the object versions at once to
 * what that release speaks, so new code can run beside it (the rolling-upgrade doc).
 */

import { IncompatibleObjectVersionError } from '../objects/errors.ts';
import type { VersionTargets } from '../objects/targets.ts';
import {
  compareObjectVersions,
  isCompatibleVersion,
  maxObjectVersion,
  parseObjectVersion,
} from '../objects/version.ts';
import {
  InvalidReleaseMappingError,
  MASTER,
  type Release,
  type ReleaseMapping,
  UnknownReleaseError,
} from './release-mapping.ts';

/** The code's latest versions: API, RPC and each object type's. */
export interface LatestVersions {
  readonly api: string;
  readonly rpc: string;
}

export class ReleasePin implements VersionTargets {
  /** The pinned release name, or undefined when not pinned. */
  readonly release: string | undefined;
  readonly #entry: Release | undefined;

  private constructor(release: string | undefined, entry: Release | undefined) {
    this.release = release;
    this.#entry = entry;
  }

  /**
   * Resolves the setting against the mapping. Empty or absent means not
   * pinned; an unknown release is an error naming the known ones.
   */
  static resolve(mapping: ReleaseMapping, setting: string | undefined | null): ReleasePin {
    const name = setting?.trim() ?? '';
    if (name === '') return new ReleasePin(undefined, undefined);
    const entry = Object.hasOwn(mapping, name) ? mapping[name] : undefined;
    if (entry === undefined) throw new UnknownReleaseError(name, Object.keys(mapping));
    return new ReleasePin(name, entry);
  }

  get pinned(): boolean {
    return this.release !== undefined;
  }

  /** The highest API microversion to serve: the pinned release's, else `latest`. */
  apiMaxVersion(latest: string): string {
    return this.#entry?.api ?? latest;
  }

  /** The RPC version cap: the pinned release's RPC version, else `latest`. */
  rpcVersionCap(latest: string): string {
    return this.#entry?.rpc ?? latest;
  }

  /**
   * The object version to write and send: the highest version the pinned
   * release lists for the type; the latest when unpinned or not listed.
   * A listed version of another major version is an error.
   */
  objectVersion(typeName: string, latest: string): string {
    const listed = this.#entry?.objects[typeName];
    if (listed === undefined || listed.length === 0) return latest;
    const version = maxObjectVersion(listed);
    if (!isCompatibleVersion(version, latest)) {
      throw new IncompatibleObjectVersionError(typeName, version, latest);
    }
    return version;
  }
}

/**
 * Checks a mapping against the code: it has `master`; every version parses; no release
 * serves more than `master` (API, RPC) or lists an object version `master` cannot convert
 * to; and `master` lists exactly the current version of each type and the latest API and
 * RPC versions. Run when a service starts; an error names the entry at fault.
 */
export function validateReleaseMapping(
  mapping: ReleaseMapping,
  current: {
    readonly objects: Readonly<Record<string, string>>;
    readonly api?: string | undefined;
    readonly rpc?: string | undefined;
    readonly serviceVersion?: number | undefined;
  },
): void {
  const master = mapping[MASTER];
  if (master === undefined)
    throw new InvalidReleaseMappingError(`the release mapping has no '${MASTER}' entry`);
  for (const [release, entry] of Object.entries(mapping)) {
    const fail = (problem: string) =>
      new InvalidReleaseMappingError(`${release}: ${problem}`, release);
    for (const part of ['api', 'rpc'] as const) {
      const version = entry[part];
      if (version === undefined) continue;
      if (parseObjectVersion(version) === null) throw fail(`${part} '${version}' is not X.Y`);
      const latest = master[part];
      if (
        latest !== undefined &&
        parseObjectVersion(latest) !== null &&
        compareObjectVersions(version, latest) > 0
      )
        throw fail(`${part} ${version} is above ${MASTER}'s ${latest}`);
    }
    const serviceVersion = entry.serviceVersion;
    if (serviceVersion !== undefined) {
      if (!Number.isSafeInteger(serviceVersion) || serviceVersion < 1)
        throw fail(`service version ${serviceVersion} is not a positive integer`);
      const latest = master.serviceVersion;
      if (latest !== undefined && serviceVersion > latest)
        throw fail(`service version ${serviceVersion} is above ${MASTER}'s ${latest}`);
    }
    for (const [type, versions] of Object.entries(entry.objects)) {
      for (const version of versions) {
        if (parseObjectVersion(version) === null) {
          throw fail(`${type} version '${version}' is not X.Y`);
        }
        const latest = current.objects[type];
        if (latest !== undefined && !isCompatibleVersion(version, latest)) {
          throw fail(`${type} ${version} is not a version the current ${latest} converts to`);
        }
      }
    }
  }
  const stale = (problem: string) =>
    new InvalidReleaseMappingError(`${MASTER} must ${problem}`, MASTER);
  for (const [type, version] of Object.entries(current.objects)) {
    const listed = master.objects[type];
    if (listed === undefined || compareObjectVersions(maxObjectVersion(listed), version) !== 0) {
      throw stale(`list ${type} ${version}, the current version`);
    }
  }
  if (current.api !== undefined && master.api !== current.api) {
    throw stale(`have api ${current.api}, the latest microversion`);
  }
  if (current.rpc !== undefined && master.rpc !== current.rpc) {
    throw stale(`have rpc ${current.rpc}, the latest RPC version`);
  }
  if (current.serviceVersion !== undefined && master.serviceVersion !== current.serviceVersion) {
    throw stale(`have service version ${current.serviceVersion}, the code's`);
  }
}
