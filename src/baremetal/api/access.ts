/**
 * Who may call what, as the real Ironic's controllers ask its policy (ironic/api/controllers/
 * v1/utils.py): `check_policy` for the system-wide resources, `check_node_policy_and_retrieve`
 * for a node (a project that may not see the node is told it does not exist; one that may see
 * it but not act is refused), the port and portgroup equivalents through their node, and the
 * list checks that narrow a project's lists to the nodes it owns or leases.
 *
 * Each route says its check in ROUTE_ACCESS; the checks that need no body run in a preParsing
 * hook, before the body is read, so an unauthorized caller's body is never buffered. Checks
 * that need the body (node create and patch, port and portgroup create) are the handlers'.
 * Under `noauth` nothing is checked, as Ironic's `authorize` passes everything then.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RequestCredentials } from '../../auth/request-credentials.ts';
import {
  type PolicyCredentials,
  PolicyScopeError,
  policyCredentials,
  type RuleSet,
} from '../../policy/index.ts';
import { isInterfaceKind } from '../drivers/interface-kinds.ts';
import { NotFoundError } from '../errors.ts';
import type { NodeObject } from '../objects/index.ts';
import { ClientSideError } from './errors.ts';
import { findNode } from './node-lookup.ts';
import { findPortgroup } from './portgroup-lookup.ts';

/** Ironic's HTTPForbidden: the rule named as the resource denied. */
export class PolicyForbiddenError extends ClientSideError {
  override name = 'PolicyForbiddenError';
  readonly rule: string;
  /** Refused for the token's scope (`enforce_scope`), not by the check. */
  readonly scope: boolean;
  constructor(rule: string, scopeMessage?: string) {
    super(scopeMessage ?? `Access was denied to the following resource: ${rule}`, 403);
    this.rule = rule;
    this.scope = scopeMessage !== undefined;
  }
}

export type RouteAccess =
  /** Any authenticated caller (a 405, a route answering an error of its own). */
  | { readonly kind: 'authenticated' }
  /** check_policy: the caller's own values as the target. */
  | { readonly kind: 'system'; readonly rule: string }
  /** check_node_policy_and_retrieve on the `:node` segment (or `?node=` when `query`). */
  | { readonly kind: 'node'; readonly rule: string; readonly query?: boolean }
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
  'GET /v1/nodes/:node/management/boot_device': node('baremetal:node:get_boot_device'),
  'PUT /v1/nodes/:node/management/boot_device': node('baremetal:node:set_boot_device'),
  'GET /v1/nodes/:node/management/boot_device/supported': node('baremetal:node:get_boot_device'),
  'PUT /v1/nodes/:node/maintenance': node('baremetal:node:set_maintenance'),
  'DELETE /v1/nodes/:node/maintenance': node('baremetal:node:clear_maintenance'),
  'GET /v1/nodes/:node/states': node('baremetal:node:get_states'),
  'PUT /v1/nodes/:node/states/power': node('baremetal:node:set_power_state'),
  'PUT /v1/nodes/:node/states/provision': node('baremetal:node:set_provision_state'),
  'GET /v1/nodes/:node/traits': node('baremetal:node:traits:list'),
  'PUT /v1/nodes/:node/traits': node('baremetal:node:traits:set'),
  'DELETE /v1/nodes/:node/traits': node('baremetal:node:traits:delete'),
  'PUT /v1/nodes/:node/traits/:trait': node('baremetal:node:traits:set'),
  'DELETE /v1/nodes/:node/traits/:trait': node('baremetal:node:traits:delete'),
  'GET /v1/nodes/:node/vifs': node('baremetal:node:vif:list'),
  'POST /v1/nodes/:node/vifs': node('baremetal:node:vif:attach'),
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
  'GET /v1/shards': system('baremetal:shards:get'),
  'GET /v1/shards/:shard': system('baremetal:shards:get'),
  ...Object.fromEntries(
    ['PUT', 'POST', 'DELETE', 'PATCH'].flatMap((method) => [
      [`${method} /v1/shards`, AUTHENTICATED],
      [`${method} /v1/shards/:shard`, AUTHENTICATED],
    ]),
  ),
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Ironic's policy under `keystone`; undefined under `noauth` (nothing is checked). */
    baremetalPolicy: RuleSet | undefined;
  }
}

/** The project a list is narrowed to (check_list_policy's answer), by request. */
const listProjects = new WeakMap<FastifyRequest, string>();

/** The project whose nodes (owned or leased) a list may show; undefined: no narrowing. */
export function listProjectOf(request: FastifyRequest): string | undefined {
  return listProjects.get(request);
}

/** Ironic's `to_policy_values`: oslo.context's, plus the project name and the public flag. */
function ironicPolicyValues(credentials: RequestCredentials): PolicyCredentials {
  return {
    ...policyCredentials(credentials),
    project_name: credentials.projectName ?? null,
    is_public_api: false,
  };
}

export interface NodeOwnership {
  readonly owner: string | null;
  readonly lessee: string | null;
}

function ownershipOf(found: NodeObject | undefined): NodeOwnership {
  return {
    owner: (found?.get('owner') as string | null | undefined) ?? null,
    lessee: (found?.get('lessee') as string | null | undefined) ?? null,
  };
}

/** The target check_owner_policy builds: the caller's values, the node's owner (and lessee if set). */
function ownerTarget(values: Record<string, unknown>, ownership: NodeOwnership) {
  const target: Record<string, unknown> = { ...values, 'node.owner': ownership.owner };
  if (ownership.lessee) target['node.lessee'] = ownership.lessee;
  return target;
}

/**
 * The checks of one request, or nothing at all under `noauth`. Refusals are Ironic's
 * HTTPForbidden (403, the rule named); a token of a scope the rule is not meant for, under
 * `enforce_scope`, is a 403 naming the rule too (the real service lets oslo.policy's
 * InvalidScope through as a 500: docs/security.md).
 */
export class RequestAccess {
  readonly #request: FastifyRequest;
  readonly #policy: RuleSet;
  readonly #values: PolicyCredentials;

  constructor(request: FastifyRequest, policy: RuleSet, credentials: RequestCredentials) {
    this.#request = request;
    this.#policy = policy;
    this.#values = ironicPolicyValues(credentials);
  }

  /** Ironic's policy values of the caller. */
  get values(): Readonly<Record<string, unknown>> {
    return this.#values;
  }

  get projectId(): string | null {
    return (this.#values.project_id as string | null) ?? null;
  }

  get systemScoped(): boolean {
    return this.#values.system_scope === 'all';
  }

  /** True when allowed; a scope refusal counts as not allowed (`policy.check`). */
  allows(rule: string, target: Record<string, unknown> = this.#values): boolean {
    try {
      return this.#policy.enforceWith(rule, this.#values, target);
    } catch (error) {
      if (error instanceof PolicyScopeError) return false;
      throw error;
    }
  }

  /** policy.authorize: PolicyForbiddenError when refused. */
  authorize(rule: string, target: Record<string, unknown> = this.#values): void {
    let allowed: boolean;
    try {
      allowed = this.#policy.enforceWith(rule, this.#values, target);
    } catch (error) {
      if (error instanceof PolicyScopeError) {
        throw new PolicyForbiddenError(rule, error.message);
      }
      throw error;
    }
    if (!allowed) throw new PolicyForbiddenError(rule);
  }

  /** check_owner_policy on a node's owner and lessee. */
  authorizeOnNode(rule: string, ownership: NodeOwnership): void {
    this.authorize(rule, ownerTarget(this.#values, ownership));
  }

  /**
   * check_node_policy_and_retrieve: a caller who may not see the node is told it does not exist
   * (NodeNotFound naming what it asked for), then the rule itself is a 403.
   */
  async nodeAndAuthorize(rule: string, ident: string): Promise<NodeObject> {
    const found = await this.visibleNode(ident);
    this.authorizeOnNode(rule, ownershipOf(found));
    return found;
  }

  /** The node, if the caller may see it; else NodeNotFound (a scope refusal stays a 403). */
  async visibleNode(ident: string): Promise<NodeObject> {
    const found = await findNode(this.#request, ident, { withSuffix: true });
    try {
      this.authorizeOnNode('baremetal:node:get', ownershipOf(found));
    } catch (error) {
      if (error instanceof PolicyForbiddenError && !error.scope) {
        throw new NotFoundError('node', ident);
      }
      throw error;
    }
    return found;
  }

  /** check_list_policy: the project to narrow the list to, or `requested` (`?project=`). */
  listProject(objectType: string, requested: string | undefined): string | undefined {
    try {
      this.authorize(`baremetal:${objectType}:list_all`);
      return requested;
    } catch (error) {
      if (!(error instanceof PolicyForbiddenError)) throw error;
      const own = this.projectId;
      if (!own || (requested && requested !== own)) throw error;
      this.authorize(`baremetal:${objectType}:list`);
      return own;
    }
  }
}

const accesses = new WeakMap<FastifyRequest, RequestAccess>();

/**
 * Who owns a node a caller creates (the nodes controller's post), or undefined under `noauth`:
 * a caller allowed `create:self_owned_node` outside the system scope creates nodes of its own
 * project, and may name no other owner.
 */
export function createdNodeOwner(
  request: FastifyRequest,
): { readonly ownProject: boolean; readonly projectId: string | null } | undefined {
  const access = accessOf(request);
  if (access === undefined) return undefined;
  const owned = access.allows('baremetal:node:create:self_owned_node');
  return { ownProject: owned && !access.systemScoped, projectId: access.projectId };
}

/**
 * node_sanitize's redactions under the policy: below `baremetal:node:get:filter_threshold`
 * (system readers by default), what the caller may not see of a node it may see (its last
 * error, its reservation, its internal and driver info) is replaced by the real notices.
 * `ownership` is the node's, read before the fields were narrowed. Nothing under `noauth`.
 */
export function redactNode(
  request: FastifyRequest,
  body: Record<string, unknown>,
  ownership: NodeOwnership,
): void {
  const access = accessOf(request);
  if (access === undefined) return;
  const target: Record<string, unknown> = { ...access.values };
  if (ownership.owner) target['node.owner'] = ownership.owner;
  if (ownership.lessee) target['node.lessee'] = ownership.lessee;
  if (access.allows('baremetal:node:get:filter_threshold', target)) return;
  const hidden = (rule: string) => !access.allows(`baremetal:node:get:${rule}`, target);
  if ('last_error' in body && hidden('last_error')) {
    body.last_error = '** Value Redacted - Requires baremetal:node:get:last_error permission. **';
  }
  if ('reservation' in body && hidden('reservation')) {
    body.reservation = '** Redacted - requires baremetal:node:get:reservation permission. **';
  }
  if ('driver_internal_info' in body && hidden('driver_internal_info')) {
    body.driver_internal_info = {
      content: '** Redacted - Requires baremetal:node:get:driver_internal_info permission. **',
    };
  }
  if ('driver_info' in body && hidden('driver_info')) {
    body.driver_info = {
      content: '** Redacted - requires baremetal:node:get:driver_info permission. **',
    };
  }
}

/** oslo's bool_from_string(value, default=None) is False. */
function isFalseString(value: unknown): boolean {
  if (typeof value === 'boolean') return !value;
  return ['0', 'f', 'false', 'off', 'n', 'no'].includes(String(value).trim().toLowerCase());
}

/** The rules a node patch needs, by the paths it touches (_authorize_patch_and_get_node). */
export function nodePatchRules(patch: readonly { path: string; value?: unknown }[]): string[] {
  const rules: string[] = [];
  let generic = false;
  for (const { path, value } of patch) {
    const field = path.replace(/^\/+/, '');
    const kind = field.endsWith('_interface') ? field.slice(0, -'_interface'.length) : undefined;
    if (path.startsWith('/instance_info')) rules.push('baremetal:node:update_instance_info');
    else if (path.startsWith('/extra')) rules.push('baremetal:node:update_extra');
    else if (path.startsWith('/automated_clean') && isFalseString(value)) {
      rules.push('baremetal:node:disable_cleaning');
    } else if (path.startsWith('/driver_info')) rules.push('baremetal:node:update:driver_info');
    else if (path.startsWith('/properties')) rules.push('baremetal:node:update:properties');
    else if (path.startsWith('/chassis_uuid')) rules.push('baremetal:node:update:chassis_uuid');
    else if (path.startsWith('/instance_uuid')) rules.push('baremetal:node:update:instance_uuid');
    else if (path.startsWith('/lessee')) rules.push('baremetal:node:update:lessee');
    else if (path.startsWith('/owner')) rules.push('baremetal:node:update:owner');
    else if (path.startsWith('/driver') || (kind !== undefined && isInterfaceKind(kind))) {
      rules.push('baremetal:node:update:driver_interfaces');
    } else if (path.startsWith('/network_data')) rules.push('baremetal:node:update:network_data');
    else if (path.startsWith('/conductor_group')) {
      rules.push('baremetal:node:update:conductor_group');
    } else if (path.startsWith('/name')) rules.push('baremetal:node:update:name');
    else if (path.startsWith('/retired')) rules.push('baremetal:node:update:retired');
    else if (path.startsWith('/shard')) rules.push('baremetal:node:update:shard');
    else generic = true;
  }
  if (generic || rules.length === 0) rules.push('baremetal:node:update');
  return rules;
}

/**
 * check_multiple_node_policies_and_retrieve for a patch: the first rule as a node check (not
 * visible: not found), the others on its owner and lessee. Nothing under `noauth`.
 */
export async function authorizeNodePatch(
  request: FastifyRequest,
  ident: string,
  patch: readonly { path: string; value?: unknown }[],
): Promise<void> {
  const access = accessOf(request);
  if (access === undefined) return;
  const [first, ...others] = nodePatchRules(patch);
  const found = await access.nodeAndAuthorize(first as string, ident);
  for (const rule of others) access.authorizeOnNode(rule, ownershipOf(found));
}

/** May the caller change the owner of a node that is ACTIVE (update_owner_provisioned)? */
export function mayChangeProvisionedOwner(request: FastifyRequest, found: NodeObject): boolean {
  const access = accessOf(request);
  if (access === undefined) return true;
  return access.allows(
    'baremetal:node:update_owner_provisioned',
    ownerTarget(access.values, ownershipOf(found)),
  );
}

/**
 * A create naming its node in the body (port, portgroup): the rule is checked on that node's
 * owner and lessee before a missing node is reported, as the real controllers order them.
 */
export async function nodeForCreate(
  request: FastifyRequest,
  rule: string,
  find: () => Promise<NodeObject>,
): Promise<NodeObject> {
  let found: NodeObject | undefined;
  let missing: unknown;
  try {
    found = await find();
  } catch (error) {
    missing = error;
  }
  accessOf(request)?.authorizeOnNode(rule, ownershipOf(found));
  if (found === undefined) throw missing;
  return found;
}

/** The request's checks; undefined under `noauth`, where nothing is checked. */
export function accessOf(request: FastifyRequest): RequestAccess | undefined {
  const known = accesses.get(request);
  if (known !== undefined) return known;
  const policy = request.server.baremetalPolicy;
  const credentials = request.credentials;
  if (policy === undefined || credentials === undefined) return undefined;
  const access = new RequestAccess(request, policy, credentials);
  accesses.set(request, access);
  return access;
}

function lastValue(value: unknown): string | undefined {
  if (Array.isArray(value)) return lastValue(value[value.length - 1]);
  return typeof value === 'string' ? value : undefined;
}

async function nodeOfPort(request: FastifyRequest, nodeId: unknown): Promise<NodeOwnership> {
  try {
    return ownershipOf(await request.server.baremetal.store.nodes.get(Number(nodeId)));
  } catch (error) {
    // A port whose node is gone: no owner, no lessee.
    if (error instanceof NotFoundError) return ownershipOf(undefined);
    throw error;
  }
}

async function checkRoute(request: FastifyRequest, access: RequestAccess, route: RouteAccess) {
  const params = request.params as Record<string, string>;
  const query = request.query as Record<string, unknown>;
  const { store } = request.server.baremetal;
  switch (route.kind) {
    case 'authenticated':
    case 'inHandler':
      return;
    case 'system':
      access.authorize(route.rule);
      return;
    case 'node': {
      const ident = route.query
        ? (lastValue(query.node) ?? lastValue(query.node_uuid))
        : (params.node as string);
      // Without a node the handler answers its own error.
      if (ident === undefined) return;
      await access.nodeAndAuthorize(route.rule, ident);
      return;
    }
    case 'nodeDelete': {
      const ident = params.node as string;
      try {
        await access.nodeAndAuthorize('baremetal:node:delete', ident);
      } catch (error) {
        // CONF.api.project_admin_can_manage_own_nodes (on by default).
        if (!(error instanceof PolicyForbiddenError)) throw error;
        await access.nodeAndAuthorize('baremetal:node:delete:self_owned_node', ident);
      }
      return;
    }
    case 'nodeCreate':
      if (!access.allows('baremetal:node:create:self_owned_node')) {
        access.authorize('baremetal:node:create');
      }
      return;
    case 'nodeVisible':
      await access.visibleNode(params.node as string);
      return;
    case 'nodeList': {
      const project = access.listProject('node', lastValue(query.project));
      if (project !== undefined) listProjects.set(request, project);
      return;
    }
    case 'portList': {
      if (route.parent !== undefined) {
        let ownership: NodeOwnership;
        let concealed: Error;
        if (route.parent === 'portgroup') {
          const group = await findPortgroup(request, params.portgroup as string);
          ownership = await nodeOfPort(request, group.get('node_id'));
          concealed = new NotFoundError('portgroup', params.portgroup as string);
        } else {
          const found = await findNode(request, params.node as string);
          ownership = ownershipOf(found);
          concealed = new NotFoundError('node', String(found.get('uuid')));
        }
        try {
          access.authorizeOnNode('baremetal:node:get', ownership);
        } catch (error) {
          if (error instanceof PolicyForbiddenError && !error.scope) throw concealed;
          throw error;
        }
      }
      const kind = route.portgroup ? 'portgroup' : 'port';
      try {
        access.authorize(`baremetal:${kind}:list_all`);
      } catch (error) {
        if (!(error instanceof PolicyForbiddenError) || !access.projectId) throw error;
        access.authorize(`baremetal:${kind}:list`);
        listProjects.set(request, access.projectId);
      }
      return;
    }
    case 'port': {
      const ident = (route.portgroup ? params.portgroup : params.port) as string;
      const nodeId = route.portgroup
        ? (await findPortgroup(request, ident, { withSuffix: true })).get('node_id')
        : (await store.ports.get(ident)).get('node_id');
      const ownership = await nodeOfPort(request, nodeId);
      try {
        access.authorizeOnNode('baremetal:node:get', ownership);
      } catch (error) {
        if (error instanceof PolicyForbiddenError && !error.scope) {
          throw new NotFoundError(route.portgroup ? 'portgroup' : 'port', ident);
        }
        throw error;
      }
      access.authorizeOnNode(route.rule, ownership);
      return;
    }
  }
}

/**
 * The checks that need no body, in a preParsing hook: the body of a refused request is never
 * read (the unread-body discard bounds what is drained). A route without an entry is refused:
 * a route added without its check fails closed.
 */
export function registerAccessChecks(app: FastifyInstance, policy: RuleSet | undefined): void {
  app.decorate('baremetalPolicy', policy);
  if (policy === undefined) return;
  app.addHook('preParsing', async (request, _reply, payload) => {
    const access = accessOf(request);
    // The public routes carry no credentials and check nothing.
    if (access === undefined) return payload;
    const key = `${request.method} ${request.routeOptions.url ?? ''}`;
    const route = ROUTE_ACCESS[key];
    if (route === undefined) {
      if (request.is404 || isMethodRefusal(request)) return payload;
      throw new PolicyForbiddenError(key);
    }
    await checkRoute(request, access, route);
    return payload;
  });
}

/** The 405 every declared URL answers to the methods it does not serve. */
function isMethodRefusal(request: FastifyRequest): boolean {
  return (
    (request.routeOptions.config as { methodRefusal?: boolean } | undefined)?.methodRefusal === true
  );
}
