/**
 * The conductor's RPC endpoint: every method of the conductor RPC API (rpcapi/versions.ts),
 * its named arguments, and the manager function that serves it. Objects arrive at their
 * latest version (the server's serializer converts them) and leave at the caps in force.
 */
import { isDatabaseUnavailable } from '../../db/index.ts';
import { InvalidArgumentsError, type RpcEndpoint, type RpcMethod } from '../../rpc/index.ts';
import { DatabaseUnavailableError } from '../common/errors.ts';
import type {
  AllocationObject,
  NodeObject,
  PortgroupObject,
  PortObject,
  VolumeConnectorObject,
  VolumeTargetObject,
} from '../objects/index.ts';
import { CONDUCTOR_RPC } from '../rpcapi/versions.ts';
import type { ConductorContext } from './conductor-context.ts';
import * as agent from './manager-agent.ts';
import * as allocations from './manager-allocations.ts';
import * as consoles from './manager-console.ts';
import * as inventory from './manager-inventory.ts';
import * as management from './manager-management.ts';
import * as nodes from './manager-nodes.ts';
import * as ports from './manager-ports.ts';
import * as provision from './manager-provision.ts';
import * as raid from './manager-raid.ts';
import * as vendor from './manager-vendor.ts';
import * as volumes from './manager-volumes.ts';

type Args = Record<string, unknown>;

function text(method: string, args: Args, name: string): string {
  const value = args[name];
  if (typeof value !== 'string' || value === '') {
    throw new InvalidArgumentsError(method, `argument ${name} must be a non-empty string`);
  }
  return value;
}

/** A string argument that may be absent or null (an agent's optional heartbeat fields). */
function optionalText(args: Args, name: string): string | null {
  const value = args[name];
  return typeof value === 'string' ? value : null;
}

function optionalBoolean(args: Args, name: string): boolean | undefined {
  const value = args[name];
  return value === undefined || value === null ? undefined : Boolean(value);
}

function boolean(method: string, args: Args, name: string): boolean {
  const value = args[name];
  if (typeof value !== 'boolean') {
    throw new InvalidArgumentsError(method, `argument ${name} must be a boolean`);
  }
  return value;
}

function optionalDict(
  method: string,
  args: Args,
  name: string,
): Record<string, unknown> | undefined {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new InvalidArgumentsError(method, `argument ${name} must be a dictionary`);
  }
  return value as Record<string, unknown>;
}

function list<T>(method: string, args: Args, name: string): T[] {
  const value = args[name];
  if (!Array.isArray(value))
    throw new InvalidArgumentsError(method, `argument ${name} must be a list`);
  return value as T[];
}

/**
 * A method that met the database away fails with DatabaseUnavailable (503), which crosses the
 * wire as itself, rather than the driver's error, which would reach the API as a 500.
 */
async function answerDatabaseOutage(handle: (args: Args) => unknown, args: Args): Promise<unknown> {
  try {
    return await handle(args);
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw new DatabaseUnavailableError();
    throw error;
  }
}

export function conductorEndpoint(ctx: ConductorContext): RpcEndpoint {
  const m = (params: RpcMethod['params'], handle: (args: Args) => unknown): RpcMethod => ({
    params,
    handle: (args) => answerDatabaseOutage(handle, args),
  });
  const methods: Record<string, RpcMethod> = {
    create_node: m({ node: 'required' }, (a) => nodes.createNode(ctx, a.node as NodeObject)),
    update_node: m(
      {
        node: 'required',
        reset_interfaces: 'optional',
        expected_values: 'optional',
        keyed_fields: 'optional',
      },
      (a) => {
        const expectedValues = optionalDict('update_node', a, 'expected_values');
        const keyedFields =
          a.keyed_fields === undefined || a.keyed_fields === null
            ? []
            : list<string>('update_node', a, 'keyed_fields');
        return nodes.updateNode(
          ctx,
          a.node as NodeObject,
          optionalBoolean(a, 'reset_interfaces'),
          expectedValues === undefined ? undefined : { expectedValues, keyedFields },
        );
      },
    ),
    destroy_node: m({ node_id: 'required' }, (a) =>
      nodes.destroyNode(ctx, text('destroy_node', a, 'node_id')),
    ),
    change_node_power_state: m(
      { node_id: 'required', new_state: 'required', timeout: 'optional' },
      (a) =>
        provision.changeNodePowerState(
          ctx,
          text('change_node_power_state', a, 'node_id'),
          text('change_node_power_state', a, 'new_state'),
          typeof a.timeout === 'number' ? a.timeout : undefined,
        ),
    ),
    do_node_deploy: m(
      {
        node_id: 'required',
        rebuild: 'optional',
        configdrive: 'optional',
        deploy_steps: 'optional',
      },
      (a) =>
        provision.doNodeDeploy(ctx, text('do_node_deploy', a, 'node_id'), {
          rebuild: optionalBoolean(a, 'rebuild') ?? false,
          ...(a.configdrive === undefined || a.configdrive === null
            ? {}
            : { configdrive: a.configdrive }),
          ...(Array.isArray(a.deploy_steps) ? { deploySteps: a.deploy_steps as Args[] } : {}),
        }),
    ),
    do_node_tear_down: m({ node_id: 'required' }, (a) =>
      provision.doNodeTearDown(ctx, text('do_node_tear_down', a, 'node_id')),
    ),
    do_provisioning_action: m({ node_id: 'required', action: 'required' }, (a) =>
      provision.doProvisioningAction(
        ctx,
        text('do_provisioning_action', a, 'node_id'),
        text('do_provisioning_action', a, 'action'),
      ),
    ),
    do_node_clean: m(
      { node_id: 'required', clean_steps: 'required', disable_ramdisk: 'optional' },
      (a) =>
        provision.doNodeClean(
          ctx,
          text('do_node_clean', a, 'node_id'),
          list<Args>('do_node_clean', a, 'clean_steps'),
          optionalBoolean(a, 'disable_ramdisk') ?? false,
        ),
    ),
    inspect_hardware: m({ node_id: 'required' }, (a) =>
      provision.inspectHardware(ctx, text('inspect_hardware', a, 'node_id')),
    ),
    do_node_rescue: m({ node_id: 'required', rescue_password: 'required' }, (a) =>
      provision.doNodeRescue(
        ctx,
        text('do_node_rescue', a, 'node_id'),
        text('do_node_rescue', a, 'rescue_password'),
      ),
    ),
    do_node_unrescue: m({ node_id: 'required' }, (a) =>
      provision.doNodeUnrescue(ctx, text('do_node_unrescue', a, 'node_id')),
    ),
    validate_driver_interfaces: m({ node_id: 'required' }, (a) =>
      nodes.validateDriverInterfaces(ctx, text('validate_driver_interfaces', a, 'node_id')),
    ),
    set_boot_device: m({ node_id: 'required', device: 'required', persistent: 'optional' }, (a) =>
      management.setBootDevice(
        ctx,
        text('set_boot_device', a, 'node_id'),
        text('set_boot_device', a, 'device'),
        optionalBoolean(a, 'persistent') ?? false,
      ),
    ),
    get_boot_device: m({ node_id: 'required' }, (a) =>
      management.getBootDevice(ctx, text('get_boot_device', a, 'node_id')),
    ),
    get_supported_boot_devices: m({ node_id: 'required' }, (a) =>
      management.getSupportedBootDevices(ctx, text('get_supported_boot_devices', a, 'node_id')),
    ),
    vif_attach: m({ node_id: 'required', vif_info: 'required' }, (a) =>
      management.vifAttach(ctx, text('vif_attach', a, 'node_id'), (a.vif_info ?? {}) as Args),
    ),
    vif_detach: m({ node_id: 'required', vif_id: 'required' }, (a) =>
      management.vifDetach(ctx, text('vif_detach', a, 'node_id'), text('vif_detach', a, 'vif_id')),
    ),
    vif_list: m({ node_id: 'required' }, (a) =>
      management.vifList(ctx, text('vif_list', a, 'node_id')),
    ),
    add_node_traits: m({ node_id: 'required', traits: 'required', replace: 'optional' }, (a) =>
      nodes.addNodeTraits(
        ctx,
        text('add_node_traits', a, 'node_id'),
        list<string>('add_node_traits', a, 'traits'),
        optionalBoolean(a, 'replace') ?? false,
      ),
    ),
    remove_node_traits: m({ node_id: 'required', traits: 'optional' }, (a) =>
      nodes.removeNodeTraits(
        ctx,
        text('remove_node_traits', a, 'node_id'),
        a.traits === undefined || a.traits === null
          ? undefined
          : list<string>('remove_node_traits', a, 'traits'),
      ),
    ),
    create_port: m({ port_obj: 'required' }, (a) =>
      ports.createPort(ctx, a.port_obj as PortObject),
    ),
    update_port: m({ port_obj: 'required' }, (a) =>
      ports.updatePort(ctx, a.port_obj as PortObject),
    ),
    destroy_port: m({ port_obj: 'required' }, (a) =>
      ports.destroyPort(ctx, a.port_obj as PortObject),
    ),
    update_portgroup: m({ portgroup_obj: 'required' }, (a) =>
      ports.updatePortgroup(ctx, a.portgroup_obj as PortgroupObject),
    ),
    destroy_portgroup: m({ portgroup_obj: 'required' }, (a) =>
      ports.destroyPortgroup(ctx, a.portgroup_obj as PortgroupObject),
    ),
    // 1.1
    get_node_inventory: m({ node_id: 'required' }, (a) =>
      inventory.getNodeInventory(ctx, text('get_node_inventory', a, 'node_id')),
    ),
    // 1.2
    create_allocation: m({ allocation: 'required' }, (a) =>
      allocations.createAllocation(ctx, a.allocation as AllocationObject),
    ),
    destroy_allocation: m({ allocation: 'required' }, (a) =>
      allocations.destroyAllocation(ctx, a.allocation as AllocationObject),
    ),
    // 1.4
    get_console_information: m({ node_id: 'required' }, (a) =>
      consoles.getConsoleInformation(ctx, text('get_console_information', a, 'node_id')),
    ),
    set_console_mode: m({ node_id: 'required', enabled: 'required' }, (a) =>
      consoles.setConsoleMode(
        ctx,
        text('set_console_mode', a, 'node_id'),
        boolean('set_console_mode', a, 'enabled'),
      ),
    ),
    inject_nmi: m({ node_id: 'required' }, (a) =>
      management.injectNmi(ctx, text('inject_nmi', a, 'node_id')),
    ),
    change_node_boot_mode: m({ node_id: 'required', new_state: 'required' }, (a) =>
      management.changeNodeBootMode(
        ctx,
        text('change_node_boot_mode', a, 'node_id'),
        text('change_node_boot_mode', a, 'new_state'),
      ),
    ),
    change_node_secure_boot: m({ node_id: 'required', new_state: 'required' }, (a) =>
      management.changeNodeSecureBoot(
        ctx,
        text('change_node_secure_boot', a, 'node_id'),
        boolean('change_node_secure_boot', a, 'new_state'),
      ),
    ),
    get_supported_indicators: m({ node_id: 'required', component: 'optional' }, (a) =>
      management.getSupportedIndicators(
        ctx,
        text('get_supported_indicators', a, 'node_id'),
        typeof a.component === 'string' ? a.component : undefined,
      ),
    ),
    get_indicator_state: m(
      { node_id: 'required', component: 'required', indicator: 'required' },
      (a) =>
        management.getIndicatorState(
          ctx,
          text('get_indicator_state', a, 'node_id'),
          text('get_indicator_state', a, 'component'),
          text('get_indicator_state', a, 'indicator'),
        ),
    ),
    vendor_passthru: m(
      {
        node_id: 'required',
        driver_method: 'required',
        http_method: 'required',
        info: 'required',
      },
      (a) =>
        vendor.vendorPassthru(
          ctx,
          text('vendor_passthru', a, 'node_id'),
          text('vendor_passthru', a, 'driver_method'),
          text('vendor_passthru', a, 'http_method'),
          optionalDict('vendor_passthru', a, 'info') ?? {},
        ),
    ),
    driver_vendor_passthru: m(
      {
        driver_name: 'required',
        driver_method: 'required',
        http_method: 'required',
        info: 'required',
      },
      (a) =>
        vendor.driverVendorPassthru(
          ctx,
          text('driver_vendor_passthru', a, 'driver_name'),
          text('driver_vendor_passthru', a, 'driver_method'),
          text('driver_vendor_passthru', a, 'http_method'),
          optionalDict('driver_vendor_passthru', a, 'info') ?? {},
        ),
    ),
    get_node_vendor_passthru_methods: m({ node_id: 'required' }, (a) =>
      vendor.getNodeVendorPassthruMethods(
        ctx,
        text('get_node_vendor_passthru_methods', a, 'node_id'),
      ),
    ),
    get_driver_vendor_passthru_methods: m({ driver_name: 'required' }, (a) =>
      vendor.getDriverVendorPassthruMethods(
        ctx,
        text('get_driver_vendor_passthru_methods', a, 'driver_name'),
      ),
    ),
    set_indicator_state: m(
      { node_id: 'required', component: 'required', indicator: 'required', state: 'required' },
      (a) =>
        management.setIndicatorState(
          ctx,
          text('set_indicator_state', a, 'node_id'),
          text('set_indicator_state', a, 'component'),
          text('set_indicator_state', a, 'indicator'),
          text('set_indicator_state', a, 'state'),
        ),
    ),
    set_target_raid_config: m({ node_id: 'required', target_raid_config: 'required' }, (a) =>
      raid.setTargetRaidConfig(
        ctx,
        text('set_target_raid_config', a, 'node_id'),
        optionalDict('set_target_raid_config', a, 'target_raid_config') ?? {},
      ),
    ),
    get_node_with_token: m({ node_id: 'required' }, (a) =>
      agent.getNodeWithToken(ctx, text('get_node_with_token', a, 'node_id')),
    ),
    heartbeat: m(
      {
        node_id: 'required',
        callback_url: 'required',
        agent_version: 'optional',
        agent_token: 'optional',
        agent_verify_ca: 'optional',
        agent_status: 'optional',
        agent_status_message: 'optional',
      },
      (a) =>
        agent.heartbeat(ctx, text('heartbeat', a, 'node_id'), optionalText(a, 'agent_token'), {
          callbackUrl: typeof a.callback_url === 'string' ? a.callback_url : '',
          agentVersion: optionalText(a, 'agent_version'),
          agentVerifyCa: optionalText(a, 'agent_verify_ca'),
          agentStatus: optionalText(a, 'agent_status'),
          agentStatusMessage: optionalText(a, 'agent_status_message'),
        }),
    ),
    get_raid_logical_disk_properties: m({ driver_name: 'required' }, (a) =>
      raid.getRaidLogicalDiskProperties(
        ctx,
        text('get_raid_logical_disk_properties', a, 'driver_name'),
      ),
    ),
    // 1.4, joined while unreleased
    update_volume_connector: m({ connector: 'required', expected_values: 'optional' }, (a) =>
      volumes.updateVolumeConnector(
        ctx,
        a.connector as VolumeConnectorObject,
        optionalDict('update_volume_connector', a, 'expected_values'),
      ),
    ),
    destroy_volume_connector: m({ connector: 'required' }, (a) =>
      volumes.destroyVolumeConnector(ctx, a.connector as VolumeConnectorObject),
    ),
    update_volume_target: m({ target: 'required', expected_values: 'optional' }, (a) =>
      volumes.updateVolumeTarget(
        ctx,
        a.target as VolumeTargetObject,
        optionalDict('update_volume_target', a, 'expected_values'),
      ),
    ),
    destroy_volume_target: m({ target: 'required' }, (a) =>
      volumes.destroyVolumeTarget(ctx, a.target as VolumeTargetObject),
    ),
  };
  return { version: CONDUCTOR_RPC.latest, methods };
}
