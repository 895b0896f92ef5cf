/**
 * The caps in force: what a process may speak while older processes still run beside it
 * (seeds 000 and 003). One value, resolved once when a service starts, handed to
 * everything the pin caps: the API's highest microversion, the RPC client's version cap,
 * and the object versions written to the database and sent over RPC.
 *
 * Today the caps come from one release of the mapping: the pin, or `master` when not
 * pinned. A value that names its release is what lets a later source (the lowest release
 * the live services report) produce the same shape.
 */
import type { VersionTargets } from '../objects/targets.ts';
import { ReleasePin } from './pin.ts';
import { InvalidReleaseMappingError, MASTER, type ReleaseMapping } from './release-mapping.ts';

export interface CapsInForce {
  /** The release whose versions cap this process; undefined when not pinned (the code's own). */
  readonly release: string | undefined;
  /** The highest API microversion to serve; undefined for a service without an API. */
  readonly apiMax: string | undefined;
  /** The highest RPC version to send; undefined for a service without RPC. */
  readonly rpcCap: string | undefined;
  /** The version of each object type to write to the database and send over RPC. */
  readonly objectTargets: VersionTargets;
}

/**
 * The caps for a pin setting (`pin_release_version`): empty or absent means `master`, the
 * code's own versions; an unknown release is an UnknownReleaseError naming the known ones.
 */
export function capsInForce(mapping: ReleaseMapping, pin: string | undefined | null): CapsInForce {
  const master = mapping[MASTER];
  if (master === undefined)
    throw new InvalidReleaseMappingError(`the release mapping has no '${MASTER}' entry`);
  const resolved = ReleasePin.resolve(mapping, pin);
  return Object.freeze({
    release: resolved.release,
    apiMax: master.api === undefined ? undefined : resolved.apiMaxVersion(master.api),
    rpcCap: master.rpc === undefined ? undefined : resolved.rpcVersionCap(master.rpc),
    objectTargets: resolved,
  });
}
