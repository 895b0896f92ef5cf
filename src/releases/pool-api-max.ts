/**
 * One API version across a balanced pool: behind one balancer, every API process must serve
 * the same highest microversion, or a client asking `latest` (or a version one serves and the
 * other refuses) sees it change from one request to the next. The pool's maximum is the lowest
 * of what the live processes of the service can serve: each process's caps in force (its pin,
 * or the automatic caps of an older process beside it) name a release whose API maximum it
 * serves at most, and a process of an older release serves that release's maximum. Conductors
 * count too: an API must not offer what the conductor storing it cannot (a field an older
 * release would drop). Pure: the rows come from the services table.
 */
import type { CapsInForce } from './caps-in-force.ts';
import { codeServiceVersion, releaseOfServiceVersion } from './deployment-versions.ts';
import { MASTER, type ReleaseMapping } from './release-mapping.ts';

/** A live process as the services table records it. */
export interface PoolMember {
  readonly version: number;
  /** The release its caps in force are at; absent for its own code's. */
  readonly capsRelease?: string | undefined;
}

function minor(version: string): [number, number] {
  const [major, min] = version.split('.').map(Number);
  return [major ?? 0, min ?? 0];
}

/** The lower of two microversions. */
export function lowerVersion(a: string, b: string): string {
  const [am, an] = minor(a);
  const [bm, bn] = minor(b);
  return am < bm || (am === bm && an < bn) ? a : b;
}

/** The API maximum a member serves at most, as far as this code's mapping tells. */
function memberMax(mapping: ReleaseMapping, member: PoolMember): string | undefined {
  if (member.capsRelease !== undefined) return mapping[member.capsRelease]?.api;
  if (member.version >= codeServiceVersion(mapping)) return undefined;
  const release = releaseOfServiceVersion(mapping, member.version);
  return release === undefined ? undefined : mapping[release]?.api;
}

/** The highest microversion this process may serve beside `members`; undefined: no API. */
export function poolApiMax(
  mapping: ReleaseMapping,
  own: CapsInForce,
  members: readonly PoolMember[],
): string | undefined {
  let max = own.apiMax ?? mapping[MASTER]?.api;
  if (max === undefined) return undefined;
  for (const member of members) {
    const theirs = memberMax(mapping, member);
    if (theirs !== undefined) max = lowerVersion(max, theirs);
  }
  return max;
}
