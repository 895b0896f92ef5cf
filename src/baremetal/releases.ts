/**
 * The bare metal service's release mapping (Ironic's `common/release_mappings.py`), as data:
 * for each release this code can be pinned to, the API microversion, RPC version and object
 * versions it speaks. A release has its semver key and its name as separate keys holding the
 * same entry, as in Ironic.
 *
 * `api` and `objects` are Ironic's, for the object types Baton implements in that release. `rpc` is Baton's own
 * conductor RPC API version, not Ironic's (1.55 for both releases): Baton's RPC API starts at
 * 1.0 with its first release (zed), and yoga gets the same, since no Baton release spoke an
 * older one.
 *
 * `master` (the code as it is) is not written here: the service definition (service.ts,
 * `defineService` with `codeVersionsOf`) derives it from the served microversions, the
 * conductor RPC versions table and the object types' versions, so it cannot drift from the
 * code.
 */
import type { Release, ReleaseMapping } from '../releases/index.ts';

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
  // Baton's first bare metal release: its processes report service version 1 (yoga, never
  // shipped by Baton, has none).
  serviceVersion: 1,
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

/**
 * Ironic 21.4's entry (2023.1): API 1.82 (1.81 node inventory, 1.82 shards), Node 1.37 (shard),
 * Port 1.11 and Portgroup 1.5 (node_uuid), NodeInventory 1.0 (new), Allocation 1.1,
 * DeployTemplate 1.1, BIOSSetting 1.1, NodeHistory 1.0, VolumeConnector 1.0 and VolumeTarget 1.0
 * (new to Baton). RPC 1.1 is Baton's
 * `get_node_inventory`, 1.2 its `create_allocation` and `destroy_allocation`, 1.3 update_node's
 * `expected_values`, 1.4 the node actions (console, inject NMI, boot mode and secure boot,
 * indicators, vendor passthru, RAID, the ramdisk's token and heartbeat, volume connector and
 * target updates and deletions; rpcapi/versions.ts).
 */
const ANTELOPE: Release = {
  api: '1.82',
  rpc: '1.4',
  // Its processes report service version 2 (service-version.ts).
  serviceVersion: 2,
  objects: {
    Node: ['1.37'],
    NodeInventory: ['1.0'],
    Conductor: ['1.3'],
    Chassis: ['1.3'],
    Port: ['1.11'],
    Portgroup: ['1.5'],
    Trait: ['1.0'],
    TraitList: ['1.0'],
    // New to Baton in this release (migration 0004), at Ironic's versions. Ironic's yoga and
    // zed name them too; Baton's did not have them, so its entries leave them out, as for a
    // type new in this release (docs/releases.md).
    Allocation: ['1.1'],
    DeployTemplate: ['1.1'],
    // New to Baton in this release too (migration 0005), at Ironic's versions.
    BIOSSetting: ['1.1'],
    NodeHistory: ['1.0'],
    // New to Baton in this release too (migration 0006), at Ironic's versions.
    VolumeConnector: ['1.0'],
    VolumeTarget: ['1.0'],
  },
};

/**
 * The releases this code knows, oldest first, each under its semver and its name (and, from
 * antelope on, the year-based name OpenStack gave it, as Ironic's mapping does not).
 */
export const BAREMETAL_RELEASES: ReleaseMapping = {
  '20.1': YOGA,
  yoga: YOGA,
  '21.1': ZED,
  zed: ZED,
  '21.4': ANTELOPE,
  '2023.1': ANTELOPE,
  antelope: ANTELOPE,
};

/** The release this code is: the service definition's `release`. */
export const CURRENT_RELEASE = 'antelope';
