/**
 * The bare metal API's microversions: a plain list, one line each, as the real Ironic keeps
 * them (ironic/api/controllers/v1/versions.py; the detail is in
 * doc/source/contributor/webapi-version-history.rst). The list runs past what this release
 * serves: 1.81 and 1.82 belong to the next release (Ironic 21.3 and 21.4, "antelope"; issue
 * 14) and are listed so that the features table can name them, but the served maximum is
 * `SERVED_MAX_VERSION`, the zed release's 1.80 (Ironic 21.1). Raising it is the next
 * release's one-line change.
 */
export const BAREMETAL_VERSIONS = [
  '1.1', // the first versioned API (Kilo): maintenance_reason, vendor passthru, config drive
  '1.2', // the NOSTATE provision state is shown as "available" (null before)
  '1.3', // node driver_internal_info
  '1.4', // "manageable" state; the manage and provide verbs
  '1.5', // logical node names (a host name)
  '1.6', // inspection: inspecting, inspect failed, the inspect verb
  '1.7', // node clean_step
  '1.8', // the `fields` query parameter
  '1.9', // filtering nodes by provision_state
  '1.10', // node names may use every RFC 3986 unreserved character
  '1.11', // new nodes start in "enroll" instead of "available"
  '1.12', // RAID: node raid_config, target_raid_config, logical disk properties
  '1.13', // the abort verb (clean wait)
  '1.14', // states and driver properties links
  '1.15', // manual cleaning: the clean verb with clean_steps
  '1.16', // filtering nodes by driver
  '1.17', // the adopt verb
  '1.18', // port internal_info
  '1.19', // port local_link_connection and pxe_enabled
  '1.20', // node network_interface
  '1.21', // node resource_class (and the filter)
  '1.22', // ramdisk lookup and heartbeat endpoints
  '1.23', // /v1/portgroups
  '1.24', // /nodes/{node}/portgroups, /portgroups/{pg}/ports, port portgroup_uuid
  '1.25', // a node's chassis_uuid can be removed
  '1.26', // portgroup mode and properties
  '1.27', // soft reboot, soft power off and a power timeout
  '1.28', // /nodes/{node}/vifs
  '1.29', // inject NMI
  '1.30', // dynamic drivers: driver type, detail, default_* and enabled_* interfaces
  '1.31', // node *_interface fields for dynamic drivers
  '1.32', // volume connectors and targets
  '1.33', // node storage_interface; driver storage interfaces
  '1.34', // port physical_network
  '1.35', // a config drive when rebuilding
  '1.36', // agent_version in the heartbeat
  '1.37', // node traits
  '1.38', // rescue and unrescue: verbs, states, node rescue_interface
  '1.39', // "inspect wait" is shown (as "inspecting" before)
  '1.40', // BIOS settings; node bios_interface
  '1.41', // abort in "inspect wait"
  '1.42', // node fault (and the filter)
  '1.43', // `detail` query parameter on list endpoints
  '1.44', // node deploy_step
  '1.45', // reset_interfaces on node PATCH
  '1.46', // node conductor_group (and the filter)
  '1.47', // node automated_clean
  '1.48', // node protected and protected_reason
  '1.49', // /v1/conductors; node conductor (and the filter)
  '1.50', // node owner (and the filter)
  '1.51', // node description (and description_contains)
  '1.52', // allocations; node allocation_uuid
  '1.53', // port is_smartnic
  '1.54', // /v1/events
  '1.55', // deploy templates
  '1.56', // building config drives from meta_data, network_data, user_data
  '1.57', // allocation PATCH
  '1.58', // allocation backfill
  '1.59', // vendor_data in config drives
  '1.60', // allocation owner
  '1.61', // node retired and retired_reason
  '1.62', // agent token (a signifier)
  '1.63', // indicators
  '1.64', // network_type in port local_link_connection
  '1.65', // node lessee (and the filter)
  '1.66', // node network_data
  '1.67', // port_uuid and portgroup_uuid in VIF attach
  '1.68', // agent_verify_ca in the heartbeat
  '1.69', // deploy_steps when deploying and rebuilding
  '1.70', // disable_ramdisk for manual cleaning
  '1.71', // keystone system scope (a signifier)
  '1.72', // agent_status in the heartbeat
  '1.73', // the deploy and undeploy verbs, aliases of active and deleted
  '1.74', // BIOS registry fields; detail and fields on the BIOS list
  '1.75', // node boot_mode and secure_boot
  '1.76', // changing boot_mode and secure_boot
  '1.77', // `fields` on the drivers list and driver show
  '1.78', // node history
  '1.79', // allocations prefer the node whose name matches
  '1.80', // project-scoped admins may create and delete nodes (a signifier)
  '1.81', // node inventory
  '1.82', // node shards: `shard`, /v1/shards, the shard and sharded filters
] as const;

export type BaremetalVersion = (typeof BAREMETAL_VERSIONS)[number];

export const MIN_VERSION: BaremetalVersion = BAREMETAL_VERSIONS[0];

/** The newest version this release serves unpinned (Ironic 21.4 "antelope"). */
export const SERVED_MAX_VERSION: BaremetalVersion = '1.82';

/** The versions this release serves: the list up to and including `SERVED_MAX_VERSION`. */
export const SERVED_VERSIONS: readonly BaremetalVersion[] = BAREMETAL_VERSIONS.slice(
  0,
  BAREMETAL_VERSIONS.indexOf(SERVED_MAX_VERSION) + 1,
);
