/**
 * Which check each route of the bare metal API makes (api/access.ts runs them), by `METHOD url`
 * as routes.ts declares them: the real controllers' calls to Ironic's policy, route by route.
 * A test compares this table with the declared routes; a route missing here is refused.
 */
import type { Version } from '../../microversion/index.ts';
import { FEATURES } from './features.ts';

export type RouteAccess =
  /** Any authenticated caller (a 405, a route answering an error of its own). */
  | { readonly kind: 'authenticated' }
  /** check_policy: the caller's own values as the target. */
  | { readonly kind: 'system'; readonly rule: string }
  /**
   * check_node_policy_and_retrieve on the `:node` segment (or `?node=` when `query`); with
   * `since`, not below that version, where the real controller answers 404 before its check.
   */
  | {
      readonly kind: 'node';
      readonly rule: string;
      readonly query?: boolean;
      readonly since?: Version;
    }
  /** DELETE a node: `baremetal:node:delete`, else the project admin's own node. */
  | { readonly kind: 'nodeDelete' }
  /** check_list_policy('node', ?project). */
  | { readonly kind: 'nodeList' }
  /** check_port_list_policy, under a node or a portgroup when the route has one. */
  | {
      readonly kind: 'portList';
      readonly portgroup: boolean;
      readonly parent?: 'node' | 'portgroup';
    }
  /** check_port_policy_and_retrieve on `:port` / `:portgroup`. */
  | { readonly kind: 'port'; readonly rule: string; readonly portgroup: boolean }
  /** POST a node: `create:self_owned_node` or `create` (the owner, from the body, is the handler's). */
  | { readonly kind: 'nodeCreate' }
  /** PATCH a node: visible, or not found; the rules of the fields patched are the handler's. */
  | { readonly kind: 'nodeVisible' }
  /** The handler checks, with the body (port and portgroup create). */
  | { readonly kind: 'inHandler' };

const system = (rule: string): RouteAccess => ({ kind: 'system', rule });
const node = (rule: string): RouteAccess => ({ kind: 'node', rule });
const port = (rule: string): RouteAccess => ({ kind: 'port', rule, portgroup: false });
const portgroup = (rule: string): RouteAccess => ({ kind: 'port', rule, portgroup: true });
const NODE_LIST: RouteAccess = { kind: 'nodeList' };
const IN_HANDLER: RouteAccess = { kind: 'inHandler' };
const AUTHENTICATED: RouteAccess = { kind: 'authenticated' };

/** By `METHOD url` as the routes are declared (routes.ts). */
export const ROUTE_ACCESS: Readonly<Record<string, RouteAccess>> = {
  // Public: the auth hook lets them through without credentials (app.ts).
  ...Object.fromEntries(
    ['GET', 'PUT', 'POST', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'].flatMap((method) => [
      [`${method} /`, AUTHENTICATED],
      [`${method} /v1`, AUTHENTICATED],
    ]),
  ),
  // Baton's OpenAPI documents: public as `/` is (app.ts).
  'GET /openapi/:document': AUTHENTICATED,
  // Baton's dashboard (api/dashboard.ts): an admin's, as Ironic's admin-only routes are.
  'GET /dashboard': system('admin_api'),
  'GET /dashboard/state.json': system('admin_api'),
  'GET /v1/chassis': system('baremetal:chassis:get'),
  'POST /v1/chassis': system('baremetal:chassis:create'),
  'PATCH /v1/chassis': system('baremetal:chassis:update'),
  'DELETE /v1/chassis': system('baremetal:chassis:delete'),
  'GET /v1/chassis/detail': system('baremetal:chassis:get'),
  'GET /v1/chassis/:chassis_uuid': system('baremetal:chassis:get'),
  'PATCH /v1/chassis/:chassis_uuid': system('baremetal:chassis:update'),
  'DELETE /v1/chassis/:chassis_uuid': system('baremetal:chassis:delete'),
  'POST /v1/chassis/:chassis_uuid': system('baremetal:chassis:create'),
  'GET /v1/chassis/:chassis_uuid/nodes': NODE_LIST,
  'GET /v1/chassis/:chassis_uuid/nodes/detail': NODE_LIST,
  'GET /v1/conductors': system('baremetal:conductor:get'),
  'GET /v1/conductors/:hostname': system('baremetal:conductor:get'),
  'GET /v1/drivers': system('baremetal:driver:get'),
  'GET /v1/drivers/:driver_name': system('baremetal:driver:get'),
  'GET /v1/drivers/:driver_name/properties': system('baremetal:driver:get_properties'),
  'GET /v1/drivers/:driver_name/raid/logical_disk_properties': system(
    'baremetal:driver:get_raid_logical_disk_properties',
  ),
  'GET /v1/drivers/:driver_name/vendor_passthru/methods': system(
    'baremetal:driver:vendor_passthru',
  ),
  ...Object.fromEntries(
    ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].flatMap((method) => [
      [
        `${method} /v1/drivers/:driver_name/vendor_passthru`,
        system('baremetal:driver:vendor_passthru'),
      ],
      [`${method} /v1/nodes/:node/vendor_passthru`, node('baremetal:node:vendor_passthru')],
      [
        `${method} /v1/drivers/:driver_name/vendor_passthru/:method`,
        system('baremetal:driver:vendor_passthru'),
      ],
      [`${method} /v1/nodes/:node/vendor_passthru/:method`, node('baremetal:node:vendor_passthru')],
    ]),
  ),
  'GET /v1/nodes/:node/vendor_passthru/methods': node('baremetal:node:vendor_passthru'),
  'GET /v1/nodes': NODE_LIST,
  'POST /v1/nodes': { kind: 'nodeCreate' },
  'PATCH /v1/nodes': system('baremetal:node:update'),
  'DELETE /v1/nodes': system('baremetal:node:delete'),
  'GET /v1/nodes/detail': NODE_LIST,
  'GET /v1/nodes/validate': { kind: 'node', rule: 'baremetal:node:validate', query: true },
  'GET /v1/nodes/:node': node('baremetal:node:get'),
  'PATCH /v1/nodes/:node': { kind: 'nodeVisible' },
  'DELETE /v1/nodes/:node': { kind: 'nodeDelete' },
  'POST /v1/nodes/:node': system('baremetal:node:create'),
  'GET /v1/nodes/:node/validate': node('baremetal:node:validate'),
  'GET /v1/nodes/:node/:extra': node('baremetal:node:get'),
  'GET /v1/nodes/:node/inventory': node('baremetal:node:inventory:get'),
  // BIOS settings and history: the handlers check (node-sub-access.ts) after the version and
  // the arguments, as the real controllers order them.
  'GET /v1/nodes/:node/bios': IN_HANDLER,
  'GET /v1/nodes/:node/bios/:setting': IN_HANDLER,
  'GET /v1/nodes/:node/history': IN_HANDLER,
  'GET /v1/nodes/:node/history/:event': IN_HANDLER,
  'GET /v1/nodes/:node/management/boot_device': node('baremetal:node:get_boot_device'),
  'PUT /v1/nodes/:node/management/boot_device': node('baremetal:node:set_boot_device'),
  'GET /v1/nodes/:node/management/boot_device/supported': node('baremetal:node:get_boot_device'),
  'PUT /v1/nodes/:node/management/inject_nmi': {
    kind: 'node',
    rule: 'baremetal:node:inject_nmi',
    since: FEATURES.injectNmi,
  },
  'GET /v1/nodes/:node/management/indicators': node('baremetal:node:get_indicator_state'),
  'GET /v1/nodes/:node/management/indicators/:indicator': node(
    'baremetal:node:get_indicator_state',
  ),
  'PUT /v1/nodes/:node/management/indicators/:indicator': node(
    'baremetal:node:set_indicator_state',
  ),
  'PUT /v1/nodes/:node/maintenance': node('baremetal:node:set_maintenance'),
  'DELETE /v1/nodes/:node/maintenance': node('baremetal:node:clear_maintenance'),
  'GET /v1/nodes/:node/states': node('baremetal:node:get_states'),
  'PUT /v1/nodes/:node/states/power': node('baremetal:node:set_power_state'),
  'PUT /v1/nodes/:node/states/provision': node('baremetal:node:set_provision_state'),
  'GET /v1/nodes/:node/states/console': node('baremetal:node:get_console'),
  'PUT /v1/nodes/:node/states/console': node('baremetal:node:set_console_state'),
  'PUT /v1/nodes/:node/states/raid': node('baremetal:node:set_raid_state'),
  'PUT /v1/nodes/:node/states/boot_mode': node('baremetal:node:set_boot_mode'),
  'PUT /v1/nodes/:node/states/secure_boot': node('baremetal:node:set_secure_boot'),
  'GET /v1/nodes/:node/traits': node('baremetal:node:traits:list'),
  'PUT /v1/nodes/:node/traits': node('baremetal:node:traits:set'),
  'DELETE /v1/nodes/:node/traits': node('baremetal:node:traits:delete'),
  'PUT /v1/nodes/:node/traits/:trait': node('baremetal:node:traits:set'),
  'DELETE /v1/nodes/:node/traits/:trait': node('baremetal:node:traits:delete'),
  'GET /v1/nodes/:node/vifs': node('baremetal:node:vif:list'),
  'POST /v1/nodes/:node/vifs': node('baremetal:node:vif:attach'),
  // Validated, then 404 below 1.54, then `baremetal:events:post` (api/events.ts).
  'POST /v1/events': IN_HANDLER,
  // The controller's other methods: 404 below 1.54, else 405 (api/events.ts).
  'GET /v1/events': AUTHENTICATED,
  'PUT /v1/events': AUTHENTICATED,
  'DELETE /v1/events': AUTHENTICATED,
  'PATCH /v1/events': AUTHENTICATED,
  // pecan hands post() the first segment as its body: the schema's 400.
  'POST /v1/events/*': IN_HANDLER,
  // The ramdisk's public routes: `rule:public_api` in the handlers, after their arguments.
  'GET /v1/lookup': IN_HANDLER,
  'GET /v1/lookup/*': AUTHENTICATED,
  'POST /v1/heartbeat': AUTHENTICATED,
  'POST /v1/heartbeat/:node_ident': IN_HANDLER,
  'POST /v1/heartbeat/:node_ident/*': IN_HANDLER,
  'DELETE /v1/nodes/:node/vifs/:vif': node('baremetal:node:vif:detach'),
  'GET /v1/ports': { kind: 'portList', portgroup: false },
  'POST /v1/ports': IN_HANDLER,
  'PATCH /v1/ports': system('baremetal:port:update'),
  'DELETE /v1/ports': system('baremetal:port:delete'),
  'GET /v1/ports/detail': { kind: 'portList', portgroup: false },
  'GET /v1/ports/:port': port('baremetal:port:get'),
  'PATCH /v1/ports/:port': port('baremetal:port:update'),
  'DELETE /v1/ports/:port': port('baremetal:port:delete'),
  'GET /v1/nodes/:node/ports': { kind: 'portList', portgroup: false, parent: 'node' },
  'GET /v1/nodes/:node/ports/detail': { kind: 'portList', portgroup: false, parent: 'node' },
  'GET /v1/portgroups/:portgroup/ports': {
    kind: 'portList',
    portgroup: false,
    parent: 'portgroup',
  },
  'GET /v1/portgroups/:portgroup/ports/detail': {
    kind: 'portList',
    portgroup: false,
    parent: 'portgroup',
  },
  'GET /v1/portgroups': { kind: 'portList', portgroup: true },
  'POST /v1/portgroups': IN_HANDLER,
  'PATCH /v1/portgroups': system('baremetal:portgroup:update'),
  'DELETE /v1/portgroups': system('baremetal:portgroup:delete'),
  'GET /v1/portgroups/detail': { kind: 'portList', portgroup: true },
  'GET /v1/portgroups/:portgroup': portgroup('baremetal:portgroup:get'),
  'PATCH /v1/portgroups/:portgroup': portgroup('baremetal:portgroup:update'),
  'DELETE /v1/portgroups/:portgroup': portgroup('baremetal:portgroup:delete'),
  'GET /v1/nodes/:node/portgroups': { kind: 'portList', portgroup: true, parent: 'node' },
  'GET /v1/nodes/:node/portgroups/detail': { kind: 'portList', portgroup: true, parent: 'node' },
  // Allocations: the handlers check, as the real ones do, with the allocation's owner.
  ...Object.fromEntries(
    [
      'GET /v1/allocations',
      'POST /v1/allocations',
      'PATCH /v1/allocations',
      'DELETE /v1/allocations',
      'GET /v1/allocations/:allocation',
      'PATCH /v1/allocations/:allocation',
      'DELETE /v1/allocations/:allocation',
      'POST /v1/allocations/:allocation',
      'GET /v1/nodes/:node/allocation',
      'DELETE /v1/nodes/:node/allocation',
    ].map((route) => [route, IN_HANDLER]),
  ),
  // Volume connectors and targets: the handlers check, as the real ones do, after the version
  // gate, with the owner and lessee of the volume's node (api/volume-access.ts).
  'GET /v1/volume': IN_HANDLER,
  'GET /v1/nodes/:node/volume': IN_HANDLER,
  ...Object.fromEntries(
    ['/v1/volume', '/v1/nodes/:node/volume'].flatMap((prefix) =>
      ['connectors', 'targets'].flatMap((collection) => [
        ...['GET', 'POST', 'PATCH', 'DELETE'].map((method) => [
          `${method} ${prefix}/${collection}`,
          IN_HANDLER,
        ]),
        ...['GET', 'PATCH', 'DELETE', 'POST'].map((method) => [
          `${method} ${prefix}/${collection}/:volume`,
          IN_HANDLER,
        ]),
        // pecan's positional `fields` after the UUID.
        [`GET ${prefix}/${collection}/:volume/:extra`, IN_HANDLER],
      ]),
    ),
  ),
  'GET /v1/deploy_templates': system('baremetal:deploy_template:get'),
  'POST /v1/deploy_templates': system('baremetal:deploy_template:create'),
  'PATCH /v1/deploy_templates': system('baremetal:deploy_template:update'),
  'DELETE /v1/deploy_templates': system('baremetal:deploy_template:delete'),
  'GET /v1/deploy_templates/:template': system('baremetal:deploy_template:get'),
  'PATCH /v1/deploy_templates/:template': system('baremetal:deploy_template:update'),
  'DELETE /v1/deploy_templates/:template': system('baremetal:deploy_template:delete'),
  'POST /v1/deploy_templates/:template': system('baremetal:deploy_template:create'),
  'GET /v1/shards': system('baremetal:shards:get'),
  'GET /v1/shards/:shard': system('baremetal:shards:get'),
  ...Object.fromEntries(
    ['PUT', 'POST', 'DELETE', 'PATCH'].flatMap((method) => [
      [`${method} /v1/shards`, AUTHENTICATED],
      [`${method} /v1/shards/:shard`, AUTHENTICATED],
    ]),
  ),
};
