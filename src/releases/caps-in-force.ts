/**
 * The caps in force: what a process may speak while older processes still run beside it
 * (the rolling-upgrade doc and spec and the service-version spec). One value, resolved when a service starts (and again on SIGHUP),
 * handed to everything the caps limit: the API's highest microversion, the RPC client's
 * version cap, and the object versions written to the database and sent over RPC.
 *
 * The caps come from one release of the mapping, chosen by their `source`: the operator's pin,
 * else the release of the oldest live service of the deployment (deployment-versions.ts), else
 * the code's own (`master`, "latest").
 */
import type { VersionTargets } from '../objects/targets.ts';
import { ReleasePin } from './pin.ts';
import { InvalidReleaseMappingError, MASTER, type ReleaseMapping } from './release-mapping.ts';

/** Where the caps in force come from. */
export type CapsSource =
  | { readonly kind: 'pin' }
  | {
      readonly kind: 'auto';
      /** The oldest live process of the deployment, whose release the caps are. */
      readonly binary: string;
      readonly host: string;
      readonly serviceVersion: number;
    }
  | { readonly kind: 'latest' };

export interface CapsInForce {
  /** The release whose versions cap this process; undefined for the code's own (latest). */
  readonly release: string | undefined;
  /** Why these caps: the pin, the oldest live service (auto), or nothing older (latest). */
  readonly source: CapsSource;
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
  const release = pin?.trim() ?? '';
  return capsOfRelease(mapping, release === '' ? undefined : release, {
    kind: release === '' ? 'latest' : 'pin',
  });
}

/**
 * The caps of one release of the mapping (undefined: `master`), recorded with their source.
 * Automatic caps limit the API too: an API that writes and sends an older release's objects
 * must not accept what only newer ones carry (it would acknowledge a field it then drops).
 */
export function capsOfRelease(
  mapping: ReleaseMapping,
  release: string | undefined,
  source: CapsSource,
): CapsInForce {
  const master = mapping[MASTER];
  if (master === undefined)
    throw new InvalidReleaseMappingError(`the release mapping has no '${MASTER}' entry`);
  const resolved = ReleasePin.resolve(mapping, release);
  return Object.freeze({
    release: resolved.release,
    source,
    apiMax: master.api === undefined ? undefined : resolved.apiMaxVersion(master.api),
    rpcCap: master.rpc === undefined ? undefined : resolved.rpcVersionCap(master.rpc),
    objectTargets: resolved,
  });
}

/** The source as operators read it: `pin zed`, `auto from baremetal-conductor@1 (zed)`, `latest`. */
export function describeCapsSource(caps: Pick<CapsInForce, 'release' | 'source'>): string {
  const { source } = caps;
  if (source.kind === 'pin') return `pin ${caps.release ?? ''}`.trim();
  if (source.kind === 'latest') return 'latest';
  return `auto from ${source.binary}@${source.serviceVersion} (${caps.release ?? MASTER}, host ${source.host})`;
}
