/**
 * What the live services of a deployment tell a process (the service-version spec, Nova's automatic upgrade
 * levels): the oldest service version still running names a release of the mapping (the
 * release with the highest service version at or below it), whose versions are the caps in
 * force when nothing is pinned; and a live service older than the previous release is too
 * old to talk to at all. Pure: the rows come from the services table, read by the caller.
 */
import { type CapsInForce, capsInForce, capsOfRelease } from './caps-in-force.ts';
import { InvalidReleaseMappingError, MASTER, type ReleaseMapping } from './release-mapping.ts';

/** A live process as the services table reports it. */
export interface LiveService {
  readonly binary: string;
  readonly host: string;
  readonly version: number;
}

/** The code's own service version: `master`'s (derived from the code by the service). */
export function codeServiceVersion(mapping: ReleaseMapping): number {
  const version = mapping[MASTER]?.serviceVersion;
  if (version === undefined)
    throw new InvalidReleaseMappingError(`${MASTER} has no service version`, MASTER);
  return version;
}

/** The released entries with a service version, highest version first, one name each. */
function releasedVersions(mapping: ReleaseMapping): { name: string; version: number }[] {
  const seen = new Map<number, string>();
  for (const [name, entry] of Object.entries(mapping)) {
    if (name === MASTER || entry.serviceVersion === undefined) continue;
    // A release listed under its number and then its name (Ironic's `'21.1'`, `zed`) is
    // shown by the last key: its name.
    seen.set(entry.serviceVersion, name);
  }
  return [...seen]
    .map(([version, name]) => ({ name, version }))
    .sort((a, b) => b.version - a.version);
}

/**
 * The release whose processes report `version`: the released entry with the highest service
 * version at or below it (a development build between two releases speaks at least the older
 * one); undefined when the mapping knows no release that old.
 */
export function releaseOfServiceVersion(
  mapping: ReleaseMapping,
  version: number,
): string | undefined {
  return releasedVersions(mapping).find((release) => release.version <= version)?.name;
}

/**
 * The oldest service version this code talks to: the previous release's (the highest
 * released service version below the code's); the code's own when no release came before.
 */
export function oldestSupportedVersion(mapping: ReleaseMapping): number {
  const code = codeServiceVersion(mapping);
  return releasedVersions(mapping).find((release) => release.version < code)?.version ?? code;
}

/** The previous release's name, when there is one (for messages). */
export function previousRelease(mapping: ReleaseMapping): string | undefined {
  const code = codeServiceVersion(mapping);
  return releasedVersions(mapping).find((release) => release.version < code)?.name;
}

/** The live service with the lowest version (the first by binary and host among equals). */
export function oldestLiveService(live: readonly LiveService[]): LiveService | undefined {
  let oldest: LiveService | undefined;
  for (const service of live) {
    if (oldest === undefined || service.version < oldest.version) oldest = service;
  }
  return oldest;
}

/** The live services too old for this code to talk to: older than the previous release. */
export function servicesTooOld(
  mapping: ReleaseMapping,
  live: readonly LiveService[],
): LiveService[] {
  const oldest = oldestSupportedVersion(mapping);
  return live.filter((service) => service.version < oldest);
}

/**
 * The caps in force for a deployment: the pin when set (the operator's override), else the
 * release of the oldest live service when it is older than this code (`auto`), else the
 * code's own (`latest`). A service too old to name a release caps at the oldest release the
 * mapping knows (the process refuses to start beside it anyway; this is what is shown).
 */
export function deploymentCaps(
  mapping: ReleaseMapping,
  pin: string | undefined | null,
  live: readonly LiveService[],
): CapsInForce {
  if ((pin?.trim() ?? '') !== '') return capsInForce(mapping, pin);
  const oldest = oldestLiveService(live);
  if (oldest === undefined || oldest.version >= codeServiceVersion(mapping)) {
    return capsInForce(mapping, undefined);
  }
  const release =
    releaseOfServiceVersion(mapping, oldest.version) ?? releasedVersions(mapping).at(-1)?.name;
  return capsOfRelease(mapping, release, {
    kind: 'auto',
    binary: oldest.binary,
    host: oldest.host,
    serviceVersion: oldest.version,
  });
}

/** A live process that cannot read some object versions this code writes at its latest. */
export interface UnreadableBy {
  readonly service: LiveService;
  /** Its release, as its service version names it; undefined when the mapping knows none. */
  readonly release: string | undefined;
  /** The latest versions it does not know (empty for a service without objects). */
  readonly objects: readonly { readonly type: string; readonly version: string }[];
}

/**
 * The live processes that cannot read what writing at this code's latest versions produces
 * (online data migrations, an unpinned process): those older than this code's service
 * version (the service-version spec: data moves only once every service is upgraded), with the object
 * versions their release does not list.
 */
export function servicesThatCannotRead(
  mapping: ReleaseMapping,
  live: readonly LiveService[],
): UnreadableBy[] {
  const code = codeServiceVersion(mapping);
  const latest = mapping[MASTER]?.objects ?? {};
  return live
    .filter((service) => service.version < code)
    .map((service) => {
      const release = releaseOfServiceVersion(mapping, service.version);
      const known = release === undefined ? {} : (mapping[release]?.objects ?? {});
      const objects: { type: string; version: string }[] = [];
      for (const [type, versions] of Object.entries(latest)) {
        for (const version of versions) {
          if (!(known[type] ?? []).includes(version)) objects.push({ type, version });
        }
      }
      return { service, release, objects };
    });
}
