/**
 * The bare metal service's release mapping (Ironic's `common/release_mappings.py`), as data:
 * for each release this code can be pinned to, the API microversion, RPC version and object
 * versions it speaks. A release has its semver key and its name as separate keys holding the
 * same entry, as in Ironic.
 *
 * `api` and `objects` are Ironic's, for the object types Baton implements. `rpc` is Baton's own
 * conductor RPC API version, not Ironic's (1.55 for both releases): Baton's RPC API starts at
 * 1.0 with this first release, and yoga gets the same, since no Baton release spoke an older
 * one.
 *
 * `master` (the code as it is) is not written here: `withMaster` derives it from the object
 * types' latest versions, the last API microversion and the last RPC version, so it cannot
 * drift from the code.
 */
import { MASTER, type Release, type ReleaseMapping } from '../releases/index.ts';
import { latestObjectVersions } from './objects/registry.ts';

const YOGA: Release = {
  api: '1.78',
  rpc: '1.0',
  objects: {
    Node: ['1.36'],
    Conductor: ['1.3'],
    Chassis: ['1.3'],
    Port: ['1.10'],
    Portgroup: ['1.4'],
    Trait: ['1.0'],
    TraitList: ['1.0'],
  },
};

const ZED: Release = {
  api: '1.80',
  rpc: '1.0',
  objects: {
    Node: ['1.36'],
    Conductor: ['1.3'],
    Chassis: ['1.3'],
    Port: ['1.10'],
    Portgroup: ['1.4'],
    Trait: ['1.0'],
    TraitList: ['1.0'],
  },
};

/** The releases this code knows, oldest first, each under its semver and its name. */
export const BAREMETAL_RELEASES: ReleaseMapping = {
  '20.1': YOGA,
  yoga: YOGA,
  '21.1': ZED,
  zed: ZED,
};

/** The release this code is: the service definition's `release`. */
export const CURRENT_RELEASE = 'zed';

/** What `master` is made of, each taken from the table that defines it. */
export interface CodeVersions {
  /** The last API microversion (the microversion list's last entry). */
  readonly api: string;
  /** The last RPC API version (the RPC versions table's last entry). */
  readonly rpc: string;
  /** Each object type's latest version, by name (default: the service's types). */
  readonly objects?: Readonly<Record<string, string>>;
}

/** The mapping with `master` derived from the code's own versions. */
export function withMaster(releases: ReleaseMapping, code: CodeVersions): ReleaseMapping {
  const objects = code.objects ?? latestObjectVersions();
  const master: Release = {
    api: code.api,
    rpc: code.rpc,
    objects: Object.fromEntries(Object.entries(objects).map(([name, v]) => [name, [v]])),
  };
  return { ...releases, [MASTER]: master };
}
