/**
 * The conductor RPC API's versions (Baton's own, not Ironic's 1.55: the methods are named as
 * Ironic's `conductor/rpcapi.py` names them so readers recognise them). One line per version,
 * oldest first; the last is what an unpinned API sends and what the conductor serves. A
 * version that client code branches on gets a `name`, checked with `canSendVersion`.
 *
 * A release adds its version here with a `name`, and the client method that uses it asks
 * `conductors.canSend(CONDUCTOR_RPC.named.<name>)` before sending (1.1: the API asks before
 * reading a node's inventory, and answers 406 when the cap in force is 1.0).
 */
import { defineRpcVersions } from '../../rpc/index.ts';

export const CONDUCTOR_RPC = defineRpcVersions([
  {
    version: '1.0',
    note:
      'create/update/destroy_node, change_node_power_state, do_node_deploy, do_node_tear_down, ' +
      'do_provisioning_action, do_node_clean, inspect_hardware, do_node_rescue, ' +
      'do_node_unrescue, validate_driver_interfaces, set/get_boot_device, ' +
      'get_supported_boot_devices, vif_attach/detach/list, add/remove_node_traits, ' +
      'create/update/destroy_port, update/destroy_portgroup',
    name: 'initial',
  },
  {
    version: '1.1',
    note: 'Added get_node_inventory (antelope: API 1.81, GET /v1/nodes/{node}/inventory)',
    name: 'nodeInventory',
  },
  {
    version: '1.2',
    note: 'Added create_allocation and destroy_allocation (API 1.52, /v1/allocations)',
    name: 'allocations',
  },
  {
    version: '1.3',
    note:
      'update_node takes expected_values (the fields the change was computed from, as read: ' +
      'applied only if unchanged under the reservation, else NodeChanged) and keyed_fields ' +
      '(dictionaries changed key by key, merged with the keys others changed)',
    name: 'nodeUpdateCheck',
  },
  {
    version: '1.4',
    note:
      'Added get_console_information, set_console_mode, inject_nmi, change_node_boot_mode, ' +
      'change_node_secure_boot, get_supported_indicators, get_indicator_state and ' +
      'set_indicator_state (the console, API 1.29 inject NMI, 1.63 indicators, 1.76 boot mode), ' +
      'vendor_passthru, driver_vendor_passthru, get_node_vendor_passthru_methods, ' +
      'get_driver_vendor_passthru_methods, set_target_raid_config and ' +
      'get_raid_logical_disk_properties (API 1.12 RAID), get_node_with_token and heartbeat ' +
      '(API 1.22 ramdisk lookup and heartbeat), update_volume_connector, ' +
      'destroy_volume_connector, update_volume_target and destroy_volume_target (API 1.32 ' +
      'volume connectors and targets)',
    name: 'nodeActions',
  },
]);

/** Ironic's conductor topic; a conductor listens on it as server `[DEFAULT] host`. */
export const CONDUCTOR_TOPIC = 'ironic.conductor_manager';
