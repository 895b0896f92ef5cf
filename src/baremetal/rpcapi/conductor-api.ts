/**
 * The API tier's side of the conductor RPC API (Ironic's `conductor/rpcapi.py`): one method per
 * RPC method, each sent to the conductor the node maps to on the hash ring, at the version
 * the method needs (never above the cap: the pin's `rpcCap`). Errors come back as the
 * catalogue's classes (remote-errors.ts).
 *
 * Routing: a node's conductor is found in the ring cache. When a call is not delivered
 * (`NoRpcServerError`: the conductor just went away), the rings are rebuilt and the call is
 * sent once more to the node's new conductor, as the contract between the tiers says.
 *
 * A method of a later RPC version checks `canSend(V.named.x)` and sends the older form (or
 * refuses) when the cap does not allow it; see versions.ts.
 */
import { NoRpcServerError, type RpcClient } from '../../rpc/index.ts';
import type { RingNode } from '../common/hash-ring.ts';
import type { NodeInventoryBody } from '../common/node-inventory-body.ts';
import type { AgentHeartbeat, SupportedIndicators } from '../drivers/interfaces/index.ts';
import type {
  AllocationObject,
  NodeObject,
  PortgroupObject,
  PortObject,
  VolumeConnectorObject,
  VolumeTargetObject,
} from '../objects/index.ts';
import type { ConductorRingCache } from './ring-cache.ts';
import { CONDUCTOR_RPC } from './versions.ts';

const V = CONDUCTOR_RPC.named;

/** What routing needs of a node: its uuid, driver and conductor group. */
export function routeOf(node: NodeObject): RingNode {
  return {
    uuid: String(node.peek('uuid')),
    driver: String(node.peek('driver')),
    conductorGroup: node.peek('conductor_group') ?? '',
  };
}

/** `{interface: {result, reason}}`, as the real validate_driver_interfaces answers. */
export type InterfaceValidation = Record<string, { result: boolean; reason?: string | null }>;

export interface BootDevice {
  readonly boot_device: string | null;
  readonly persistent: boolean | null;
}

/** What a vendor method answers (the conductor's vendor_passthru return). */
export interface PassthruAnswer {
  readonly return: unknown;
  readonly async: boolean;
  readonly attach: boolean;
}

export interface ConductorApiOptions {
  /** A client on CONDUCTOR_TOPIC at CONDUCTOR_RPC.latest, capped by the caps in force. */
  readonly client: RpcClient;
  readonly rings: ConductorRingCache;
}

export class ConductorApi {
  readonly client: RpcClient;
  readonly rings: ConductorRingCache;

  constructor(options: ConductorApiOptions) {
    this.client = options.client;
    this.rings = options.rings;
  }

  /** Whether the cap lets this API send `version` (e.g. `CONDUCTOR_RPC.named.x`). */
  canSend(version: string): boolean {
    return this.client.canSendVersion(version);
  }

  /** The conductor host the node maps to now (NoValidHost / TemporaryFailure otherwise). */
  conductorFor(node: NodeObject): Promise<string> {
    return this.rings.conductorFor(routeOf(node));
  }

  createNode(node: NodeObject): Promise<NodeObject> {
    return this.#call(node, V.initial, 'create_node', { node }) as Promise<NodeObject>;
  }

  /**
   * `expectedValues`: the fields the change was computed from, as read (1.3); the conductor
   * applies it only if they still hold those values, else NodeChanged. `keyedFields`: the
   * dictionaries it changed key by key, which the conductor merges with keys others changed.
   * Below 1.3 the change is sent without them, and is applied as it comes
   * (`canCheckNodeUpdates` tells which).
   */
  updateNode(
    node: NodeObject,
    options: {
      resetInterfaces?: boolean;
      expectedValues?: Record<string, unknown>;
      keyedFields?: readonly string[];
    } = {},
  ): Promise<NodeObject> {
    const args: Record<string, unknown> = { node };
    if (options.resetInterfaces !== undefined) args.reset_interfaces = options.resetInterfaces;
    let version = V.initial;
    if (options.expectedValues !== undefined && this.canCheckNodeUpdates()) {
      args.expected_values = options.expectedValues;
      if (options.keyedFields !== undefined) args.keyed_fields = options.keyedFields;
      version = V.nodeUpdateCheck;
    }
    return this.#call(node, version, 'update_node', args) as Promise<NodeObject>;
  }

  /** Whether update_node can carry `expected_values` under the cap in force. */
  canCheckNodeUpdates(): boolean {
    return this.canSend(V.nodeUpdateCheck);
  }

  async destroyNode(node: NodeObject): Promise<void> {
    await this.#call(node, V.initial, 'destroy_node', { node_id: routeOf(node).uuid });
  }

  async changeNodePowerState(node: NodeObject, newState: string, timeout?: number): Promise<void> {
    const args: Record<string, unknown> = { node_id: routeOf(node).uuid, new_state: newState };
    if (timeout !== undefined) args.timeout = timeout;
    await this.#call(node, V.initial, 'change_node_power_state', args);
  }

  async doNodeDeploy(
    node: NodeObject,
    options: { rebuild?: boolean; configdrive?: unknown; deploySteps?: unknown[] } = {},
  ): Promise<void> {
    const args: Record<string, unknown> = { node_id: routeOf(node).uuid };
    if (options.rebuild !== undefined) args.rebuild = options.rebuild;
    if (options.configdrive !== undefined) args.configdrive = options.configdrive;
    if (options.deploySteps !== undefined) args.deploy_steps = options.deploySteps;
    await this.#call(node, V.initial, 'do_node_deploy', args);
  }

  async doNodeTearDown(node: NodeObject): Promise<void> {
    await this.#call(node, V.initial, 'do_node_tear_down', { node_id: routeOf(node).uuid });
  }

  /** manage, provide, abort, adopt. */
  async doProvisioningAction(node: NodeObject, action: string): Promise<void> {
    await this.#call(node, V.initial, 'do_provisioning_action', {
      node_id: routeOf(node).uuid,
      action,
    });
  }

  async doNodeClean(
    node: NodeObject,
    cleanSteps: unknown[],
    disableRamdisk?: boolean,
  ): Promise<void> {
    const args: Record<string, unknown> = { node_id: routeOf(node).uuid, clean_steps: cleanSteps };
    if (disableRamdisk !== undefined) args.disable_ramdisk = disableRamdisk;
    await this.#call(node, V.initial, 'do_node_clean', args);
  }

  async inspectHardware(node: NodeObject): Promise<void> {
    await this.#call(node, V.initial, 'inspect_hardware', { node_id: routeOf(node).uuid });
  }

  async doNodeRescue(node: NodeObject, rescuePassword: string): Promise<void> {
    await this.#call(node, V.initial, 'do_node_rescue', {
      node_id: routeOf(node).uuid,
      rescue_password: rescuePassword,
    });
  }

  async doNodeUnrescue(node: NodeObject): Promise<void> {
    await this.#call(node, V.initial, 'do_node_unrescue', { node_id: routeOf(node).uuid });
  }

  validateDriverInterfaces(node: NodeObject): Promise<InterfaceValidation> {
    return this.#call(node, V.initial, 'validate_driver_interfaces', {
      node_id: routeOf(node).uuid,
    }) as Promise<InterfaceValidation>;
  }

  async setBootDevice(node: NodeObject, device: string, persistent?: boolean): Promise<void> {
    const args: Record<string, unknown> = { node_id: routeOf(node).uuid, device };
    if (persistent !== undefined) args.persistent = persistent;
    await this.#call(node, V.initial, 'set_boot_device', args);
  }

  getBootDevice(node: NodeObject): Promise<BootDevice> {
    return this.#call(node, V.initial, 'get_boot_device', {
      node_id: routeOf(node).uuid,
    }) as Promise<BootDevice>;
  }

  getSupportedBootDevices(node: NodeObject): Promise<string[]> {
    return this.#call(node, V.initial, 'get_supported_boot_devices', {
      node_id: routeOf(node).uuid,
    }) as Promise<string[]>;
  }

  async vifAttach(node: NodeObject, vifInfo: Record<string, unknown>): Promise<void> {
    await this.#call(node, V.initial, 'vif_attach', {
      node_id: routeOf(node).uuid,
      vif_info: vifInfo,
    });
  }

  async vifDetach(node: NodeObject, vifId: string): Promise<void> {
    await this.#call(node, V.initial, 'vif_detach', { node_id: routeOf(node).uuid, vif_id: vifId });
  }

  vifList(node: NodeObject): Promise<{ id: string }[]> {
    return this.#call(node, V.initial, 'vif_list', {
      node_id: routeOf(node).uuid,
    }) as Promise<{ id: string }[]>;
  }

  async addNodeTraits(node: NodeObject, traits: string[], replace?: boolean): Promise<void> {
    const args: Record<string, unknown> = { node_id: routeOf(node).uuid, traits };
    if (replace !== undefined) args.replace = replace;
    await this.#call(node, V.initial, 'add_node_traits', args);
  }

  /** Without `traits`, every trait of the node. */
  async removeNodeTraits(node: NodeObject, traits?: string[]): Promise<void> {
    const args: Record<string, unknown> = { node_id: routeOf(node).uuid };
    if (traits !== undefined) args.traits = traits;
    await this.#call(node, V.initial, 'remove_node_traits', args);
  }

  /** `node` is the port's node: it decides the conductor. */
  createPort(node: NodeObject, port: PortObject): Promise<PortObject> {
    return this.#call(node, V.initial, 'create_port', { port_obj: port }) as Promise<PortObject>;
  }

  updatePort(node: NodeObject, port: PortObject): Promise<PortObject> {
    return this.#call(node, V.initial, 'update_port', { port_obj: port }) as Promise<PortObject>;
  }

  async destroyPort(node: NodeObject, port: PortObject): Promise<void> {
    await this.#call(node, V.initial, 'destroy_port', { port_obj: port });
  }

  updatePortgroup(node: NodeObject, portgroup: PortgroupObject): Promise<PortgroupObject> {
    return this.#call(node, V.initial, 'update_portgroup', {
      portgroup_obj: portgroup,
    }) as Promise<PortgroupObject>;
  }

  async destroyPortgroup(node: NodeObject, portgroup: PortgroupObject): Promise<void> {
    await this.#call(node, V.initial, 'destroy_portgroup', { portgroup_obj: portgroup });
  }

  /**
   * RPC 1.1. The caller checks `canSend(CONDUCTOR_RPC.named.nodeInventory)` first: a conductor
   * of the previous release has no such method.
   */
  getNodeInventory(node: NodeObject): Promise<NodeInventoryBody> {
    return this.#call(node, V.nodeInventory, 'get_node_inventory', {
      node_id: routeOf(node).uuid,
    }) as Promise<NodeInventoryBody>;
  }

  /**
   * RPC 1.2, checked by the caller with `canSend(CONDUCTOR_RPC.named.allocations)`. A backfill
   * (`node` given, its id in the allocation) goes to the node's conductor; any other to a
   * conductor chosen at random, as Ironic's API sends them.
   */
  createAllocation(allocation: AllocationObject, node?: NodeObject): Promise<AllocationObject> {
    const args = { allocation };
    const version = V.allocations;
    return (
      node === undefined
        ? this.#callAny(version, 'create_allocation', args)
        : this.#call(node, version, 'create_allocation', args)
    ) as Promise<AllocationObject>;
  }

  /** RPC 1.2, to a conductor chosen at random (it takes the allocation's node itself). */
  async destroyAllocation(allocation: AllocationObject): Promise<void> {
    await this.#callAny(V.allocations, 'destroy_allocation', { allocation });
  }

  /** Whether the cap lets the node actions of RPC 1.4 be sent (console, NMI, boot mode...). */
  canSendNodeActions(): boolean {
    return this.canSend(V.nodeActions);
  }

  /**
   * RPC 1.4 (this and the seven below), checked by the caller with `canSendNodeActions()`.
   * NodeConsoleNotEnabled when the console is off.
   */
  getConsoleInformation(node: NodeObject): Promise<Record<string, unknown>> {
    return this.#call(node, V.nodeActions, 'get_console_information', {
      node_id: routeOf(node).uuid,
    }) as Promise<Record<string, unknown>>;
  }

  async setConsoleMode(node: NodeObject, enabled: boolean): Promise<void> {
    await this.#call(node, V.nodeActions, 'set_console_mode', {
      node_id: routeOf(node).uuid,
      enabled,
    });
  }

  async injectNmi(node: NodeObject): Promise<void> {
    await this.#call(node, V.nodeActions, 'inject_nmi', { node_id: routeOf(node).uuid });
  }

  async changeNodeBootMode(node: NodeObject, mode: string): Promise<void> {
    await this.#call(node, V.nodeActions, 'change_node_boot_mode', {
      node_id: routeOf(node).uuid,
      new_state: mode,
    });
  }

  async changeNodeSecureBoot(node: NodeObject, state: boolean): Promise<void> {
    await this.#call(node, V.nodeActions, 'change_node_secure_boot', {
      node_id: routeOf(node).uuid,
      new_state: state,
    });
  }

  getSupportedIndicators(node: NodeObject, component?: string): Promise<SupportedIndicators> {
    const args: Record<string, unknown> = { node_id: routeOf(node).uuid };
    if (component !== undefined) args.component = component;
    return this.#call(
      node,
      V.nodeActions,
      'get_supported_indicators',
      args,
    ) as Promise<SupportedIndicators>;
  }

  getIndicatorState(node: NodeObject, component: string, indicator: string): Promise<string> {
    return this.#call(node, V.nodeActions, 'get_indicator_state', {
      node_id: routeOf(node).uuid,
      component,
      indicator,
    }) as Promise<string>;
  }

  async setIndicatorState(
    node: NodeObject,
    component: string,
    indicator: string,
    state: string,
  ): Promise<void> {
    await this.#call(node, V.nodeActions, 'set_indicator_state', {
      node_id: routeOf(node).uuid,
      component,
      indicator,
      state,
    });
  }

  /** RPC 1.4: a node's vendor method (`info`: the request's JSON object body). */
  vendorPassthru(
    node: NodeObject,
    method: string,
    httpMethod: string,
    info: Record<string, unknown>,
  ): Promise<PassthruAnswer> {
    return this.#call(node, V.nodeActions, 'vendor_passthru', {
      node_id: routeOf(node).uuid,
      driver_method: method,
      http_method: httpMethod,
      info,
    }) as Promise<PassthruAnswer>;
  }

  getNodeVendorPassthruMethods(node: NodeObject): Promise<Record<string, unknown>> {
    return this.#call(node, V.nodeActions, 'get_node_vendor_passthru_methods', {
      node_id: routeOf(node).uuid,
    }) as Promise<Record<string, unknown>>;
  }

  /** RPC 1.4, to a conductor running the hardware type, chosen at random. */
  driverVendorPassthru(
    driver: string,
    method: string,
    httpMethod: string,
    info: Record<string, unknown>,
  ): Promise<PassthruAnswer> {
    return this.#callDriver(driver, 'driver_vendor_passthru', {
      driver_name: driver,
      driver_method: method,
      http_method: httpMethod,
      info,
    }) as Promise<PassthruAnswer>;
  }

  getDriverVendorPassthruMethods(driver: string): Promise<Record<string, unknown>> {
    return this.#callDriver(driver, 'get_driver_vendor_passthru_methods', {
      driver_name: driver,
    }) as Promise<Record<string, unknown>>;
  }

  /**
   * RPC 1.4: the node with a new agent token stored, or `******` in its place when it has one
   * (a ramdisk's lookup from API 1.62).
   */
  getNodeWithToken(node: NodeObject): Promise<NodeObject> {
    return this.#call(node, V.nodeActions, 'get_node_with_token', {
      node_id: routeOf(node).uuid,
    }) as Promise<NodeObject>;
  }

  /** RPC 1.4: a ramdisk's heartbeat (InvalidParameterValue for a token that is not the node's). */
  async heartbeat(
    node: NodeObject,
    agentToken: string | null,
    beat: AgentHeartbeat,
  ): Promise<void> {
    await this.#call(node, V.nodeActions, 'heartbeat', {
      node_id: routeOf(node).uuid,
      callback_url: beat.callbackUrl,
      agent_version: beat.agentVersion,
      agent_token: agentToken,
      agent_verify_ca: beat.agentVerifyCa,
      agent_status: beat.agentStatus,
      agent_status_message: beat.agentStatusMessage,
    });
  }

  /** RPC 1.4: stores a node's target RAID configuration (checked by its RAID interface). */
  async setTargetRaidConfig(node: NodeObject, config: Record<string, unknown>): Promise<void> {
    await this.#call(node, V.nodeActions, 'set_target_raid_config', {
      node_id: routeOf(node).uuid,
      target_raid_config: config,
    });
  }

  /** RPC 1.4, to a conductor running the hardware type: its RAID logical disk properties. */
  getRaidLogicalDiskProperties(driver: string): Promise<Record<string, string>> {
    return this.#callDriver(driver, 'get_raid_logical_disk_properties', {
      driver_name: driver,
    }) as Promise<Record<string, string>>;
  }

  /**
   * Whether the cap lets the volume methods be sent: RPC 1.4, which they joined while it was
   * unreleased, as RAID's did.
   */
  canSendVolumes(): boolean {
    return this.canSend(V.nodeActions);
  }

  /** RPC 1.4 (this and the three below), checked by the caller with `canSendVolumes()`. */
  /** `expectedValues`: the fields the change was computed from, as read (VolumeChanged else). */
  updateVolumeConnector(
    node: NodeObject,
    connector: VolumeConnectorObject,
    expectedValues: Record<string, unknown>,
  ): Promise<VolumeConnectorObject> {
    return this.#call(node, V.nodeActions, 'update_volume_connector', {
      connector,
      expected_values: expectedValues,
    }) as Promise<VolumeConnectorObject>;
  }

  async destroyVolumeConnector(node: NodeObject, connector: VolumeConnectorObject): Promise<void> {
    await this.#call(node, V.nodeActions, 'destroy_volume_connector', { connector });
  }

  updateVolumeTarget(
    node: NodeObject,
    target: VolumeTargetObject,
    expectedValues: Record<string, unknown>,
  ): Promise<VolumeTargetObject> {
    return this.#call(node, V.nodeActions, 'update_volume_target', {
      target,
      expected_values: expectedValues,
    }) as Promise<VolumeTargetObject>;
  }

  async destroyVolumeTarget(node: NodeObject, target: VolumeTargetObject): Promise<void> {
    await this.#call(node, V.nodeActions, 'destroy_volume_target', { target });
  }

  /** Sends to a conductor running `driver`; not delivered: sent once more to another. */
  async #callDriver(driver: string, method: string, args: Record<string, unknown>) {
    const version = V.nodeActions;
    const server = await this.rings.conductorForDriver(driver);
    try {
      return await this.client.prepare({ server, version }).call(method, args);
    } catch (error) {
      if (!(error instanceof NoRpcServerError)) throw error;
      this.rings.reset();
      const next = await this.rings.conductorForDriver(driver);
      return this.client.prepare({ server: next, version }).call(method, args);
    }
  }

  /** Sends to a live conductor chosen at random; not delivered: sent once more to another. */
  async #callAny(version: string, method: string, args: Record<string, unknown>) {
    const server = await this.rings.anyConductor();
    try {
      return await this.client.prepare({ server, version }).call(method, args);
    } catch (error) {
      if (!(error instanceof NoRpcServerError)) throw error;
      this.rings.reset();
      const next = await this.rings.anyConductor();
      return this.client.prepare({ server: next, version }).call(method, args);
    }
  }

  /** Sends to the node's conductor; not delivered: rings rebuilt, sent once more. */
  async #call(
    node: NodeObject,
    version: string,
    method: string,
    args: Record<string, unknown>,
  ): Promise<unknown> {
    const route = routeOf(node);
    const server = await this.rings.conductorFor(route);
    try {
      return await this.client.prepare({ server, version }).call(method, args);
    } catch (error) {
      if (!(error instanceof NoRpcServerError)) throw error;
      this.rings.reset();
      const next = await this.rings.conductorFor(route);
      return this.client.prepare({ server: next, version }).call(method, args);
    }
  }
}
